"""The terminal view of one seat: what that player may see, drawn with rich.

Everything comes from data: the seat's observation (``State.observation``), the decision it
is asked (``State.decision``), the game's catalog info (``Game.catalog_info``) and its boards.
Nothing here knows a game. The view is a stack of panels:

- a header (title, seat, who acts, the result once the game is over);
- each board drawn as text: a square grid as a table with row 1 at the bottom (``y`` grows
  northward, as board data says), a hex board as offset rows of hexes showing the initials
  of its text attributes (a terrain, a landmark), a graph board (a track that may fork) as
  its numbered spaces; on each space the pieces and markers found in the observation (space
  variables, and player, global and component variables whose value is that space);
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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .values import CHANCE

if TYPE_CHECKING:
    from rulelang.boards import Board, Space

    from .game import Game
    from .state import State

MAX_MARKED_SPACES = 12
"""A list of spaces longer than this is counted, not marked on the board (it is an area)."""
MAX_LISTED_ITEMS = 8
"""A list value longer than this is shortened when written."""
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


# ------------------------------------------------------------------ reading observations


def _mapping(value: object) -> Mapping[str, object]:
    """An object of the observation or the catalog info; anything else is empty."""
    return value if isinstance(value, dict) else {}


def _items(value: object) -> list[object]:
    """A list of the observation or the catalog info; anything else is empty."""
    return value if isinstance(value, list) else []


def _number(value: object, default: int = 0) -> int:
    """A whole number of the data (a seat, an index, a count)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _space_of(value: object) -> tuple[str, str] | None:
    """(board, space name) if ``value`` is a space."""
    data = _mapping(value)
    if "space" in data and "board" in data:
        return str(data["board"]), str(data["space"])
    return None


def spaces_in(value: object) -> list[tuple[str, str]]:
    """The spaces a value puts markers on: a space, or a short list of spaces."""
    single = _space_of(value)
    if single is not None:
        return [single]
    found = [s for s in map(_space_of, _items(value)) if s is not None]
    return found if len(found) <= MAX_MARKED_SPACES else []


def _space_holders(variables: Mapping[str, object]) -> int:
    """How many of these declared variables hold spaces (a space, a list of spaces)."""
    return sum(1 for v in variables.values() if "space" in str(_mapping(v).get("type")))


@dataclass(frozen=True)
class Card:
    """A component as the seat sees it in a zone: label, tokens on it, visible variables."""

    id: int
    label: str
    tokens: Mapping[str, int]
    variables: Mapping[str, object]

    @staticmethod
    def read(value: object) -> Card:
        """The card of an observed zone entry."""
        data = _mapping(value)
        tokens = {k: _number(n) for k, n in _mapping(data.get("tokens")).items() if _number(n)}
        return Card(_number(data.get("component"), -1), str(data.get("label", "?")), tokens,
                    _mapping(data.get("vars")))


def zone_cards(value: object) -> list[Card] | None:
    """The cards of an observed zone, or None when only its size is shown."""
    if isinstance(value, list):
        return [Card.read(v) for v in value]
    return None


def hidden_size(value: object) -> int:
    """The size of a zone shown only as ``{"count": n}``."""
    return _number(_mapping(value).get("count"))


# ------------------------------------------------------------------ the view


class SeatView:
    """Draws the views of the seats of one game (the catalog info is read once)."""

    def __init__(self, game: Game, *, boxes: box.Box = box.ROUNDED) -> None:
        self.game = game
        self.info = game.catalog_info()
        self.boxes = boxes
        self.grid_lines = box.ASCII if boxes is box.ASCII else box.SQUARE
        variables = _mapping(self.info.get("variables"))
        self.player_vars = _mapping(variables.get("player"))
        self.component_vars = _mapping(variables.get("component"))
        self.supplies = list(_mapping(self.info.get("supplies")))
        self.seats = [str(_mapping(s).get("name")) for s in _items(self.info.get("seats"))]
        self.dummies = {i for i, s in enumerate(_items(self.info.get("seats"))) if _mapping(s).get("dummy")}
        self.player_zones = list(dict.fromkeys(
            str(_mapping(z).get("name")) for z in _items(self.info.get("zones"))
            if _mapping(z).get("owner") is not None))
        self.zone_names = [str(_mapping(z).get("position")) for z in _items(self.info.get("zones"))]
        self.boards = {name: _mapping(b) for name, b in _mapping(self.info.get("boards")).items()}
        self.space_by_id = [(name, _mapping(s)) for name, b in self.boards.items() for s in _items(b.get("spaces"))]

    # -- values as text ------------------------------------------------

    def text(self, value: object) -> str:
        """One observed value as text: players by seat name, components by label, spaces by
        name, hidden zones by size; long lists shortened."""
        if value is None:
            return "-"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float):
            return f"{value:g}"
        if isinstance(value, (int, str)):
            return str(value)
        if isinstance(value, list):
            return self._list_text(value)
        return self._tagged_text(_mapping(value))

    def _list_text(self, values: list[object]) -> str:
        """A list: a long list of spaces (an area) by its size, others by their first items."""
        if values and len(spaces_in(values)) == 0 and all(_space_of(v) for v in values):
            return f"{len(values)} spaces"
        shown = [self.text(v) for v in values[:MAX_LISTED_ITEMS]]
        if len(values) > MAX_LISTED_ITEMS:
            shown.append(f"... {len(values)} in all")
        return "[" + ", ".join(shown) + "]"

    def _tagged_text(self, data: Mapping[str, object]) -> str:
        """A tagged value of the observation (docs/state-format.md, "Values")."""
        if "player" in data:
            return self.seat_name(_number(data["player"]))
        if "label" in data:
            return str(data["label"])
        if "enum" in data:
            return str(data.get("value"))
        if "space" in data:
            return str(data["space"])
        if "zone" in data:
            slot = _number(data["zone"])
            return self.zone_names[slot] if 0 <= slot < len(self.zone_names) else "zone"
        if "count" in data:
            return f"{data['count']} hidden"
        if "map" in data:
            pairs = [_items(p) for p in _items(data["map"])]
            return "{" + ", ".join(f"{self.text(p[0])}: {self.text(p[1])}" for p in pairs if len(p) == 2) + "}"
        return str(data.get("name", data.get("int", data)))

    def seat_name(self, seat: int) -> str:
        """How messages name a seat ("player 2")."""
        if seat == CHANCE:
            return "chance"
        return self.seats[seat] if 0 <= seat < len(self.seats) else f"seat {seat}"

    @staticmethod
    def seat_mark(seat: int) -> str:
        """A seat's short mark on a board ("P2")."""
        return f"P{seat + 1}"

    def card_text(self, card: Card) -> str:
        """A card as a line: label, tokens on it in brackets, variables that hold something."""
        parts = [card.label]
        if card.tokens:
            parts.append("[" + ", ".join(f"{n} {k}" for k, n in card.tokens.items()) + "]")
        shown = [f"{k} {self.text(v)}" for k, v in card.variables.items() if v not in (None, [], False)]
        if shown:
            parts.append("(" + ", ".join(shown) + ")")
        return " ".join(parts)

    def cards_text(self, value: object) -> str:
        """An observed zone as text: its cards (equal ones counted), or its size when hidden."""
        cards = zone_cards(value)
        if cards is None:
            return f"{hidden_size(value)} hidden"
        if not cards:
            return "empty"
        counted: dict[str, int] = {}
        for card in cards:
            line = self.card_text(card)
            counted[line] = counted.get(line, 0) + 1
        return ", ".join(line if n == 1 else f"{line} x{n}" for line, n in counted.items())

    # -- the whole view --------------------------------------------------

    def render(self, state: State, player: int, *, log_lines: int = 8) -> RenderableType:
        """The view of seat ``player`` of ``state``: the panels of the module docstring."""
        obs = _mapping(state.observation(player))
        marks = self.board_marks(obs)
        parts: list[RenderableType | None] = [self.header(obs)]
        parts += [self.board_panel(name, marks) for name in self.boards]
        parts += [self.players_panel(obs), self.zones_panel(obs), self.supplies_panel(obs),
                  self.globals_panel(obs), self.question_panel(state, player, obs, marks),
                  self.log_panel(obs, log_lines)]
        return Group(*[p for p in parts if p is not None])

    def panel(self, body: RenderableType, title: str) -> Panel:
        """A titled panel in this view's box style."""
        return Panel(body, title=title, title_align="left", box=self.boxes, expand=True)

    def header(self, obs: Mapping[str, object]) -> Text:
        """Title, seat, and who acts (or the result)."""
        me = _number(obs.get("player"))
        text = Text(f"{self.info.get('title')} - you are {self.seat_name(me)}", style="bold")
        if obs.get("terminal"):
            scores = ", ".join(f"{self.seat_name(i)} {self.text(s)}" for i, s in enumerate(_items(obs.get("returns"))))
            winners = ", ".join(self.seat_name(_number(w)) for w in _items(obs.get("winners"))) or "nobody"
            text.append(f"   game over: {winners} won ({scores})", style="bold green")
        else:
            acting = ", ".join("you" if _number(p) == me else self.seat_name(_number(p))
                               for p in _items(obs.get("to_act")))
            text.append(f"   to act: {acting or 'nobody'}")
        return text

    # -- boards ------------------------------------------------------------

    def board_marks(self, obs: Mapping[str, object]) -> dict[tuple[str, str], list[str]]:
        """What lies on each space, by (board, space name): space variables' values, seats
        whose variables hold the space, global variables and visible components that do."""
        marks: dict[tuple[str, str], list[str]] = {}
        for key, mark in self._marks(obs):
            found = marks.setdefault(key, [])
            if mark not in found:
                found.append(mark)
        return marks

    def _marks(self, obs: Mapping[str, object]) -> Iterable[tuple[tuple[str, str], str]]:
        """(space, mark) pairs from every part of the observation that names spaces."""
        yield from self._space_variable_marks(_mapping(obs.get("spaces")))
        yield from self._seat_marks(_items(obs.get("players")))
        for name, value in _mapping(obs.get("globals")).items():   # a global named as its space says nothing
            yield from ((space, name) for space in spaces_in(value) if space[1] != name)
        yield from self._component_marks(obs)

    def _seat_marks(self, players: list[object]) -> Iterable[tuple[tuple[str, str], str]]:
        """A seat's mark ("P1") on the spaces its variables hold; the variable named when
        several variables of a player may hold spaces."""
        named = _space_holders(self.player_vars) > 1
        for seat, view in enumerate(players):
            for name, value in _mapping(view).items():
                if name in self.player_vars:
                    mark = f"{self.seat_mark(seat)} ({name})" if named else self.seat_mark(seat)
                    yield from ((space, mark) for space in spaces_in(value))

    def _component_marks(self, obs: Mapping[str, object]) -> Iterable[tuple[tuple[str, str], str]]:
        """A visible component's label on the spaces its variables hold; the variable named
        when several component variables may hold spaces."""
        named = _space_holders(self.component_vars) > 1
        for card in self._visible_cards(obs):
            for name, value in card.variables.items():
                mark = f"{card.label} ({name})" if named else card.label
                yield from ((space, mark) for space in spaces_in(value))

    def _space_variable_marks(self, spaces: Mapping[str, object]) -> Iterable[tuple[tuple[str, str], str]]:
        """Space variables that hold something, as ``name value``; a seat alone ("P1") when
        it is the only space variable."""
        for variable, values in spaces.items():
            for (board, space), value in zip(self.space_by_id, _items(values), strict=False):
                if value is not None and value is not False:
                    yield (board, str(space.get("name"))), self.mark_text(variable, value, alone=len(spaces) == 1)

    def mark_text(self, variable: str, value: object, *, alone: bool) -> str:
        """A space variable's value on a board: a seat short ("P1"), named by the variable
        unless ``alone``; any other value after the variable's name."""
        data = _mapping(value)
        if "player" in data:
            mark = self.seat_mark(_number(data["player"]))
            return mark if alone else f"{variable} {mark}"
        return f"{variable} {self.text(value)}"

    def _visible_cards(self, obs: Mapping[str, object]) -> Iterable[Card]:
        """Every component the seat sees face up, in shared zones then players' zones."""
        for value in _mapping(obs.get("zones")).values():
            yield from zone_cards(value) or []
        for view in _items(obs.get("players")):
            for name, value in _mapping(view).items():
                if name in self.player_zones:
                    yield from zone_cards(value) or []

    def board_panel(self, name: str, marks: Mapping[tuple[str, str], list[str]]) -> Panel:
        """A board drawn as its kind allows, with what lies on its spaces."""
        board = self.game.catalog.boards[name]
        on_board = {space: found for (b, space), found in marks.items() if b == name}
        if board.kind == "square":
            body: RenderableType = draw_square_grid(board, on_board, self.grid_lines)
        elif board.kind == "hex":
            body = draw_hex_map(board, on_board)
        else:
            body = draw_track(board, on_board)
        return self.panel(body, f"board {name} ({board.kind}, {len(board)} spaces)")

    # -- players and zones ----------------------------------------------

    def players_panel(self, obs: Mapping[str, object]) -> Panel | None:
        """One line per seat: its variables (supplies and zones have their own panels)."""
        if not self.player_vars:
            return None
        me = _number(obs.get("player"))
        acting = {_number(p) for p in _items(obs.get("to_act"))}
        table = Table(box=None, show_header=False, expand=False, pad_edge=False)
        table.add_column("seat", no_wrap=True)
        table.add_column("variables", overflow="fold")
        for seat, view in enumerate(_items(obs.get("players"))):
            table.add_row(Text(self._seat_title(seat, me, acting), style="bold" if seat == me else ""),
                          Text(self._pairs(_mapping(view), self.player_vars)))
        return self.panel(table, "players (* to act)")

    def _seat_title(self, seat: int, me: int, acting: set[int]) -> str:
        """A seat's name, marked when it is the viewer's, a dummy's, or to act."""
        notes = [" (you)" if seat == me else "", " (dummy)" if seat in self.dummies else "",
                 " *" if seat in acting else ""]
        return self.seat_name(seat) + "".join(notes)

    def _pairs(self, data: Mapping[str, object], names: Iterable[str]) -> str:
        """``name value`` for each of ``names`` that ``data`` holds."""
        wanted = set(names)
        return ", ".join(f"{k} {self.text(v)}" for k, v in data.items() if k in wanted)

    def zones_panel(self, obs: Mapping[str, object]) -> Panel | None:
        """The seat's own zones, the others' zones, then the shared zones: the cards of each
        zone the seat sees, the sizes of the hidden ones, the names of the empty ones."""
        me = _number(obs.get("player"))
        table = Table(box=None, show_header=False, expand=False, pad_edge=False)
        table.add_column("whose", style="bold", no_wrap=True)
        table.add_column("zone", no_wrap=True)
        table.add_column("cards", overflow="fold")
        players = _items(obs.get("players"))
        for seat in [me] + [s for s in range(len(players)) if s != me]:
            zones = {k: v for k, v in _mapping(players[seat]).items() if k in self.player_zones}
            self._zone_rows(table, "you" if seat == me else self.seat_name(seat), zones)
        self._zone_rows(table, "shared", _mapping(obs.get("zones")))
        return self.panel(table, "zones") if table.row_count else None

    def _zone_rows(self, table: Table, whose: str, zones: Mapping[str, object]) -> None:
        """Rows for one owner's zones: one per zone with cards in sight, then one for the
        sizes of the hidden zones and one for the names of the empty zones."""
        hidden = [f"{name} {hidden_size(v)}" for name, v in zones.items() if zone_cards(v) is None and hidden_size(v)]
        empty = [name for name, v in zones.items() if not zone_cards(v) and not hidden_size(v)]
        rows = [(name, self.cards_text(v)) for name, v in zones.items() if zone_cards(v)]
        rows += [("hidden", ", ".join(hidden))] if hidden else []
        rows += [("empty", ", ".join(empty))] if empty else []
        for number, (zone, cards) in enumerate(rows):
            table.add_row(Text(whose if number == 0 else ""), Text(zone), Text(cards))

    def supplies_panel(self, obs: Mapping[str, object]) -> Panel | None:
        """Each supply held by a seat, and every non-zero supply on a visible component."""
        if not self.supplies:
            return None
        table = Table(box=None, show_header=True, header_style="bold", expand=False, pad_edge=False)
        table.add_column("holder")
        for name in self.supplies:
            table.add_column(name, justify="right")
        for seat, view in enumerate(_items(obs.get("players"))):
            data = _mapping(view)
            if any(name in data for name in self.supplies):
                counts = [self.text(data.get(name, "?")) for name in self.supplies]
                table.add_row(*map(Text, [self.seat_name(seat), *counts]))
        for card in self._visible_cards(obs):
            if card.tokens:
                table.add_row(Text(card.label), *[Text(str(card.tokens.get(n, ""))) for n in self.supplies])
        return self.panel(table, "supplies")

    def globals_panel(self, obs: Mapping[str, object]) -> Panel | None:
        """The global variables the seat sees, ``name value`` side by side."""
        values = _mapping(obs.get("globals"))
        if not values:
            return None
        cells = [Text.assemble((name, "bold"), " ", self.text(value)) for name, value in values.items()]
        return self.panel(Columns(cells, padding=(0, 3)), "game")

    # -- the question and the log -------------------------------------------

    def question_panel(self, state: State, player: int, obs: Mapping[str, object],
                       marks: Mapping[tuple[str, str], list[str]]) -> Panel:
        """What the seat is asked: kind, prompt and numbered options; or whom it waits for."""
        decision = None if state.is_terminal() else state.decision(player)
        if decision is None:
            waiting = ", ".join(self.seat_name(_number(p)) for p in _items(obs.get("to_act")))
            body = "the game is over" if obs.get("terminal") else f"waiting for {waiting}"
            return self.panel(Text(body, style="dim"), "question")
        cards = {card.id: card for card in self._visible_cards(obs)}
        options = [self.option_text(action.id, str(action), marks, cards) for action in decision.actions]
        prompt = Text(decision.prompt or "choose", style="bold")
        chosen = [self.seat_name(_number(p)) for p in _items(obs.get("already_chosen"))]
        extra = [Text("already chosen: " + ", ".join(chosen), style="dim")] if chosen else []
        title = f"your choice ({decision.kind}): {len(decision.actions)} options"
        return self.panel(Group(prompt, *extra, numbered(options)), title)

    def option_text(self, action_id: int, label: str, marks: Mapping[tuple[str, str], list[str]],
                    cards: Mapping[int, Card]) -> str:
        """An option's label; for a space (ids below the number of spaces name spaces), its
        attributes and what lies on it; for a component in sight (the ids that follow), the
        tokens on it and its variables."""
        if action_id >= len(self.space_by_id):
            card = cards.get(action_id - len(self.space_by_id))
            return label if card is None else self.card_text(card)
        if action_id < 0:
            return label
        board, space = self.space_by_id[action_id]
        attributes = _shown_attributes(_mapping(space.get("attributes")), str(self.boards[board].get("kind")))
        details = [" ".join(f"{k} {v}" for k, v in attributes.items())] if attributes else []
        details += marks.get((board, str(space.get("name"))), [])
        return f"{label} ({'; '.join(details)})" if details else label

    def log_panel(self, obs: Mapping[str, object], log_lines: int) -> Panel | None:
        """The last ``log_lines`` lines of the log the seat may see."""
        log = [str(line) for line in _items(obs.get("log"))]
        if not log or log_lines <= 0:
            return None
        shown = log[-log_lines:]
        title = f"log (last {len(shown)} of {len(log)})"
        return self.panel(Text("\n".join(shown)), title)


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


COORDINATES = {"square": frozenset({"x", "y"}), "hex": frozenset({"q", "r"})}
"""The attributes that place a space on a board of each kind (not shown as its data)."""


def _shown_attributes(attributes: Mapping[str, object], kind: str) -> dict[str, object]:
    """A space's attributes worth showing: not the coordinates of a board of ``kind``."""
    hidden = COORDINATES.get(kind, frozenset())
    return {k: v for k, v in attributes.items() if k not in hidden}


def _short(values: Sequence[str]) -> str:
    """Marks as one text."""
    return ", ".join(values)


def draw_square_grid(board: Board, marks: Mapping[str, list[str]], lines: box.Box = box.SQUARE) -> Table:
    """A square board as a table: columns a, b, c... left to right, rows numbered from 1 at
    the bottom (``y`` grows northward); each cell holds what lies on it, else its
    attributes other than coordinates, dimmed."""
    cells = {(_number(s.attributes.get("x")), _number(s.attributes.get("y"))): s for s in board.spaces}
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
    attributes = _shown_attributes(space.attributes, "square")
    return Text(" ".join(str(v) for v in attributes.values()) or ".", style="dim")


def text_attributes(board: Board) -> list[str]:
    """The attributes of a board's spaces that hold text (a terrain, a landmark), in the
    order they first appear."""
    names = (name for space in board.spaces for name, value in _shown_attributes(space.attributes, board.kind).items()
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


def draw_hex_map(board: Board, marks: Mapping[str, list[str]]) -> Group:
    """A hex board as rows of hexes (pointy-topped: each row half a hex right of the one
    above it, by its axial coordinates). Each hex shows the initial of its first text
    attribute (a capital: its terrain), of its second one if it has it (a small letter: a
    landmark), and the number of its legend entry when something lies on it; then the
    legends."""
    shown = text_attributes(board)[:2]
    letters = {name: initials((str(s.attributes[name]) for s in board.spaces if name in s.attributes),
                              lower=number > 0) for number, name in enumerate(shown)}
    numbered = {name: n for n, name in enumerate((s.name for s in board.spaces if s.name in marks), 1)}
    cells = {s.name: _hex_cell(s.attributes, letters) + str(numbered.get(s.name, "")) for s in board.spaces}
    parts: list[RenderableType] = [Text("\n".join(_hex_lines(board, cells)))]
    parts += [Text(f"{name}: " + ", ".join(f"{c} {v}" for v, c in table.items()), style="dim")
              for name, table in letters.items()]
    parts += [Text(f"{n}: {name} ({_described(board, name, shown)}) {_short(marks[name])}")
              for name, n in numbered.items()]
    return Group(*parts)


def _hex_cell(attributes: Mapping[str, object], letters: Mapping[str, Mapping[str, str]]) -> str:
    """The letters of one hex: one per shown attribute it has; "." for none."""
    found = [table[str(attributes[name])] for name, table in letters.items() if name in attributes]
    return "".join(found) or "."


def _hex_lines(board: Board, cells: Mapping[str, str]) -> list[str]:
    """The rows of a hex board, north first: hex (q, r) at half-hex column 2q + r, so each
    row sits half a hex east of the one above it."""
    half = (max(map(len, cells.values())) + 2) // 2      # characters per half hex, a space between hexes
    rows: dict[int, dict[int, str]] = {}
    for space in board.spaces:
        q, r = _number(space.attributes.get("q")), _number(space.attributes.get("r"))
        rows.setdefault(r, {})[2 * q + r] = cells[space.name]
    left = min(column for row in rows.values() for column in row)
    return [_hex_row(row, left, half) for _, row in sorted(rows.items())]


def _hex_row(row: Mapping[int, str], left: int, half: int) -> str:
    """One row of hexes, ``half`` characters per half hex from column ``left``."""
    line = ""
    for column in sorted(row):
        line = line.ljust(half * (column - left)) + row[column]
    return line.rstrip()


def _described(board: Board, name: str, attributes: Sequence[str]) -> str:
    """A space's values of ``attributes``, comma-separated."""
    values = board.space(name).attributes
    return ", ".join(str(values[a]) for a in attributes if a in values)


def draw_track(board: Board, marks: Mapping[str, list[str]]) -> Group:
    """A graph board as its spaces, numbered in board order, side by side: each with its
    attribute values, where it leads when that is not the next space (a fork, a jump, a
    loop), and what lies on it."""
    fullest_first = sorted(board.spaces, key=lambda s: -len(s.attributes))
    names = list(dict.fromkeys(k for s in fullest_first for k in _shown_attributes(s.attributes, board.kind)))
    cells = [_track_cell(board, i, names, marks) for i in range(len(board.spaces))]
    legend = Text("each space: number, name" + "".join(f", {n}" for n in names) + "; -> where it leads next",
                  style="dim")
    return Group(legend, Columns(cells, padding=(0, 2), column_first=True))


def _track_cell(board: Board, index: int, attributes: Sequence[str], marks: Mapping[str, list[str]]) -> Text:
    """One space of a track."""
    space = board.spaces[index]
    values = [str(space.attributes.get(name, ".")) for name in attributes]
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
