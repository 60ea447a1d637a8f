"""What one seat sees, as data: the part of a seat's view that does not depend on how it is
drawn, shared by the terminal view (``terminal_view``, drawn with rich) and the web page
(the protocol's ``view``).

Everything comes from data: the seat's observation (``State.observation``), the decision it
is asked (``State.decision``) and the game's catalog info (``Game.catalog_info``). Nothing
here knows a game:

- ``SeatData.text`` writes an observed value for people (players by seat name, components
  by label, spaces by name, hidden zones by size);
- ``SeatData.board_marks`` finds what lies on each space: space variables' values, seats
  whose variables hold the space, global variables and visible components that do (but
  where the presentation draws a component as a token);
- ``view_data`` is the whole view of a seat as JSON data (the protocol's ``view``): the
  observation, the marks, the question with each option tagged with the space or the
  component it stands for.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulelang.boards import Space
from rulelang.report import counted

from ..model.values import CHANCE, Component
from .presentation import FACE_KEYS, FACE_SEPARATOR, Presentation, fill

if TYPE_CHECKING:
    from ..game import Game
    from ..state.state import Action, State

MAX_MARKED_SPACES = 12
"""A list of spaces longer than this is counted, not marked on the board (it is an area)."""
MAX_LISTED_ITEMS = 8
"""A list value longer than this is shortened when written."""



def mapping_of(value: object) -> Mapping[str, object]:
    """An object of the observation or the catalog info; anything else is empty."""
    return value if isinstance(value, dict) else {}


def items_of(value: object) -> list[object]:
    """A list of the observation or the catalog info; anything else is empty."""
    return value if isinstance(value, list) else []


def whole_number(value: object, default: int = 0) -> int:
    """A whole number of the data (a seat, an index, a count)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def space_of(value: object) -> tuple[str, str] | None:
    """(board, space name) if ``value`` is a space."""
    data = mapping_of(value)
    if "space" in data and "board" in data:
        return str(data["board"]), str(data["space"])
    return None


def spaces_in(value: object) -> list[tuple[str, str]]:
    """The spaces a value puts markers on: a space, or a short list of spaces."""
    single = space_of(value)
    if single is not None:
        return [single]
    found = [s for s in map(space_of, items_of(value)) if s is not None]
    return found if len(found) <= MAX_MARKED_SPACES else []


def space_holders(variables: Mapping[str, object]) -> int:
    """How many of these declared variables hold spaces (a space, a list of spaces)."""
    return sum(1 for v in variables.values() if "space" in str(mapping_of(v).get("type")))


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
        data = mapping_of(value)
        tokens = {k: whole_number(n) for k, n in mapping_of(data.get("tokens")).items() if whole_number(n)}
        return Card(whole_number(data.get("component"), -1), str(data.get("label", "?")), tokens,
                    mapping_of(data.get("vars")))


def zone_cards(value: object) -> list[Card] | None:
    """The cards of an observed zone, or None when only its size is shown."""
    if isinstance(value, list):
        return [Card.read(v) for v in value]
    return None


def hidden_size(value: object) -> int:
    """The size of a zone shown only as ``{"count": n}``."""
    return whole_number(mapping_of(value).get("count"))


def seat_order(viewer: int, seats: int) -> list[int]:
    """The seats in the order a view shows them: the viewer's own first, then the others in
    seat order; every seat in seat order for the public view (CHANCE, or any number that is
    no seat: it is never read as an index from the end)."""
    others = [seat for seat in range(seats) if seat != viewer]
    return [viewer, *others] if 0 <= viewer < seats else others


# ------------------------------------------------------------------ a seat's data


class SeatData:
    """What the views of the seats of one game share: the catalog info, read once."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.info = game.catalog_info()
        variables = mapping_of(self.info.get("variables"))
        self.player_vars = mapping_of(variables.get("player"))
        self.component_vars = mapping_of(variables.get("component"))
        self.supplies = list(mapping_of(self.info.get("supplies")))
        self.seats = [str(mapping_of(s).get("name")) for s in items_of(self.info.get("seats"))]
        self.dummies = {i for i, s in enumerate(items_of(self.info.get("seats"))) if mapping_of(s).get("dummy")}
        self.player_zones = list(dict.fromkeys(
            str(mapping_of(z).get("name")) for z in items_of(self.info.get("zones"))
            if mapping_of(z).get("owner") is not None))
        self.zone_names = [str(mapping_of(z).get("position")) for z in items_of(self.info.get("zones"))]
        self.boards = {name: mapping_of(b) for name, b in mapping_of(self.info.get("boards")).items()}
        self.space_by_id = [(name, mapping_of(s)) for name, b in self.boards.items() for s in items_of(b.get("spaces"))]
        self.components = items_of(self.info.get("components"))
        self.presentation = Presentation.of(game.catalog.decls)

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
        return self._tagged_text(mapping_of(value))

    def _list_text(self, values: list[object]) -> str:
        """A list: a long list of spaces (an area) by its size, others by their first items."""
        if values and len(spaces_in(values)) == 0 and all(space_of(v) for v in values):
            return counted(len(values), "space")
        shown = [self.text(v) for v in values[:MAX_LISTED_ITEMS]]
        if len(values) > MAX_LISTED_ITEMS:
            shown.append(f"... {len(values)} in all")
        return "[" + ", ".join(shown) + "]"

    def _tagged_text(self, data: Mapping[str, object]) -> str:
        """A tagged value of the observation (docs/state-format.md, "Values")."""
        if "player" in data:
            return self.seat_name(whole_number(data["player"]))
        if "label" in data:
            return str(data["label"])
        if "enum" in data:
            look = self.presentation.enum_look(str(data["enum"]), str(data.get("value")))
            return look.get("name", str(data.get("value")))
        if "space" in data:
            return str(data["space"])
        if "zone" in data:
            slot = whole_number(data["zone"])
            return self.zone_names[slot] if 0 <= slot < len(self.zone_names) else "zone"
        if "count" in data:
            return f"{data['count']} hidden"
        if "map" in data:
            pairs = [items_of(p) for p in items_of(data["map"])]
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

    def card_text(self, card: Card, *, face: bool = True) -> str:
        """A card as a line: its face if the presentation gives its kind one and ``face``
        (else its label), tokens on it in brackets, variables shown to players that hold
        something."""
        parts = [self.face(card).get("text", card.label) if face else card.label]
        if card.tokens:
            parts.append("[" + ", ".join(f"{n} {k}" for k, n in card.tokens.items()) + "]")
        shown = [f"{self.presentation.display_name(k)} {self.text(v)}" for k, v in card.variables.items()
                 if v not in (None, [], False) and self.presentation.is_shown(k)]
        if shown:
            parts.append("(" + ", ".join(shown) + ")")
        return " ".join(parts)

    def component_info(self, component: int) -> Mapping[str, object]:
        """A component's entry of the catalog info (type, label, fields), by id."""
        return mapping_of(self.components[component]) if 0 <= component < len(self.components) else {}

    def component_kind(self, component: int) -> str:
        """The component type of a component, by id."""
        return str(self.component_info(component).get("type", ""))

    def field_texts(self, card: Card) -> dict[str, str]:
        """A card's fields and the variables shown with it, as players read them."""
        fields = mapping_of(self.component_info(card.id).get("fields"))
        values = {name: self.text(value) for name, value in fields.items()}
        values.update({name: self.text(value) for name, value in card.variables.items()
                       if self.presentation.is_shown(name)})
        return values

    def face(self, card: Card) -> dict[str, str]:
        """A card's face as its kind's presentation lays it out: ``title``, ``corner``,
        ``body`` as far as they are declared and filled, and ``text``, the face on one line;
        empty when the kind has no face."""
        layout = self.presentation.faces.get(self.component_kind(card.id))
        if not layout:
            return {}
        values = self.field_texts(card)
        face = {part: text for part in FACE_KEYS if part in layout
                for text in [fill(layout[part], values)] if text is not None}
        return {**face, "text": FACE_SEPARATOR.join(face.values())} if face else {}

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


    # -- what lies on the spaces -----------------------------------------

    def board_marks(self, obs: Mapping[str, object]) -> dict[tuple[str, str], list[str]]:
        """What lies on each space, by (board, space name): space variables' values, seats
        whose variables hold the space, global variables and visible components that do (but
        not on the space where the presentation draws a component as a token: _component_marks)."""
        marks: dict[tuple[str, str], list[str]] = {}
        for key, mark in self._marks(obs):
            found = marks.setdefault(key, [])
            if mark not in found:
                found.append(mark)
        return marks

    def _marks(self, obs: Mapping[str, object]) -> Iterable[tuple[tuple[str, str], str]]:
        """(space, mark) pairs from every part of the observation that names spaces."""
        yield from self._space_variable_marks(mapping_of(obs.get("spaces")))
        yield from self._seat_marks(items_of(obs.get("players")))
        for name, value in mapping_of(obs.get("globals")).items():   # a global named as its space says nothing
            if self.presentation.is_shown(name):
                yield from ((space, name) for space in spaces_in(value) if space[1] != name)
        yield from self._component_marks(obs)

    def _seat_marks(self, players: list[object]) -> Iterable[tuple[tuple[str, str], str]]:
        """A seat's mark ("P1") on the spaces its variables hold; the variable named when
        several variables of a player may hold spaces."""
        named = space_holders(self._shown(self.player_vars)) > 1
        for seat, view in enumerate(players):
            for name, value in mapping_of(view).items():
                if name in self.player_vars and self.presentation.is_shown(name):
                    mark = (f"{self.seat_mark(seat)} ({self.presentation.display_name(name)})" if named
                            else self.seat_mark(seat))
                    yield from ((space, mark) for space in spaces_in(value))

    def _component_marks(self, obs: Mapping[str, object]) -> Iterable[tuple[tuple[str, str], str]]:
        """A visible component's label on the spaces its variables hold, but the space where
        the presentation draws it as a token (``token_space``: the token says it is there);
        the variable named when several component variables may hold spaces."""
        named = space_holders(self._shown(self.component_vars)) > 1
        for zone, card in self.placed_cards(obs):
            drawn = self.token_space(zone, card)
            for name, value in card.variables.items():
                if not self.presentation.is_shown(name):
                    continue
                mark = f"{card.label} ({self.presentation.display_name(name)})" if named else card.label
                yield from ((space, mark) for space in spaces_in(value) if space != drawn)

    def token_space(self, zone: str, card: Card) -> tuple[str, str] | None:
        """(board, space) where the presentation draws a card as a token: the space its
        placement field or variable names, while it lies in the placement's zone."""
        placement = self.presentation.placements.get(self.component_kind(card.id))
        if placement is None or placement.within not in (None, zone):
            return None
        fields = mapping_of(self.component_info(card.id).get("fields"))
        return space_of(fields.get(placement.on, card.variables.get(placement.on)))

    def _shown(self, variables: Mapping[str, object]) -> dict[str, object]:
        """The declared variables that players are shown."""
        return {name: v for name, v in variables.items() if self.presentation.is_shown(name)}

    def _space_variable_marks(self, spaces: Mapping[str, object]) -> Iterable[tuple[tuple[str, str], str]]:
        """Space variables that hold something, as ``name value``; a seat alone ("P1") when
        it is the only space variable."""
        for variable, values in spaces.items():
            if not self.presentation.is_shown(variable):
                continue
            for (board, space), value in zip(self.space_by_id, items_of(values), strict=False):
                if value is not None and value is not False:
                    yield (board, str(space.get("name"))), self.mark_text(variable, value, alone=len(spaces) == 1)

    def mark_text(self, variable: str, value: object, *, alone: bool) -> str:
        """A space variable's value on a board: a seat short ("P1"), named by the variable
        unless ``alone``; any other value after the variable's name."""
        data = mapping_of(value)
        name = self.presentation.display_name(variable)
        if "player" in data:
            mark = self.seat_mark(whole_number(data["player"]))
            return mark if alone else f"{name} {mark}"
        return f"{name} {self.text(value)}"

    def placed_cards(self, obs: Mapping[str, object]) -> Iterator[tuple[str, Card]]:
        """(zone name, card) for every component the seat sees face up: shared zones, then
        the players' zones."""
        for zone, value in mapping_of(obs.get("zones")).items():
            yield from ((zone, card) for card in zone_cards(value) or [])
        for view in items_of(obs.get("players")):
            for zone, value in mapping_of(view).items():
                if zone in self.player_zones:
                    yield from ((zone, card) for card in zone_cards(value) or [])

    def _visible_cards(self, obs: Mapping[str, object]) -> Iterator[Card]:
        """Every component the seat sees face up, in shared zones then players' zones."""
        return (card for _, card in self.placed_cards(obs))




COORDINATES = {"square": frozenset({"x", "y"}), "hex": frozenset({"q", "r"})}
"""The attributes that place a space on a board of each kind (not shown as its data)."""


def shown_attributes(attributes: Mapping[str, object], kind: str) -> dict[str, object]:
    """A space's attributes worth showing: not the coordinates of a board of ``kind``."""
    hidden = COORDINATES.get(kind, frozenset())
    return {k: v for k, v in attributes.items() if k not in hidden}


# ------------------------------------------------------------------ the view as data


def view_data(data: SeatData, state: State, player: int) -> dict[str, Any]:
    """The view of seat ``player`` (-1: the public view) as JSON data: its observation, what
    lies on each space (``{board: {space: [mark, ...]}}``), the question it is asked (None
    when it is not to act), the seats' names, its narrated log when the state records events
    (else None) and, once the game is over, the result."""
    obs = state.observation(player)
    over = state.is_terminal()
    narration = None if state.event_log is None else state.narration(player)
    return {"observation": obs, "marks": marks_by_board(data.board_marks(obs)),
            "question": question_data(state, player), "seats": list(data.seats), "terminal": over,
            "returns": state.returns() if over else None, "winners": state.winners(), "narration": narration}


def marks_by_board(marks: Mapping[tuple[str, str], list[str]]) -> dict[str, dict[str, list[str]]]:
    """Marks by (board, space) as ``{board: {space: marks}}``."""
    found: dict[str, dict[str, list[str]]] = {}
    for (board, space), shown in marks.items():
        found.setdefault(board, {})[space] = list(shown)
    return found


def question_data(state: State, player: int) -> dict[str, Any] | None:
    """What seat ``player`` is asked now, its options tagged with the space or component each
    stands for; None when it is not to act."""
    if state.is_terminal() or player == CHANCE:
        return None
    decision = state.decision(player)
    if decision is None:
        return None
    return {"kind": decision.kind, "prompt": decision.prompt, "players": state.current_players(),
            "options": [option_data(action) for action in decision.actions]}


def option_data(action: Action) -> dict[str, Any]:
    """One option: its id and label, and the space (``{board, space}``) or the component (its
    id) that its value is, if it is one."""
    value = action.value
    space = {"board": value.board, "space": value.name} if isinstance(value, Space) else None
    component = value.id if isinstance(value, Component) else None
    return {"id": action.id, "label": action.label, "space": space, "component": component}
