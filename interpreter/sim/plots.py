"""Pictures of simulation reports (PNG files), drawn with matplotlib, an optional extra.

matplotlib is imported only when a picture is drawn, with the Agg backend (no display
needed). ``plot_report`` draws one run: each seat's win rate with its 95% interval, the
histogram of scores per seat and the histogram of game lengths. ``plot_comparison`` draws
two runs side by side on the same three panels.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .extras import MissingExtraError
from .simulate import SimulationReport

PLOT_HINT = "pip install 'rulelang[plot]'"
SIZE = (13.0, 4.0)   # inches: three panels side by side
DPI = 100
BINS = 30   # histogram bins, unless whole numbers over a short range get one bin each


def require_matplotlib() -> Any:
    """The pyplot module on the Agg backend; MissingExtraError saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise MissingExtraError(f"plots need matplotlib: {PLOT_HINT}") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_report(report: SimulationReport, path: str, title: str = "") -> None:
    """Draw one run to the PNG file ``path``."""
    plot_runs([report], path, [""], f"{title or 'simulation'}: {report.finished} finished games")


def plot_comparison(a: SimulationReport, b: SimulationReport, path: str, labels: Sequence[str]) -> None:
    """Draw two runs side by side to the PNG file ``path``; ``labels`` name them in the title
    (the legends say A and B)."""
    plot_runs([a, b], path, ["A", "B"], "\n".join(labels))


def plot_runs(reports: Sequence[SimulationReport], path: str, names: Sequence[str], title: str) -> None:
    """Three panels (win rates with intervals, scores, lengths), each run in its own colour
    and named in the legends by ``names``."""
    plt = require_matplotlib()
    figure, (wins, scores, lengths) = plt.subplots(1, 3, figsize=SIZE)
    try:
        _win_rates(wins, reports, names)
        _histograms(scores, [[s for seat in r.scores for s in seat] for r in reports], names,
                    "score (every seat)")
        _histograms(lengths, [[float(x) for x in r.lengths] for r in reports], names, "length (decisions)")
        figure.suptitle(title, fontsize=10)
        figure.tight_layout()
        figure.savefig(path, format="png", dpi=DPI)
    finally:
        plt.close(figure)


def _win_rates(axes: Any, reports: Sequence[SimulationReport], labels: Sequence[str]) -> None:
    """Bars of each seat's win rate, grouped by seat, with the 95% Wilson interval as error bars."""
    width = 0.8 / len(reports)
    for k, (report, label) in enumerate(zip(reports, labels, strict=True)):
        rates = [report.wins[s] / report.finished if report.finished else 0.0 for s in range(report.players)]
        intervals = [report.win_interval(s) for s in range(report.players)]
        below = [max(0.0, r - low) for r, (low, _) in zip(rates, intervals, strict=True)]
        above = [max(0.0, high - r) for r, (_, high) in zip(rates, intervals, strict=True)]
        seats = [s + 1 + (k - (len(reports) - 1) / 2) * width for s in range(report.players)]
        axes.bar(seats, rates, width, yerr=[below, above], capsize=4, label=label or None)
    axes.axhline(1 / reports[0].players, color="grey", linestyle=":", linewidth=1, label="equal seats")
    axes.set_xticks(range(1, reports[0].players + 1))
    axes.set_xlabel("seat")
    axes.set_ylabel("win rate (95% interval)")
    axes.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=len(reports) + 1,
                frameon=False)   # under the seats: never over a bar


def _histograms(axes: Any, samples: Sequence[Sequence[float]], labels: Sequence[str], what: str) -> None:
    """Overlaid histograms on shared bins (whole-number bins for whole-number data)."""
    values = [v for sample in samples for v in sample]
    if values:
        low, high = min(values), max(values)
        whole = all(float(v).is_integer() for v in values) and high - low <= 60
        step = (high - low) / BINS or 1.0
        bins = ([x - 0.5 for x in range(int(low), int(high) + 2)] if whole
                else [low + i * step for i in range(BINS + 1)])   # the same bins for every run
        for sample, label in zip(samples, labels, strict=True):
            if len(samples) > 1:   # outlines, so that both runs stay visible
                axes.hist(sample, bins=bins, histtype="step", linewidth=2, label=label)
            else:
                axes.hist(sample, bins=bins, alpha=0.9, label=label)
    axes.set_xlabel(what)
    axes.set_ylabel("games")
    if len(samples) > 1:
        axes.legend(fontsize=8)
