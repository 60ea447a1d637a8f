"""Pictures of simulation reports (PNG files), drawn with matplotlib, an optional extra.

matplotlib is imported only when a picture is drawn, with the Agg backend (no display
needed). ``plot_report`` draws one run in three panels: each seat's sole wins (with their 95%
interval), shared wins and draws, stacked; each seat's scores (a box plot, the mean marked);
the histogram of game lengths. Every seat is named with its agent, and counts have whole-
number ticks. ``plot_comparison`` draws two runs side by side on the same three panels.
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
    """Draw the three panels of ``draw_runs`` to the PNG file ``path``."""
    plt = require_matplotlib()
    figure = draw_runs(reports, names, title)
    try:
        figure.savefig(path, format="png", dpi=DPI)
    finally:
        plt.close(figure)


def draw_runs(reports: Sequence[SimulationReport], names: Sequence[str], title: str) -> Any:
    """A figure of three panels (results per seat, scores per seat, lengths), each run in its own
    colour and named in the legends by ``names``; the caller closes it."""
    plt = require_matplotlib()
    figure, (results, scores, lengths) = plt.subplots(1, 3, figsize=SIZE)
    seats = seat_labels(reports, names)
    _results(results, reports, names, seats)
    _scores(scores, reports, names, seats)
    _histograms(lengths, [[float(x) for x in r.lengths] for r in reports], names, "length (decisions)")
    figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    return figure


def seat_labels(reports: Sequence[SimulationReport], names: Sequence[str]) -> list[str]:
    """Each seat with its agent ("seat 1\ngreedy"); with the agent of each run when they differ."""
    labels = []
    for seat in range(reports[0].players):
        agents = [r.agents[seat] for r in reports]
        if len(set(agents)) == 1:
            labels.append(f"seat {seat + 1}\n{agents[0]}")
        else:
            labels.append(f"seat {seat + 1}\n" + "\n".join(f"{n}: {a}" for n, a in zip(names, agents, strict=True)))
    return labels


def _offsets(reports: Sequence[SimulationReport], width: float) -> list[list[float]]:
    """The x of each run's bar (or box) at each seat: side by side around the seat's number."""
    return [[s + 1 + (k - (len(reports) - 1) / 2) * width for s in range(report.players)]
            for k, report in enumerate(reports)]


def _results(axes: Any, reports: Sequence[SimulationReport], names: Sequence[str], seats: Sequence[str]) -> None:
    """Stacked bars per seat: sole wins (with the 95% Wilson interval), shared wins, draws, as
    shares of the finished games."""
    width = 0.8 / len(reports)
    for report, name, xs in zip(reports, names, _offsets(reports, width), strict=True):
        rows = report.seat_rows()
        sole, shared, draws = ([row[key] for row in rows] for key in ("sole_win_rate", "shared_win_rate", "draw_rate"))
        below = [max(0.0, rate - row["sole_win_interval"][0]) for rate, row in zip(sole, rows, strict=True)]
        above = [max(0.0, row["sole_win_interval"][1] - rate) for rate, row in zip(sole, rows, strict=True)]
        prefix = f"{name} " if name else ""
        bars = axes.bar(xs, sole, width, yerr=[below, above], capsize=4, label=f"{prefix}sole wins (95% interval)")
        colour = bars.patches[0].get_facecolor() if bars.patches else None
        axes.bar(xs, shared, width, bottom=sole, color=colour, alpha=0.5, hatch="//", label=f"{prefix}shared wins")
        tops = [a + b for a, b in zip(sole, shared, strict=True)]
        axes.bar(xs, draws, width, bottom=tops, color=colour, alpha=0.2, hatch="..", label=f"{prefix}draws")
    axes.axhline(1 / reports[0].players, color="grey", linestyle=":", linewidth=1, label="equal seats")
    axes.set_xticks(range(1, reports[0].players + 1), seats, fontsize=8)
    axes.set_ylabel("share of finished games")
    axes.set_title("results per seat", fontsize=9)
    axes.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2 * len(reports),
                frameon=False)   # under the seats: never over a bar


def _scores(axes: Any, reports: Sequence[SimulationReport], names: Sequence[str], seats: Sequence[str]) -> None:
    """A box plot of each seat's scores (the mean as a triangle), each run in its colour."""
    width = 0.7 / len(reports)
    for k, (report, name, xs) in enumerate(zip(reports, names, _offsets(reports, width), strict=True)):
        colour = f"C{k}"
        present = [(x, scores) for x, scores in zip(xs, report.scores, strict=True) if scores]
        if not present:
            continue
        axes.boxplot([scores for _, scores in present], positions=[x for x, _ in present], widths=width * 0.9,
                     showmeans=True, patch_artist=True, manage_ticks=False,
                     boxprops={"facecolor": colour, "alpha": 0.5}, medianprops={"color": "black"},
                     meanprops={"markerfacecolor": "white", "markeredgecolor": "black"})
        if name:
            axes.plot([], [], color=colour, linewidth=6, alpha=0.5, label=name)   # the run in the legend
    axes.set_xticks(range(1, reports[0].players + 1), seats, fontsize=8)
    axes.set_xlim(0.4, reports[0].players + 0.6)
    axes.set_ylabel("score")
    axes.set_title("scores per seat (box: quartiles; triangle: mean)", fontsize=9)
    if len(reports) > 1:
        axes.legend(fontsize=8)


def _histograms(axes: Any, samples: Sequence[Sequence[float]], labels: Sequence[str], what: str) -> None:
    """Overlaid histograms on shared bins (whole-number bins for whole-number data), with
    whole-number ticks on the count axis (and on the other for whole-number data)."""
    from matplotlib.ticker import MaxNLocator
    values = [v for sample in samples for v in sample]
    whole = all(float(v).is_integer() for v in values)
    if values:
        low, high = min(values), max(values)
        step = (high - low) / BINS or 1.0
        bins = ([x - 0.5 for x in range(int(low), int(high) + 2)] if whole and high - low <= 60
                else [low + i * step for i in range(BINS + 1)])   # the same bins for every run
        for sample, label in zip(samples, labels, strict=True):
            if len(samples) > 1:   # outlines, so that both runs stay visible
                axes.hist(sample, bins=bins, histtype="step", linewidth=2, label=label)
            else:
                axes.hist(sample, bins=bins, alpha=0.9, label=label)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    if whole:
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(what)
    axes.set_ylabel("games")
    if len(samples) > 1:
        axes.legend(fontsize=8)
