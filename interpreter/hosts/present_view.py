"""A ruleset's presentation rendered for one seat: the ``presentation`` of the seat's view
data (docs/web.md, "The presentation"), read by the web page and the terminal view.

From the static presentation (``presentation.Presentation``) and one observation it renders:
the face of every card the seat sees (its title, corner and body texts, with values written
as players read them), the labels of the board's spaces (from the spaces' attributes and
space variables), and the components drawn on the spaces where they lie. Nothing here knows
a game.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .presentation import SPACE_KEYS, fill
from .seat_view import Card, SeatData, items_of, mapping_of, view_data

if TYPE_CHECKING:
    from ..state.state import State


def presented_view_data(data: SeatData, state: State, player: int) -> dict[str, Any]:
    """The view of seat ``player`` as JSON data (``seat_view.view_data``) with its
    ``presentation`` (``present_data``)."""
    view = view_data(data, state, player)
    view["presentation"] = present_data(data, mapping_of(view.get("observation")))
    return view


def present_data(seat: SeatData, obs: Mapping[str, object]) -> dict[str, object]:
    """The presentation of the view of the seat of ``obs`` as JSON data."""
    cards = list(seat.placed_cards(obs))
    looks = {card.id: card_look(seat, card) for _, card in cards}
    data = seat.presentation.data()
    data["shown_variables"] = shown_variables(seat)
    data["cards"] = {str(number): look for number, look in looks.items() if look}
    data["spaces"] = space_labels(seat, obs)
    data["tokens"] = tokens_on_spaces(seat, cards, looks)
    return data


def shown_variables(seat: SeatData) -> dict[str, list[str]]:
    """The variables players are shown, by owner kind (``global``, ``player``, ``space``,
    ``component``), and the supplies whose players' counts they are shown (``supply``):
    every declared one without ``show``."""
    variables = mapping_of(seat.info.get("variables"))
    shown = {owner: [name for name in mapping_of(declared) if seat.presentation.is_shown(name)]
             for owner, declared in variables.items()}
    return {**shown, "supply": [name for name in seat.supplies if seat.presentation.is_shown(name)]}


# ------------------------------------------------------------------ cards


def card_look(seat: SeatData, card: Card) -> dict[str, str]:
    """A card's face (``title``, ``corner``, ``body``, and ``text``: the face on one line),
    its kind, colour and symbol, as far as the presentation declares them."""
    kind = seat.component_kind(card.id)
    look = {k: v for k, v in seat.presentation.kinds.get(kind, {}).items() if k != "name"}
    colour = card_colour(seat, card, kind)
    if colour is not None:
        look["colour"] = colour
    look.update(seat.face(card))
    return {"kind": kind, **look} if look else {}


def card_colour(seat: SeatData, card: Card, kind: str) -> str | None:
    """The colour of a card from the enum value of its colouring field, if one is declared."""
    field = seat.presentation.colour_fields.get(kind)
    if field is None:
        return None
    value = mapping_of(mapping_of(seat.component_info(card.id).get("fields")).get(field))
    return seat.presentation.enum_look(str(value.get("enum")), str(value.get("value"))).get("colour")


# ------------------------------------------------------------------ spaces


def space_labels(seat: SeatData, obs: Mapping[str, object]) -> dict[str, dict[str, dict[str, str]]]:
    """The texts drawn on each space of a presented board: ``{board: {space: {label, corner}}}``."""
    space_values = mapping_of(obs.get("spaces"))
    found: dict[str, dict[str, dict[str, str]]] = {}
    for number, (board, space) in enumerate(seat.space_by_id):
        texts = seat.presentation.spaces.get(board)
        if not texts:
            continue
        values = space_texts(seat, space, {name: items_of(v)[number] if number < len(items_of(v)) else None
                                           for name, v in space_values.items()})
        drawn = {part: text for part in SPACE_KEYS if part in texts
                 for text in [fill(texts[part], values)] if text is not None}
        if drawn:
            found.setdefault(board, {})[str(space.get("name"))] = drawn
    return found


def space_texts(seat: SeatData, space: Mapping[str, object], variables: Mapping[str, object]) -> dict[str, str]:
    """A space's name, index, attributes and the space variables that hold something, as text."""
    values = {"name": str(space.get("name")), "index": str(space.get("index"))}
    values.update({k: seat.text(v) for k, v in mapping_of(space.get("attributes")).items()})
    values.update({k: seat.text(v) for k, v in variables.items() if v is not None})
    return values


Tokens = dict[str, dict[str, list[dict[str, object]]]]
"""Components drawn on spaces: ``{board: {space: [token, ...]}}``."""


def tokens_on_spaces(seat: SeatData, cards: Iterable[tuple[str, Card]],
                     looks: Mapping[int, dict[str, str]] | None = None) -> Tokens:
    """The components drawn on the spaces where they lie: ``{board: {space: [token, ...]}}``,
    a token being its component id, label, kind, and colour and symbol if declared (its
    look: from ``looks``, by component id, where the caller has made them)."""
    found: Tokens = {}
    for zone, card in cards:
        where = seat.token_space(zone, card)
        if where is not None:
            kind = seat.component_kind(card.id)
            look = looks[card.id] if looks is not None else card_look(seat, card)
            token = {"component": card.id, "label": card.label, "kind": kind, **look}
            found.setdefault(where[0], {}).setdefault(where[1], []).append(token)
    return found


def with_tokens(seat: SeatData, marks: Mapping[tuple[str, str], list[str]],
                obs: Mapping[str, object]) -> dict[tuple[str, str], list[str]]:
    """Board marks (``SeatData.board_marks``, which leave out a component drawn as a token)
    with the components drawn on their spaces, each as its symbol, else its face, else its
    label: the terminal's tokens."""
    found = {key: list(shown) for key, shown in marks.items()}
    for board, spaces in tokens_on_spaces(seat, seat.placed_cards(obs)).items():
        for space, tokens in spaces.items():
            found.setdefault((board, space), []).extend(str(t.get("symbol", t.get("text", t["label"]))) for t in tokens)
    return found
