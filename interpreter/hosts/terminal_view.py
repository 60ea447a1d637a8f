"""The terminal view of one seat: what that player may see, drawn with rich.

Everything comes from data: the seat's observation (``State.observation``), the decision it
is asked (``State.decision``), the game's catalog info (``Game.catalog_info``) and its boards;
what a view shows as data (values as text, what lies on each space) is ``seat_view``'s, the
web page shares it. Nothing here knows a game. The view is a stack of panels:

- a header (title, seat, who acts, the result once the game is over);
- each board drawn as text: a square grid as a table with row 1 at the bottom (``y`` grows
  northward, as board data says), a hex board as offset rows of hexes showing the initials
  of its text attributes (a terrain, a landmark), its coordinates ``q, r`` in the margins and a
  footnote named by the space for each hex something lies on, a graph board (a track that may fork) as
  its numbered spaces; the texts the ruleset's presentation declares on the spaces (a label, a
  corner: terminal_labels) instead of the attributes on a hex map and a track; on each
  space the pieces and markers found in the observation (space variables, and player,
  global and component variables whose value is that space);
- the players: each seat's variables;
- the seat's own zones, the other players' zones, the shared zones (cards by label, tokens
  on them in brackets; hidden zones by size; empty zones by name);
- the supplies: each player's, and every non-zero supply on a component the seat can see;
- the global variables;
- the question: its kind, prompt and numbered options (a space option with the space's
  attributes and what lies on it, a component option with the tokens on it);
- the last lines of the log this seat may see.

Texts of a ruleset (labels, prompts, log lines, names) are never read as rich markup: every
cell is a ``Text``. ``render_view`` gives a rich renderable; ``render_text`` the same as plain text for a given
width (for logs, files and terminals without colour).
"""
from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rulelang.report import counted

from ..model.values import CHANCE
from ..state.narrate import line_text
from .present_view import with_tokens
from .seat_view import (
    Card,
    SeatData,
    hidden_size,
    items_of,
    mapping_of,
    seat_order,
    shown_attributes,
    whole_number,
    zone_cards,
)
from .terminal_labels import Presented, columns_of, presented_board, track_legend, track_words

if TYPE_CHECKING:
    from rulelang.boards import Board, Space

    from ..game import Game
    from ..state.state import State

MAX_OPTION_ROWS = 16
"""More options than this are laid out in columns."""


def render_view(game: Game, state: State, player: int, *, log_lines: int = 8) -> RenderableType:
    """The view of seat ``player`` of ``state`` as a rich renderable (a stack of panels)."""
    return SeatView(game).render(state, player, log_lines=log_lines)


def render_text(game: Game, state: State, player: int, *, width: int = 100, log_lines: int = 8,
                ascii_only: bool = False) -> str:
    """The view of seat ``player`` as plain text, ``width`` characters wide (``ascii_only``:
    boxes drawn with ``+-|``)."""
    view = SeatView(game, boxes=box.ASCII if ascii_only else box.ROUNDED)
    return plain_text(view.render(state, player, log_lines=log_lines), width)


def plain_text(renderable: RenderableType, width: int) -> str:
    """A renderable as plain text (no colours or styles), ``width`` characters wide."""
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None,
                      force_terminal=False, legacy_windows=False)
    console.print(renderable)
    return console.export_text(styles=False)


# ------------------------------------------------------------------ the view


class SeatView(SeatData):
    """Draws the views of the seats of one game (the catalog info is read once; the data of
    a view, the marks on the spaces, come from ``seat_view.SeatData``)."""

    def __init__(self, game: Game, *, boxes: box.Box = box.ROUNDED) -> None:
        super().__init__(game)
        self.boxes = boxes
        self.grid_lines = box.ASCII if boxes is box.ASCII else box.SQUARE

    # -- the whole view --------------------------------------------------

    def render(self, state: State, player: int, *, log_lines: int = 8) -> RenderableType:
        """The view of seat ``player`` of ``state``: the panels of the module docstring."""
        obs = mapping_of(state.observation(player))
        marks = with_tokens(self, self.board_marks(obs), obs)
        parts: list[RenderableType | None] = [self.header(obs)]
        parts += [self.board_panel(name, marks, obs) for name in self.boards]
        parts += [self.players_panel(obs), self.zones_panel(obs), self.supplies_panel(obs),
                  self.globals_panel(obs), self.question_panel(state, player, obs, marks),
                  self.log_panel(log_of(state, player, obs), log_lines)]
        return Group(*[p for p in parts if p is not None])

    def panel(self, body: RenderableType, title: str) -> Panel:
        """A titled panel in this view's box style."""
        return Panel(body, title=title, title_align="left", box=self.boxes, expand=True)

    def header(self, obs: Mapping[str, object]) -> Text:
        """Title, seat, and who acts (or the result)."""
        me = whole_number(obs.get("player"))
        viewer = "the public view" if me == CHANCE else f"you are {self.seat_name(me)}"
        text = Text(f"{self.info.get('title')} - {viewer}", style="bold")
        if obs.get("terminal"):
            returns = items_of(obs.get("returns"))
            scores = ", ".join(f"{self.seat_name(i)} {self.text(s)}" for i, s in enumerate(returns))
            winners = ", ".join(self.seat_name(whole_number(w)) for w in items_of(obs.get("winners"))) or "nobody"
            text.append(f"   game over: {winners} won ({scores})", style="bold green")
        else:
            acting = ", ".join("you" if whole_number(p) == me else self.seat_name(whole_number(p))
                               for p in items_of(obs.get("to_act")))
            text.append(f"   to act: {acting or 'nobody'}")
        return text

    # -- boards ------------------------------------------------------------

    def board_panel(self, name: str, marks: Mapping[tuple[str, str], list[str]],
                    obs: Mapping[str, object] | None = None) -> Panel:
        """A board drawn as its kind allows, with what lies on its spaces; a hex board or a
        track with the texts the presentation declares on its spaces (given ``obs``)."""
        board = self.game.catalog.boards[name]
        on_board = {space: found for (b, space), found in marks.items() if b == name}
        presented = None if obs is None else presented_board(self, name, board, obs, text_attributes(board))
        if board.kind == "square":
            body: RenderableType = draw_square_grid(board, on_board, self.grid_lines)
        elif board.kind == "hex":
            body = draw_hex_map(board, on_board, presented)
        else:
            body = draw_track(board, on_board, presented)
        return self.panel(body, f"board {name} ({board.kind}, {counted(len(board), 'space')})")

    # -- players and zones ----------------------------------------------

    def players_panel(self, obs: Mapping[str, object]) -> Panel | None:
        """One line per seat: its variables shown to players (supplies and zones have their
        own panels); none when no player variable is shown."""
        if not any(self.presentation.is_shown(name) for name in self.player_vars):
            return None
        me = whole_number(obs.get("player"))
        acting = {whole_number(p) for p in items_of(obs.get("to_act"))}
        table = Table(box=None, show_header=False, expand=False, pad_edge=False)
        table.add_column("seat", no_wrap=True)
        table.add_column("variables", overflow="fold")
        for seat, view in enumerate(items_of(obs.get("players"))):
            table.add_row(Text(self._seat_title(seat, me, acting), style="bold" if seat == me else ""),
                          Text(self._pairs(mapping_of(view), self.player_vars)))
        return self.panel(table, "players (* to act)")

    def _seat_title(self, seat: int, me: int, acting: set[int]) -> str:
        """A seat's name, marked when it is the viewer's, a dummy's, or to act."""
        notes = [" (you)" if seat == me else "", " (dummy)" if seat in self.dummies else "",
                 " *" if seat in acting else ""]
        return self.seat_name(seat) + "".join(notes)

    def _pairs(self, data: Mapping[str, object], names: Iterable[str]) -> str:
        """``name value`` for each of ``names`` that ``data`` holds and players are shown,
        by its display name."""
        wanted = {name for name in names if self.presentation.is_shown(name)}
        return ", ".join(f"{self.presentation.display_name(k)} {self.text(v)}" for k, v in data.items() if k in wanted)

    def zones_panel(self, obs: Mapping[str, object]) -> Panel | None:
        """The seat's own zones, the others' zones, then the shared zones: the cards of each
        zone the seat sees, the sizes of the hidden ones, the names of the empty ones."""
        me = whole_number(obs.get("player"))
        table = Table(box=None, show_header=False, expand=False, pad_edge=False)
        table.add_column("whose", style="bold", no_wrap=True)
        table.add_column("zone", no_wrap=True)
        table.add_column("cards", overflow="fold")
        players = items_of(obs.get("players"))
        for seat in seat_order(me, len(players)):
            zones = {k: v for k, v in mapping_of(players[seat]).items() if k in self.player_zones}
            self._zone_rows(table, "you" if seat == me else self.seat_name(seat), zones)
        self._zone_rows(table, "shared", mapping_of(obs.get("zones")))
        return self.panel(table, "zones") if table.row_count else None

    def _zone_rows(self, table: Table, whose: str, zones: Mapping[str, object]) -> None:
        """Rows for one owner's zones (by display name): one per zone with cards in sight, then
        one for the sizes of the hidden zones and one for the names of the empty zones."""
        named = {self.presentation.display_name(name): v for name, v in zones.items()}
        hidden = [f"{name} {hidden_size(v)}" for name, v in named.items() if zone_cards(v) is None and hidden_size(v)]
        empty = [name for name, v in named.items() if not zone_cards(v) and not hidden_size(v)]
        rows = [(name, self.cards_text(v)) for name, v in named.items() if zone_cards(v)]
        rows += [("hidden", ", ".join(hidden))] if hidden else []
        rows += [("empty", ", ".join(empty))] if empty else []
        for number, (zone, cards) in enumerate(rows):
            table.add_row(Text(whose if number == 0 else ""), Text(zone), Text(cards))

    def supplies_panel(self, obs: Mapping[str, object]) -> Panel | None:
        """Each supply held by a seat (those shown to players), and every non-zero supply on a
        visible component."""
        if not self.supplies:
            return None
        table = Table(box=None, show_header=True, header_style="bold", expand=False, pad_edge=False)
        table.add_column("holder")
        for name in self.supplies:
            table.add_column(name, justify="right")
        shown = [name for name in self.supplies if self.presentation.is_shown(name)]
        for seat, view in enumerate(items_of(obs.get("players"))):
            data = mapping_of(view)
            if any(name in data for name in shown):   # (the players' counts of a supply not shown: left blank)
                counts = [self.text(data.get(name, "?")) if name in shown else "" for name in self.supplies]
                table.add_row(*map(Text, [self.seat_name(seat), *counts]))
        for card in self._visible_cards(obs):
            if card.tokens:
                table.add_row(Text(card.label), *[Text(str(card.tokens.get(n, ""))) for n in self.supplies])
        return self.panel(table, "supplies")

    def globals_panel(self, obs: Mapping[str, object]) -> Panel | None:
        """The global variables the seat sees, ``name value`` side by side."""
        values = {k: v for k, v in mapping_of(obs.get("globals")).items() if self.presentation.is_shown(k)}
        if not values:
            return None
        cells = [Text.assemble((self.presentation.display_name(name), "bold"), " ", self.text(value))
                 for name, value in values.items()]
        return self.panel(Columns(cells, padding=(0, 3)), "game")

    # -- the question and the log -------------------------------------------

    def question_panel(self, state: State, player: int, obs: Mapping[str, object],
                       marks: Mapping[tuple[str, str], list[str]]) -> Panel:
        """What the seat is asked: kind, prompt and numbered options; or whom it waits for."""
        question = self.question_parts(state, player, obs, marks)
        if question is None:
            waiting = ", ".join(self.seat_name(whole_number(p)) for p in items_of(obs.get("to_act")))
            body = "the game is over" if obs.get("terminal") else f"waiting for {waiting}"
            return self.panel(Text(body, style="dim"), "question")
        title, heading, options = question
        return self.panel(Group(*heading, numbered(options)), title)

    def question_parts(self, state: State, player: int, obs: Mapping[str, object],
                       marks: Mapping[tuple[str, str], list[str]]) -> tuple[str, list[Text], list[str]] | None:
        """What the seat is asked as its panel's title, the lines above the options (the
        prompt, who already chose) and the options' texts; None when it is asked nothing."""
        decision = None if state.is_terminal() else state.decision(player)
        if decision is None:
            return None
        cards = {card.id: card for card in self._visible_cards(obs)}
        options = [self.option_text(action.id, str(action), marks, cards) for action in decision.actions]
        prompt = Text(decision.prompt or "choose", style="bold")
        chosen = [self.seat_name(whole_number(p)) for p in items_of(obs.get("already_chosen"))]
        extra = [Text("already chosen: " + ", ".join(chosen), style="dim")] if chosen else []
        title = f"your choice ({decision.kind}): {counted(len(decision.actions), 'option')}"
        return title, [prompt, *extra], options

    def option_text(self, action_id: int, label: str, marks: Mapping[tuple[str, str], list[str]],
                    cards: Mapping[int, Card]) -> str:
        """An option's label; for a space (ids below the number of spaces name spaces), its
        attributes and what lies on it; for a component in sight (the ids that follow), the
        tokens on it and its variables."""
        if action_id >= len(self.space_by_id):
            card = cards.get(action_id - len(self.space_by_id))
            if card is None:
                return label
            if label == card.label:   # an option reads as the rules label it: that is what a player types
                return self.card_text(card, face=False)
            return f"{label} ({self.card_text(card)})"  # (a label
            # of the rules' own, 'shown as' of the choice: with the card)
        if action_id < 0:
            return label
        board, space = self.space_by_id[action_id]
        attributes = shown_attributes(mapping_of(space.get("attributes")), str(self.boards[board].get("kind")))
        details = [" ".join(f"{k} {v}" for k, v in attributes.items())] if attributes else []
        details += marks.get((board, str(space.get("name"))), [])
        return f"{label} ({'; '.join(details)})" if details else label

    def log_panel(self, log: Sequence[Text], log_lines: int) -> Panel | None:
        """The last ``log_lines`` lines of ``log`` (``log_of``)."""
        if not log or log_lines <= 0:
            return None
        shown = log[-log_lines:]
        title = f"log (last {len(shown)} of {len(log)})"
        return self.panel(Text("\n").join(shown), title)


def log_of(state: State, player: int, obs: Mapping[str, object]) -> list[Text]:
    """The log the seat may see: its narration, headings in bold, when ``state`` records
    events (``State.narration``), else the ruleset's log lines of the observation."""
    if state.event_log is None:
        return [Text(str(line)) for line in items_of(obs.get("log"))]
    return [Text(line_text(line), style="bold" if "heading" in line else "") for line in state.narration(player)]


def numbered(options: Sequence[str]) -> RenderableType:
    """Options numbered from 1, one a line; many of them in columns."""
    width = len(str(len(options)))
    if len(options) > MAX_OPTION_ROWS:
        return Columns([Text.assemble((f"{n:>{width}}. ", "bold cyan"), option)
                        for n, option in enumerate(options, 1)], padding=(0, 3), column_first=True)
    lines = Table(box=None, show_header=False, expand=False, pad_edge=False)
    lines.add_column("number", justify="right", style="bold cyan")
    lines.add_column("option", overflow="fold")
    for number, option in enumerate(options, 1):
        lines.add_row(f"{number}.", Text(option))
    return lines


# ------------------------------------------------------------------ boards

def _short(values: Sequence[str]) -> str:
    """Marks as one text."""
    return ", ".join(values)


def draw_square_grid(board: Board, marks: Mapping[str, list[str]], lines: box.Box = box.SQUARE) -> Table:
    """A square board as a table: columns a, b, c... left to right, rows numbered from 1 at
    the bottom (``y`` grows northward); each cell holds what lies on it, else its
    attributes other than coordinates, dimmed."""
    cells = {(whole_number(s.attributes.get("x")), whole_number(s.attributes.get("y"))): s for s in board.spaces}
    width = 1 + max(x for x, _ in cells)
    height = 1 + max(y for _, y in cells)
    table = Table(box=lines, show_header=True, show_lines=True, pad_edge=True, expand=False)
    table.add_column("", justify="right", style="dim")
    for x in range(width):
        column = next((s.name.rstrip("0123456789") for (cx, _), s in cells.items() if cx == x), str(x))
        table.add_column(Text(column), justify="center", min_width=3)
    for y in reversed(range(height)):
        row = [_grid_cell(cells.get((x, y)), marks) for x in range(width)]
        table.add_row(str(y + 1), *row)
    return table


def _grid_cell(space: Space | None, marks: Mapping[str, list[str]]) -> Text:
    """One cell of a square grid."""
    if space is None:
        return Text("")
    found = marks.get(space.name)
    if found:
        return Text("\n".join(found), style="bold")
    attributes = shown_attributes(space.attributes, "square")
    return Text(" ".join(str(v) for v in attributes.values()) or ".", style="dim")


def text_attributes(board: Board) -> list[str]:
    """The attributes of a board's spaces that hold text (a terrain, a landmark), in the
    order they first appear."""
    names = (name for space in board.spaces for name, value in shown_attributes(space.attributes, board.kind).items()
             if isinstance(value, str) and name != "id")
    return list(dict.fromkeys(names))


def initials(values: Iterable[str], *, lower: bool = False) -> dict[str, str]:
    """A distinct letter for each value: its first letter, else its next letter not taken,
    else any free letter (capitals, or small letters when ``lower``)."""
    taken: dict[str, str] = {}
    for value in dict.fromkeys(values):
        candidates = [c.upper() for c in value if c.isalpha()] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        letter = next((c for c in candidates if c not in taken.values()), "?")
        taken[value] = letter
    return {value: letter.lower() for value, letter in taken.items()} if lower else taken


def draw_hex_map(board: Board, marks: Mapping[str, list[str]], presented: Presented | None = None) -> Group:
    """A hex board as rows of hexes (pointy-topped: each row half a hex right of the one
    above it, by its axial coordinates), with its coordinates: ``r`` left of each row, ``q``
    above the top row and below the bottom one (a ``q`` runs down to the right). Each hex
    shows the initial of its first text attribute (a capital: its terrain), of its second
    one if it has it (a small letter: a landmark), and ``*`` when something lies on it;
    then the legends, and a footnote for each such hex, named by the space and in board
    order, so that a hex keeps its footnote from turn to turn. With ``presented`` (texts the
    presentation declares on the spaces: terminal_labels), its ground, label and corner
    instead of the text attributes."""
    if presented is None:
        shown = text_attributes(board)[:2]
        presented = {s.name: {name: str(s.attributes[name]) for name in shown if name in s.attributes}
                     for s in board.spaces}
    else:
        shown = columns_of(presented)
    letters = {name: initials((values[name] for values in presented.values() if name in values),
                              lower=number > 0) for number, name in enumerate(shown)}
    cells = {s.name: _hex_cell(presented[s.name], letters) + ("*" if s.name in marks else "") for s in board.spaces}
    parts: list[RenderableType] = [*_hex_lines(board, cells)]
    parts += [Text(f"{name}: " + ", ".join(f"{c} {v}" for v, c in table.items()), style="dim")
              for name, table in letters.items()]
    parts += [Text("coordinates q,r: r left of each row, q above and below (a q runs down to the right); "
                   "* something lies there", style="dim")]
    parts += [Text(f"{s.name} ({', '.join(presented[s.name].values())}) {_short(marks[s.name])}")
              for s in board.spaces if s.name in marks]
    return Group(*parts)


def _hex_cell(values: Mapping[str, str], letters: Mapping[str, Mapping[str, str]]) -> str:
    """The letters of one hex: one per shown value it has; "." for none."""
    found = [table[values[name]] for name, table in letters.items() if name in values]
    return "".join(found) or "."


def _hex_lines(board: Board, cells: Mapping[str, str]) -> list[Text]:
    """The rows of a hex board, north first, each after its ``r``, between the ``q`` of the
    top row and those of the bottom row: hex (q, r) at half-hex column 2q + r, so each row
    sits half a hex east of the one above it."""
    half = (max(len(c) for c in cells.values()) + 2) // 2   # characters per half hex, a space between hexes
    half = max(half, 2)                                      # room for a q of two characters
    rows: dict[int, dict[int, str]] = {}
    for space in board.spaces:
        q, r = whole_number(space.attributes.get("q")), whole_number(space.attributes.get("r"))
        rows.setdefault(r, {})[2 * q + r] = cells[space.name]
    left = min(column for row in rows.values() for column in row)
    margin = max(len(str(r)) for r in rows) + 1
    top, bottom = min(rows), max(rows)

    def q_line(r: int) -> Text:
        return Text(" " * margin + _hex_row({c: str((c - r) // 2) for c in rows[r]}, left, half), style="dim")

    drawn = [Text.assemble((f"{r:>{margin - 1}} ", "dim"), _hex_row(row, left, half))
             for r, row in sorted(rows.items())]
    return [q_line(top), *drawn, q_line(bottom)]


def _hex_row(row: Mapping[int, str], left: int, half: int) -> str:
    """One row of hexes, ``half`` characters per half hex from column ``left``."""
    line = ""
    for column in sorted(row):
        line = line.ljust(half * (column - left)) + row[column]
    return line.rstrip()


def draw_track(board: Board, marks: Mapping[str, list[str]], presented: Presented | None = None) -> Group:
    """A graph board as its spaces, numbered in board order, side by side: each with its
    attribute values (with ``presented``: its ground, label and corner, terminal_labels),
    where it leads when that is not the next space (a fork, a jump, a loop), and what lies
    on it."""
    if presented is None:
        fullest_first = sorted(board.spaces, key=lambda s: -len(s.attributes))
        names = list(dict.fromkeys(k for s in fullest_first for k in shown_attributes(s.attributes, board.kind)))
        words = [[str(s.attributes.get(name, ".")) for name in names] for s in board.spaces]
        legend = "each space: number, name" + "".join(f", {n}" for n in names)
    else:
        words = [track_words(presented[s.name]) for s in board.spaces]
        legend = track_legend(presented)
    cells = [_track_cell(board, i, words[i], marks) for i in range(len(board.spaces))]
    return Group(Text(legend + "; -> where it leads next", style="dim"), Columns(cells, padding=(0, 2),
                                                                                 column_first=True))


def _track_cell(board: Board, index: int, values: Sequence[str], marks: Mapping[str, list[str]]) -> Text:
    """One space of a track, with the words ``values``."""
    space = board.spaces[index]
    text = Text(f"{index + 1:>3} ", style="dim")
    text.append(space.name, style="bold")
    text.append(" " + " ".join(values) if values else "")
    following = [s.name for s in board.successors(space)]
    after = [board.spaces[index + 1].name] if index + 1 < len(board.spaces) else []
    if following and following != after:
        text.append(" -> " + "/".join(following), style="cyan")
    found = marks.get(space.name)
    if found:
        text.append(" " + _short(found), style="bold magenta")
    return text
