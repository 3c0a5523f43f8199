"""Tokenizer files named in a spec: resolved against the spec's folder and checked to exist."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lengthwise.errors import SpecError


def resolve_tokenizer_paths(data: dict[str, Any], spec_file: Path) -> dict[str, Any]:
    """hf:/sp: tokenizer paths in a spec are relative to the spec's folder, like all paths, and
    must exist: a missing one is a SpecError naming the spec file, the key and where it looked."""
    section = data.get("tokenizers")
    if not isinstance(section, dict):
        return data
    base_dir = spec_file.parent.resolve()

    def resolve(value: Any, key: str) -> Any:
        if isinstance(value, str) and value.startswith(("hf:", "sp:")):
            kind, _, rest = value.partition(":")
            if not rest.strip():
                return value  # the id validator says what is wrong
            path = Path(rest).expanduser()
            path = path if path.is_absolute() else (base_dir / path).resolve()
            _check_tokenizer_file(kind, path, f"{spec_file}: {key}: {value!r}")
            return f"{kind}:{path}"
        return value

    section = dict(section)
    if "primary" in section:
        section["primary"] = resolve(section["primary"], "tokenizers.primary")
    if isinstance(section.get("extra"), list):
        section["extra"] = [
            resolve(v, f"tokenizers.extra[{i}]") for i, v in enumerate(section["extra"])
        ]
    return {**data, "tokenizers": section}


def _check_tokenizer_file(kind: str, path: Path, where: str) -> None:
    from lengthwise.tokenizers.backends import hf_tokenizer_file, sentencepiece_model_file

    try:
        hf_tokenizer_file(path) if kind == "hf" else sentencepiece_model_file(path)
    except FileNotFoundError as exc:
        raise SpecError(f"{where}: {exc} (relative paths start at the spec's folder)") from None
