"""`lengthwise pack-training`: CNNSum-style long training samples from short pairs.

Reads (text, summary) pairs from any dataset with such columns (a local json/jsonl/
csv/parquet file or folder, or a Hub id), packs them into long samples whose context
length lies in [lower, upper] under a tokenizer (`sampling.training.pack_pairs`), and
writes them as JSONL with a report of what was dropped and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lengthwise.builders.sampling import pack_pairs
from lengthwise.builders.sources.hf import HFLoadError, load_hf_dataset
from lengthwise.errors import UserError
from lengthwise.spec import HFDatasetSource
from lengthwise.storage import atomic_write_json, atomic_write_jsonl
from lengthwise.tokenizers import get_tokenizer


@dataclass(frozen=True)
class PackingRequest:
    dataset: str
    text_column: str
    summary_column: str
    lower: int
    upper: int
    tokenizer: str
    seed: int
    split: str = "train"


def pack_training_data(request: PackingRequest, out: Path) -> dict[str, Any]:
    """Pack the dataset's pairs and write `out` (JSONL) plus `out`.report.json."""
    if request.lower > request.upper:
        raise UserError(f"--lower ({request.lower}) must not exceed --upper ({request.upper})")
    source = HFDatasetSource(
        kind="hf", dataset=request.dataset, column=request.text_column, split=request.split
    )
    try:
        dataset = load_hf_dataset(source, Path.cwd())
    except HFLoadError as exc:
        raise UserError(f"{request.dataset}: {exc}") from None
    columns = list(dataset.column_names)
    for column in (request.text_column, request.summary_column):
        if column not in columns:
            raise UserError(f"{request.dataset}: no column {column!r} (columns: {columns})")
    pairs = [
        (str(row[request.text_column] or ""), str(row[request.summary_column] or ""))
        for row in dataset
    ]
    tokenizer = get_tokenizer(request.tokenizer)
    result = pack_pairs(pairs, tokenizer.count, request.lower, request.upper, request.seed)
    atomic_write_jsonl(out, (s.to_dict() for s in result.samples))
    report = {
        "dataset": request.dataset,
        "pairs": len(pairs),
        "tokenizer": request.tokenizer,
        "interval": [request.lower, request.upper],
        "seed": request.seed,
        **result.to_dict(),
        "dropped_pairs": [
            {"row": d.index, "reason": d.reason, "tokens": d.tokens} for d in result.dropped
        ],
    }
    atomic_write_json(out.with_suffix(out.suffix + ".report.json"), report)
    return report
