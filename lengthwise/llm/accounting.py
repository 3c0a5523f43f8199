"""Per-role token, cost and outcome accounting for stage reports."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NotRequired, cast

from typing_extensions import TypedDict

from lengthwise.llm.types import ChatRequest, ChatResult, LLMClient, ResultCallback
from lengthwise.spec import LLMRoleConfig

if TYPE_CHECKING:
    from lengthwise.llm.usage_journal import UsageJournal


class RoleFiguresJson(TypedDict):
    """One role's figures in a report's `usage` (`total` has no `model`)."""

    model: NotRequired[str]
    calls: int
    cache_hits: int
    model_calls: int
    outcomes: dict[str, int]
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    cost: float
    request_seconds: float


class InvocationFiguresJson(TypedDict):
    """One invocation's figures (usage journal); `total` adds `runs`."""

    invocation: NotRequired[str]
    calls: int
    cache_hits: int
    model_calls: int
    prompt_tokens: int
    completion_tokens: int
    cost: float
    request_seconds: float
    started: NotRequired[str | None]
    total_tokens: int
    runs: NotRequired[int]


class AllInvocationsJson(TypedDict):
    invocations: list[InvocationFiguresJson]
    total: InvocationFiguresJson


class UsageJson(TypedDict):
    """A report's `usage`: `UsageLedger.report()`."""

    roles: dict[str, RoleFiguresJson]
    total: RoleFiguresJson
    all_invocations: NotRequired[AllInvocationsJson]


@dataclass
class RoleUsage:
    """Figures for one role. Tokens, cost and seconds count calls that reached the model;
    cache hits are counted apart because they cost nothing in this run."""

    model: str = ""
    calls: int = 0
    cache_hits: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    request_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "model_calls": self.calls - self.cache_hits,
            "outcomes": dict(sorted(self.outcomes.items())),
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.prompt_tokens + self.completion_tokens,
            "cost": round(self.cost, 6),
            "request_seconds": round(self.request_seconds, 3),
        }


class UsageLedger:
    """Collects results per role; safe to record from several threads.

    With a `journal`, every result is also appended to it at once, so usage survives a
    killed invocation and totals add up across invocations (see usage_journal).
    """

    def __init__(self, journal: UsageJournal | None = None) -> None:
        self._lock = threading.Lock()
        self._roles: dict[str, RoleUsage] = {}
        self.journal = journal
        if journal is not None:
            journal.start()

    def record(self, role: str, config: LLMRoleConfig, result: ChatResult) -> None:
        """Count one result of `role`, priced with `config`'s per-million prices."""
        if self.journal is not None:
            self.journal.record(role, config, result)
        with self._lock:
            usage = self._roles.setdefault(role, RoleUsage(model=config.model))
            usage.calls += 1
            usage.outcomes[result.outcome] += 1
            if result.cached:
                usage.cache_hits += 1
                return
            usage.prompt_tokens += result.usage.prompt_tokens
            usage.completion_tokens += result.usage.completion_tokens
            usage.cost += (
                result.usage.prompt_tokens * config.price_per_million_input
                + result.usage.completion_tokens * config.price_per_million_output
            ) / 1_000_000
            usage.request_seconds += result.latency_seconds

    def record_many(self, role: str, config: LLMRoleConfig, results: Iterable[ChatResult]) -> None:
        for result in results:
            self.record(role, config, result)

    def role(self, role: str) -> RoleUsage:
        """A copy of one role's figures (zeros if the role made no call)."""
        with self._lock:
            usage = self._roles.get(role, RoleUsage())
            return RoleUsage(
                usage.model,
                usage.calls,
                usage.cache_hits,
                Counter(usage.outcomes),
                usage.prompt_tokens,
                usage.completion_tokens,
                usage.cost,
                usage.request_seconds,
            )

    def to_dict(self) -> dict[str, Any]:
        """{"roles": {role: figures}, "total": figures summed over roles} for a report."""
        with self._lock:
            roles = {name: usage.to_dict() for name, usage in sorted(self._roles.items())}
            total = RoleUsage(model="")
            for usage in self._roles.values():
                total.calls += usage.calls
                total.cache_hits += usage.cache_hits
                total.outcomes.update(usage.outcomes)
                total.prompt_tokens += usage.prompt_tokens
                total.completion_tokens += usage.completion_tokens
                total.cost += usage.cost
                total.request_seconds += usage.request_seconds
        summary = total.to_dict()
        del summary["model"]
        return {"roles": roles, "total": summary}

    def usage_json(self) -> UsageJson:
        """`report()` as its typed shape (the ledger builds exactly that shape)."""
        return cast(UsageJson, self.report())

    def report(self) -> dict[str, Any]:
        """to_dict() (this invocation) plus, with a journal, "all_invocations": every
        invocation's figures and their total."""
        report = self.to_dict()
        if self.journal is not None:
            report["all_invocations"] = self.journal.summary()
        return report


class MeteredClient:
    """An LLMClient that counts every result in a ledger as it finishes (for stages that
    hand a client to code which does not count usage itself, e.g. the IC judge)."""

    def __init__(
        self, client: LLMClient, ledger: UsageLedger, role: str, config: LLMRoleConfig
    ) -> None:
        self.client = client
        self.ledger = ledger
        self.role = role
        self.config = config

    @property
    def name(self) -> str:
        return self.client.name

    def complete(self, request: ChatRequest) -> ChatResult:
        result = self.client.complete(request)
        self.ledger.record(self.role, self.config, result)
        return result

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        def record(index: int, result: ChatResult) -> None:
            self.ledger.record(self.role, self.config, result)
            if on_result is not None:
                on_result(index, result)

        return self.client.complete_many(requests, on_result=record)
