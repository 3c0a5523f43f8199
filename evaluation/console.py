"""What `lengthwise eval` prints when a run ends: one line per subset/config and prompt."""

from __future__ import annotations

from collections.abc import Iterator, Mapping


def _number(value: object) -> str:
    return f"{value:.2f}" if isinstance(value, int | float) else "–"


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def console_lines(results: Mapping[str, object]) -> Iterator[str]:
    """Summary subsets as before (ROUGE-L), then each other task with its references."""
    table = _mapping(results.get("results"))
    for subset in results.get("subset_order") or []:  # type: ignore[attr-defined]
        for prompt, entry in _mapping(table.get(subset)).items():
            cell = _mapping(entry)
            outcomes = ", ".join(f"{k} {v}" for k, v in _mapping(cell.get("outcomes")).items())
            yield (
                f"  {subset} {prompt}: ROUGE-L {_number(cell.get('mean'))} "
                f"(n={cell.get('n')}; {outcomes})"
            )
    for name, task in _mapping(results.get("tasks")).items():
        described = _mapping(task)
        if described.get("family") == "summarization":
            continue
        for length, by_prompt in _mapping(described.get("lengths")).items():
            for prompt, entry in _mapping(by_prompt).items():
                cell = _mapping(entry)
                yield (
                    f"  {name} {length} {prompt}: {described.get('metric')} "
                    f"{_number(cell.get('mean'))} (n={cell.get('n')}; random "
                    f"{_number(cell.get('random_baseline'))}; readable "
                    f"{_number(cell.get('instruction_following_rate'))}%)"
                )
