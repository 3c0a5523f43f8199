"""A local transformers causal LM (a model folder on disk), on CPU or GPU.

torch and transformers are imported on first use, so commands that never touch a local
model do not pay their import time (or need them installed). Generation is sequential:
one model instance, one request at a time. Clients on the same folder and device (say
a drafter and a judge) share one loaded copy for as long as any of them is alive.

`chat_template=False` (base models) sends the messages as plain paragraphs, no template,
no special tokens beyond the tokenizer's own BOS; a tokenizer without a template does
the same whatever the switch says.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lengthwise.llm.batch import run_batch
from lengthwise.llm.types import ChatRequest, ChatResult, Outcome, ResultCallback, Usage
from lengthwise.spec import LLMRoleConfig

# tokenizer.model_max_length is a huge sentinel when a tokenizer does not know its limit.
_UNKNOWN_LENGTH = 1_000_000_000


@dataclass(eq=False)
class _Loaded:
    torch: Any
    tokenizer: Any
    model: Any
    device: str
    max_positions: int | None  # from the model config (or tokenizer), before any override
    eos_ids: frozenset[int]
    lock: threading.Lock = field(default_factory=threading.Lock)  # one generate at a time


_SHARED: weakref.WeakValueDictionary[tuple[str, str], _Loaded] = weakref.WeakValueDictionary()
_SHARED_LOCK = threading.Lock()


def _shared_model(folder: Path, device: str) -> _Loaded:
    """The loaded model for (folder, device), loading it unless a live client holds it."""
    key = (str(folder.resolve()), device)
    with _SHARED_LOCK:
        loaded = _SHARED.get(key)
        if loaded is None:
            loaded = _load(folder, device)
            _SHARED[key] = loaded
        return loaded


def _load(folder: Path, device: str) -> _Loaded:
    from lengthwise.extras import require

    require("the transformers backend", "torch", "transformers")
    import torch
    import transformers

    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    tokenizer: Any = transformers.AutoTokenizer.from_pretrained(folder, local_files_only=True)
    model: Any = transformers.AutoModelForCausalLM.from_pretrained(
        folder, dtype="auto", local_files_only=True
    )
    model.to(device)
    model.eval()
    max_positions = getattr(model.config, "max_position_embeddings", None)
    if max_positions is None and tokenizer.model_max_length < _UNKNOWN_LENGTH:
        max_positions = int(tokenizer.model_max_length)
    eos = model.generation_config.eos_token_id
    if eos is None:
        eos = tokenizer.eos_token_id
    eos_ids = frozenset([eos] if isinstance(eos, int) else (eos or []))
    return _Loaded(torch, tokenizer, model, device, max_positions, eos_ids)


def build(config: LLMRoleConfig, **options: Any) -> TransformersClient:
    """The registry's `transformers` provider (options: device, chat_template)."""
    return TransformersClient(config, **options)


class TransformersClient:
    """`LLMClient` for a local model folder (`config.model`); device "auto" picks CUDA if any."""

    concurrency = 1  # a single local model does not overlap requests

    def __init__(
        self, config: LLMRoleConfig, *, device: str = "auto", chat_template: bool = True
    ) -> None:
        if config.backend != "transformers":
            raise ValueError(
                f"TransformersClient needs backend 'transformers', got {config.backend!r}"
            )
        self.config = config
        self.chat_template = chat_template
        self.folder = Path(config.model).expanduser()
        if not (self.folder / "config.json").is_file():
            raise FileNotFoundError(
                f"{self.folder}: not a model folder (no config.json); the transformers backend "
                "takes the path of a folder written by save_pretrained as `model`"
            )
        self._device = device
        self._loaded: _Loaded | None = None

    @property
    def name(self) -> str:
        return f"transformers:{self.folder}"

    def complete(self, request: ChatRequest) -> ChatResult:
        """One answer, generated (the request cache wraps this client, see cached.py)."""
        loaded = self._load()
        with loaded.lock:
            return self._generate(loaded, request)

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        """Answers in input order, one at a time (a single local model does not overlap)."""
        return run_batch(requests, self.complete, concurrency=1, on_result=on_result)

    # -- internals ---------------------------------------------------------------------

    def _load(self) -> _Loaded:
        if self._loaded is None:
            self._loaded = _shared_model(self.folder, self._device)
        return self._loaded

    def _prompt_ids(self, loaded: _Loaded, request: ChatRequest) -> list[int]:
        tokenizer = loaded.tokenizer
        if self.chat_template and getattr(tokenizer, "chat_template", None):
            encoded = tokenizer.apply_chat_template(
                [{"role": m.role, "content": m.content} for m in request.messages],
                add_generation_prompt=True,
                tokenize=True,
                return_dict=True,
            )
            return list(encoded["input_ids"])
        # Template off, or a base model without one: the messages as plain paragraphs.
        text = "\n\n".join(m.content for m in request.messages)
        return list(tokenizer(text)["input_ids"])

    def _generate(self, loaded: _Loaded, request: ChatRequest) -> ChatResult:
        started = time.perf_counter()
        prompt_ids = self._prompt_ids(loaded, request)
        model_name = str(self.folder)
        limit = self.config.context_window or loaded.max_positions
        if limit is not None and len(prompt_ids) >= limit:
            return ChatResult(
                "",
                "over_length",
                Usage(prompt_tokens=len(prompt_ids)),
                model_name,
                error=f"prompt has {len(prompt_ids)} tokens; the model takes at most {limit}",
                latency_seconds=time.perf_counter() - started,
            )
        max_new = request.max_tokens
        if limit is not None:
            max_new = min(max_new, limit - len(prompt_ids))
        torch = loaded.torch
        options: dict[str, Any] = {"max_new_tokens": max_new}
        if request.temperature > 0:
            options.update(do_sample=True, temperature=request.temperature, top_p=request.top_p)
            if request.seed is not None:
                torch.manual_seed(request.seed)
        else:
            options.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        if request.stop:
            options.update(stop_strings=list(request.stop), tokenizer=loaded.tokenizer)
        pad_id = loaded.tokenizer.pad_token_id
        if pad_id is None:
            pad_id = loaded.tokenizer.eos_token_id
        input_ids = torch.tensor([prompt_ids], device=loaded.device)
        with torch.inference_mode():
            output = loaded.model.generate(
                input_ids=input_ids,
                attention_mask=torch.ones_like(input_ids),
                pad_token_id=pad_id,
                **options,
            )
        new_ids = [int(t) for t in output[0][len(prompt_ids) :]]
        text = loaded.tokenizer.decode(new_ids, skip_special_tokens=True)
        stopped = False
        for stop in request.stop:
            # OpenAI semantics: the answer ends before the stop sequence.
            if stop and stop in text:
                text, stopped = text[: text.index(stop)], True
        ended = bool(new_ids) and new_ids[-1] in loaded.eos_ids
        outcome: Outcome = "length" if not (ended or stopped) and len(new_ids) >= max_new else "ok"
        return ChatResult(
            text,
            outcome,
            Usage(prompt_tokens=len(prompt_ids), completion_tokens=len(new_ids)),
            model_name,
            latency_seconds=time.perf_counter() - started,
        )
