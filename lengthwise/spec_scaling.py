"""Spec tables for scale-out: where corpus stages run (`[executor]`) and model endpoints.

Kept apart from spec.py (which imports them) because neither decides what a stage
outputs: the executor only decides where the per-book work runs, the endpoints list
only where a role's requests are sent. Neither enters a build fingerprint or a request
cache key.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

ExecutorKind = Literal["local", "ray"]


class ExecutorConfig(BaseModel):
    """`[executor]`: the corpus stages on this machine's processes or on Ray.

    `address` is handed to `ray.init`: "" starts a private local instance (bound to
    127.0.0.1, no dashboard), "auto" joins the cluster this machine belongs to (or
    RAY_ADDRESS), "ray://HEAD:10001" a remote cluster through Ray Client, "HOST:6379" a
    cluster head directly. With a cluster, the work directory must be on storage every
    node mounts (the workers read and write the caches under WORK/cache).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ExecutorKind = "local"
    address: str = ""
    workers: int | None = Field(default=None, ge=1)  # tasks in flight; None: all CPUs
    num_cpus: float = Field(default=1.0, gt=0)  # reserved per task (Ray)
    memory_mb: int | None = Field(default=None, gt=0)  # reserved per task (Ray)
    max_retries: int = Field(default=3, ge=0)  # a task whose worker died is run again


class EndpointConfig(BaseModel):
    """One server of a role's `endpoints` list (all serve the same model)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str = Field(min_length=1)
    concurrency: int | None = Field(default=None, ge=1)  # None: the role's concurrency
    api_key_env: str | None = None  # None: the role's api_key_env

    @model_validator(mode="before")
    @classmethod
    def _from_url(cls, value: Any) -> Any:
        # `endpoints = ["http://a:8000/v1", {base_url = "http://b:8000/v1", concurrency = 16}]`
        return {"base_url": value} if isinstance(value, str) else value
