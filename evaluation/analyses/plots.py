"""Line and bar charts shared by the analyses (matplotlib, Agg, PNG at 110 dpi)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

Series = Mapping[str, tuple[Sequence[float], Sequence[float | None]]]


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _finish(figure: Any, axes: Any, title: str, path: Path) -> Path:
    axes.set_title(title)
    axes.grid(alpha=0.3)
    if axes.get_legend_handles_labels()[0]:
        axes.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    _pyplot().close(figure)
    return path


def line_plot(
    path: Path,
    series: Series,
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    dashed: Sequence[str] = (),
    xticks: Sequence[tuple[float, str]] = (),
) -> Path:
    """One line per series name; `None` values are left out; names in `dashed` are dashed."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for name, (xs, ys) in series.items():
        points = [(x, y) for x, y in zip(xs, ys, strict=True) if y is not None]
        if points:
            axes.plot(
                [p[0] for p in points],
                [p[1] for p in points],
                marker="o",
                linestyle="--" if name in dashed else "-",
                label=name,
            )
    if xticks:
        axes.set_xticks([t[0] for t in xticks])
        axes.set_xticklabels([t[1] for t in xticks], fontsize=8)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    return _finish(figure, axes, title, path)


def bar_plot(
    path: Path,
    categories: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    *,
    title: str,
    ylabel: str,
) -> Path:
    """Grouped bars: one group per category, one bar per series name."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(max(6, 0.6 * len(categories) * len(series) + 2), 4.5))
    width = 0.8 / max(1, len(series))
    for number, (name, values) in enumerate(series.items()):
        xs = [i + number * width - 0.4 + width / 2 for i in range(len(categories))]
        axes.bar(xs, [v or 0.0 for v in values], width=width, label=name)
    axes.set_xticks(range(len(categories)))
    axes.set_xticklabels(categories, fontsize=8)
    axes.set_ylabel(ylabel)
    axes.axhline(0, color="black", linewidth=0.6)
    return _finish(figure, axes, title, path)


def safe_name(text: str) -> str:
    """A file-name piece from a label (letters, digits, dash)."""
    cleaned = "".join(c if c.isalnum() else "-" for c in text).strip("-")
    return "-".join(filter(None, cleaned.split("-")))[:60] or "x"
