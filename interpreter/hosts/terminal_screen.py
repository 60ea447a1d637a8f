"""A seat's view fitted to a terminal of a given size (``rulelang play``).

The whole view (``terminal_view.SeatView.render``) can be taller than a terminal: a big board,
many zones, a long log, seventy options. A screen keeps what a player needs to answer in
sight, within ``height`` lines, by a budget spent in this order:

1. the header (one line) and the question with its options, always whole: options in as
   many columns as their labels allow, and when they still do not fit, in pages (numbers
   stay those of the whole list; a line says which keys turn the page);
2. the seat's own holdings (its variables, zones and supplies);
3. the boards;
4. the last lines of the log;
5. then, while room is left, the other panels of the view (players, zones, supplies, the
   game's variables), each whole.

A panel that does not fit whole is cut to what is left (the log keeps its last lines), with
the key that shows the rest in its bottom border. Drawn top to bottom: header, boards,
players, zones, supplies, game, holdings, log, question (next to where the answer is typed).
Nothing here knows a game.
"""
from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from math import ceil
from typing import TYPE_CHECKING

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .present_view import with_tokens
from .seat_view import items_of, mapping_of, whole_number
from .terminal_view import SeatView, log_of

if TYPE_CHECKING:
    from ..state.state import State

LOG_KEY = "l"
"""The key that shows the whole log."""
WHOLE_VIEW_KEY = "z"
"""The key that shows the whole view (every zone, supply and variable)."""
NEXT_PAGE_KEY = "n"
PREVIOUS_PAGE_KEY = "p"
SCREEN_KEY = "s"
"""The key that draws the screen again (after the whole log or view)."""
OPTION_GAP = 3
"""Spaces between two columns of options."""
PANEL_FRAME = 2
"""Lines a panel's borders take."""

MIN_OPTION_ROWS = 10
"""Options take at most half the screen, or this many rows (in columns, then pages)."""

LOG_RESERVE = 5
"""Lines the boards leave for the log (three of its lines) when there is one."""

_PanelMaker = Callable[[], Panel | None]


@dataclass(frozen=True)
class OptionPage:
    """The options shown on one page of a question: ``first`` (an index in the whole list)
    and ``count`` of them, laid out in ``columns`` columns of ``rows`` rows."""

    first: int
    count: int
    columns: int
    rows: int
    pages: int
    page: int


@dataclass(frozen=True)
class Screen:
    """A fitted screen: what to print, and the page of options it shows (None: no question)."""

    renderable: RenderableType
    options: OptionPage | None


def fit_screen(view: SeatView, state: State, player: int, width: int, height: int, *, page: int = 0) -> Screen:
    """The view of seat ``player`` of ``state`` within ``width`` x ``height`` (the module
    docstring's budget), showing page ``page`` of the options (kept within the pages)."""
    return _Fitter(view, state, player, width, height).screen(page)


def whole_log(view: SeatView, state: State, player: int) -> RenderableType:
    """Every line of the log seat ``player`` may see (the key ``LOG_KEY``)."""
    log = log_of(state, player, mapping_of(state.observation(player)))
    return view.log_panel(log, len(log)) or Text("the log is empty", style="dim")


def screen_keys(shown: OptionPage | None) -> dict[str, str]:
    """The keys a screen offers (key: what it shows): the pages of its options, the whole
    log, the whole view, the screen again."""
    keys = {NEXT_PAGE_KEY: "next page"} if shown and shown.page + 1 < shown.pages else {}
    keys |= {PREVIOUS_PAGE_KEY: "previous page"} if shown and shown.page > 0 else {}
    return keys | {LOG_KEY: "whole log", WHOLE_VIEW_KEY: "whole view", SCREEN_KEY: "screen"}


def page_of_options(count: int, longest_label: int, inner_width: int, max_rows: int, page: int) -> OptionPage:
    """Which of ``count`` options a page shows: the fewest columns that hold them all in
    ``max_rows`` rows, as long as each column is wide enough for the longest label (what
    an option says after its label is cut to the column); pages when even those columns do
    not hold them all."""
    longest = min(inner_width, max(1, longest_label))
    fitting = max(1, (inner_width + OPTION_GAP) // (longest + OPTION_GAP))
    rows_allowed = max(1, max_rows)
    columns = max(1, min(fitting, ceil(count / rows_allowed)))
    rows = max(1, min(rows_allowed, ceil(count / columns)))
    per_page = columns * rows
    pages = max(1, ceil(count / per_page))
    page = min(max(page, 0), pages - 1)
    first = page * per_page
    return OptionPage(first, min(per_page, count - first), columns, rows, pages, page)


def option_grid(options: Sequence[str], shown: OptionPage) -> Table:
    """The options of one page, numbered as in the whole list, filled column by column;
    each cut to its column's width (one line per option)."""
    digits = len(str(len(options)))
    grid = Table.grid(padding=(0, OPTION_GAP, 0, 0), expand=True)
    for _ in range(shown.columns):
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    for row in range(shown.rows):
        cells = []
        for column in range(shown.columns):
            index = shown.first + column * shown.rows + row
            within = index < shown.first + shown.count
            number = (f"{index + 1:>{digits}}. ", "bold cyan")
            cells.append(Text.assemble(number, options[index]) if within else Text(""))
        grid.add_row(*cells)
    return grid


def page_hint(shown: OptionPage, total: int) -> Text:
    """Which options a page shows and the keys that turn it."""
    keys = ([f"{NEXT_PAGE_KEY}: next page"] if shown.page + 1 < shown.pages else []) + (
        [f"{PREVIOUS_PAGE_KEY}: previous page"] if shown.page > 0 else [])
    return Text(f"options {shown.first + 1}-{shown.first + shown.count} of {total} "
                f"(page {shown.page + 1} of {shown.pages}); " + ", ".join(keys), style="bold yellow")


class _Fitter:
    """The parts of one screen and their heights at one width."""

    def __init__(self, view: SeatView, state: State, player: int, width: int, height: int) -> None:
        self.view, self.state, self.player = view, state, player
        self.width, self.height = width, height
        self.console = Console(width=width, height=height, color_system=None, force_terminal=False,
                               legacy_windows=False, file=io.StringIO())
        self.obs = mapping_of(state.observation(player))
        self.marks = with_tokens(view, view.board_marks(self.obs), self.obs)
        self.log = log_of(state, player, self.obs)

    def lines(self, renderable: RenderableType) -> int:
        """How many lines ``renderable`` takes at this screen's width."""
        options = self.console.options.update(height=None)
        return len(self.console.render_lines(renderable, options, pad=False))

    def screen(self, page: int) -> Screen:
        header = self.view.header(self.obs)
        left = self.height - self.lines(header)
        question, shown = self.question(left, page)
        left -= self.lines(question)
        parts = self.in_drawing_order()
        log_reserve = LOG_RESERVE if self.log else 0
        chosen: dict[str, RenderableType] = {}
        for name in self.by_priority(parts):
            kept = log_reserve if name.startswith("board ") else 0
            part = parts[name].fit(self, left - kept)
            if part is not None:
                chosen[name] = part
                left -= self.lines(part)
        body = [chosen[name] for name in parts if name in chosen]
        return Screen(Group(header, *body, question), shown)

    # -- the question --------------------------------------------------------

    def question(self, left: int, page: int) -> tuple[RenderableType, OptionPage | None]:
        """The question panel within ``left`` lines: its options paged when they do not fit."""
        view, state = self.view, self.state
        question = view.question_parts(state, self.player, self.obs, self.marks)
        if question is None:
            return view.question_panel(state, self.player, self.obs, self.marks), None
        title, heading, options = question
        labels = [str(action) for action in state.legal_actions(self.player)]
        inner = self.width - 4
        heading_lines = sum(self.lines(Panel(h, width=self.width)) - PANEL_FRAME for h in heading)
        rows = min(left, max(MIN_OPTION_ROWS, left // 2)) - PANEL_FRAME - heading_lines
        digits = len(str(len(options)))
        longest = max(map(len, labels)) + digits + 2
        shown = page_of_options(len(options), longest, inner, rows, page)
        if shown.pages > 1:   # the line (or lines, when it wraps) of the pages: rows fewer, as
            # many on every page (its longest), so that the pages do not shift as they turn
            total = len(options)
            pages = page_of_options(total, longest, inner, rows - 1, 0).pages
            hint_lines = max(self.lines(Panel(page_hint(page_of_options(total, longest, inner, rows - 1, n), total),
                                              width=self.width)) - PANEL_FRAME for n in range(pages))
            shown = page_of_options(total, longest, inner, rows - hint_lines, page)
        body: list[RenderableType] = [*heading, option_grid(options, shown)]
        body += [page_hint(shown, len(options))] if shown.pages > 1 else []
        return view.panel(Group(*body), title), shown

    # -- the other parts --------------------------------------------------------

    def by_priority(self, parts: Mapping[str, _Maker]) -> list[str]:
        """The names of the parts after the question, most needed first."""
        first = ["holdings", *[f"board {name}" for name in self.view.boards], "log"]
        return first + [name for name in parts if name not in first]

    def in_drawing_order(self) -> dict[str, _Maker]:
        """The parts after the question by name, in the order they are drawn."""
        view, obs = self.view, self.obs
        parts: dict[str, _Maker] = {
            f"board {name}": _Whole(partial(view.board_panel, name, self.marks, obs), WHOLE_VIEW_KEY)
            for name in view.boards}
        parts |= {"players": _Whole(lambda: view.players_panel(obs), None),
                  "zones": _Whole(lambda: view.zones_panel(obs), None),
                  "supplies": _Whole(lambda: view.supplies_panel(obs), None),
                  "game": _Whole(lambda: view.globals_panel(obs), None),
                  "holdings": _Whole(lambda: holdings_panel(view, obs), WHOLE_VIEW_KEY),
                  "log": _LastLines(self.log)}
        return parts


class _Maker:
    """A part of the screen, fitted to a number of lines (None when it cannot be)."""

    def fit(self, fitter: _Fitter, lines: int) -> RenderableType | None:
        raise NotImplementedError


class _Whole(_Maker):
    """A panel shown whole, or its first lines with ``key`` (None: never cut) in its border."""

    def __init__(self, make: _PanelMaker, key: str | None) -> None:
        self.make, self.key = make, key

    def fit(self, fitter: _Fitter, lines: int) -> RenderableType | None:
        panel = self.make()
        if panel is None or fitter.lines(panel) <= lines:
            return panel
        if self.key is None or lines < PANEL_FRAME + 1:
            return None
        panel.height = lines
        panel.subtitle = Text(f" cut: {self.key} shows the whole view ", style="yellow")
        panel.subtitle_align = "right"
        return panel


class _LastLines(_Maker):
    """The log panel: its last lines that fit, with the key of the whole log."""

    def __init__(self, log: Sequence[Text]) -> None:
        self.log = log

    def fit(self, fitter: _Fitter, lines: int) -> RenderableType | None:
        left = lines - PANEL_FRAME
        shown = 0
        for line in reversed(self.log):
            left -= len(line.wrap(fitter.console, fitter.width - 4))
            if left < 0:
                break
            shown += 1
        return self._panel(fitter, self.log[len(self.log) - shown:]) if shown else None

    def _panel(self, fitter: _Fitter, shown: Sequence[Text]) -> Panel:
        panel = fitter.view.panel(Text("\n").join(shown), f"log (last {len(shown)} of {len(self.log)})")
        if len(shown) == len(self.log):
            return panel
        panel.subtitle = Text(f" {LOG_KEY}: the whole log ", style="yellow")
        panel.subtitle_align = "right"
        return panel


def holdings_panel(view: SeatView, obs: Mapping[str, object]) -> Panel | None:
    """The seat's own variables, zones and supplies (None for a seat that holds nothing: the
    public view)."""
    me = whole_number(obs.get("player"))
    players = items_of(obs.get("players"))
    if not 0 <= me < len(players):
        return None
    mine = mapping_of(players[me])
    table = Table(box=None, show_header=False, expand=False, pad_edge=False)
    table.add_column("whose", style="bold", no_wrap=True)
    table.add_column("zone", no_wrap=True)
    table.add_column("cards", overflow="fold")
    variables = view._pairs(mine, view.player_vars)
    if variables:
        table.add_row(Text("you"), Text("variables"), Text(variables))
    supplies = ", ".join(f"{name} {view.text(mine[name])}" for name in view.supplies if name in mine)
    if supplies:
        table.add_row(Text(""), Text("supplies"), Text(supplies))
    view._zone_rows(table, "", {k: v for k, v in mine.items() if k in view.player_zones})
    return view.panel(table, "your holdings") if table.row_count else None
