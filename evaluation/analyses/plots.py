"""Line and bar charts shared by the analyses (matplotlib, Agg, PNG at 110 dpi).

Readable by construction: long or many category labels are slanted, more than ten
lines get distinct colours and dash styles (tab20) and a legend beside the axes; bars
take optional intervals (error bars), counts (n above each bar) and a chance level.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

Series = Mapping[str, tuple[Sequence[float], Sequence[float | None]]]
Interval = tuple[float, float] | None
_DASHES = ("-", "--", "-.", ":")


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
    intervals: Mapping[str, Sequence[Interval]] | None = None,
) -> Path:
    """One line per series name; `None` values are left out; names in `dashed` are dashed;
    `intervals` (per name, per point) draw 95% error bars."""
    plt = _pyplot()
    many = len(series) > 10
    figure, axes = plt.subplots(figsize=(9 if many else 7, 4.5))
    colours = plt.get_cmap("tab20").colors if many else None
    for number, (name, (xs, ys)) in enumerate(series.items()):
        spans = list((intervals or {}).get(name) or [None] * len(xs))
        points = [(x, y, i) for x, y, i in zip(xs, ys, spans, strict=True) if y is not None]
        if points:
            style = "--" if name in dashed else _DASHES[(number // 20) % 4] if many else "-"
            axes.errorbar(
                [p[0] for p in points],
                [p[1] for p in points],
                yerr=[
                    [y - i[0] if i else 0.0 for _, y, i in points],
                    [i[1] - y if i else 0.0 for _, y, i in points],
                ],
                capsize=3 if intervals else 0,
                marker="o",
                linestyle=style,
                color=colours[number % 20] if colours else None,
                label=name,
            )
    if xticks:
        axes.set_xticks([t[0] for t in xticks])
        axes.set_xticklabels([t[1] for t in xticks], fontsize=8)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    if many:  # beside the axes: a long legend would hide the lines
        axes.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1))
    return _finish(figure, axes, title, path)


def _slant(axes: Any, categories: Sequence[str]) -> None:
    """Category labels, slanted when they would overlap."""
    axes.set_xticks(range(len(categories)))
    if len(categories) > 6 or max((len(c) for c in categories), default=0) > 12:
        axes.set_xticklabels(categories, fontsize=7, rotation=30, ha="right")
    else:
        axes.set_xticklabels(categories, fontsize=8)


def bar_plot(
    path: Path,
    categories: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    *,
    title: str,
    ylabel: str,
    intervals: Mapping[str, Sequence[Interval]] | None = None,
    counts: Mapping[str, Sequence[int | None]] | None = None,
    chance: float | None = None,
) -> Path:
    """Grouped bars: one group per category, one bar per series name; optional 95%
    intervals (error bars), counts (n above each bar) and a chance level (dotted)."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(max(6, 0.6 * len(categories) * len(series) + 2), 4.8))
    width = 0.8 / max(1, len(series))
    for number, (name, values) in enumerate(series.items()):
        xs = [i + number * width - 0.4 + width / 2 for i in range(len(categories))]
        heights = [v or 0.0 for v in values]
        bars = axes.bar(xs, heights, width=width, label=name)
        spans = (intervals or {}).get(name)
        if spans:
            low = [h - s[0] if s else 0.0 for h, s in zip(heights, spans, strict=True)]
            high = [s[1] - h if s else 0.0 for h, s in zip(heights, spans, strict=True)]
            axes.errorbar(xs, heights, yerr=[low, high], fmt="none", ecolor="black", capsize=3)
        numbers = (counts or {}).get(name)
        if numbers:
            labels = ["" if n is None else f"n={n}" for n in numbers]
            axes.bar_label(bars, labels=labels, fontsize=6, padding=2)
    if chance is not None:
        axes.axhline(chance, color="#777777", linestyle=":", label="chance")
    tallest = max((v for values in series.values() for v in values if v is not None), default=0)
    if tallest > 0:  # room above the bars for their n and the legend
        axes.set_ylim(top=tallest * 1.25)
    _slant(axes, categories)
    axes.set_ylabel(ylabel)
    axes.axhline(0, color="black", linewidth=0.6)
    return _finish(figure, axes, title, path)


def safe_name(text: str) -> str:
    """A file-name piece from a label (letters, digits, dash)."""
    cleaned = "".join(c if c.isalnum() else "-" for c in text).strip("-")
    return "-".join(filter(None, cleaned.split("-")))[:60] or "x"
