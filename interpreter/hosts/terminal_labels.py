"""The texts the terminal draws on a board's spaces: the presentation's ``label`` and
``corner`` of each space where the ruleset declares them (``present { BOARD { label "..."
corner "..." } }``: present_view.space_labels, as the web page draws them), else the spaces'
raw attributes. Besides its label, a space keeps its ground: the first of the board's text
attributes (a terrain, a type: often the one the web page colours the spaces by), unless its label
writes it already. Nothing here knows a game.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rulelang.syntax.placeholders import PLACEHOLDER

from .present_view import space_labels
from .seat_view import SeatData

if TYPE_CHECKING:
    from rulelang.boards import Board, Space

Presented = Mapping[str, Mapping[str, str]]
"""What the terminal writes on each space of a board: ``{space: {column: text}}``, a column
being the ground's attribute, "label" or "corner"."""

LABEL_COLUMNS = ("label", "corner")
"""The presented texts a space may have, in the order the terminal writes them."""


def presented_board(seat: SeatData, name: str, board: Board, obs: Mapping[str, object],
                    text_attributes: Sequence[str]) -> Presented | None:
    """What the terminal writes on each space of board ``name`` for the observation ``obs``,
    by column (``presented_values``); None when the ruleset's presentation declares no
    texts for that board (its raw attributes are drawn then)."""
    templates = seat.presentation.spaces.get(name)
    if not templates:
        return None
    labels = space_labels(seat, obs).get(name, {})
    ground = text_attributes[0] if text_attributes else None
    written = {word.strip() for template in templates.values() for word in PLACEHOLDER.findall(template)}
    return {space.name: presented_values(space, labels.get(space.name, {}), ground, ground in written)
            for space in board.spaces}


def presented_values(space: Space, texts: Mapping[str, str], ground: str | None, in_label: bool) -> dict[str, str]:
    """What the terminal writes on one space, by column: its ground (the attribute ``ground``,
    unless its label writes it: ``in_label``), its label, its corner."""
    values = {column: texts[column] for column in LABEL_COLUMNS if column in texts}
    if ground is not None and ground in space.attributes and not (in_label and "label" in values):
        values = {ground: str(space.attributes[ground])} | values
    return values


def columns_of(presented: Presented) -> list[str]:
    """The columns the spaces of a board have, the ground first, then the label and corner."""
    found = dict.fromkeys(column for values in presented.values() for column in values)
    return sorted(found, key=lambda column: LABEL_COLUMNS.index(column) + 1 if column in LABEL_COLUMNS else 0)


def track_words(values: Mapping[str, str]) -> list[str]:
    """A track space's presented values as the words of its cell: the corner in brackets."""
    return [f"({text})" if column == "corner" else text for column, text in values.items()]


def track_legend(presented: Presented) -> str:
    """What a presented track's cell holds, for its legend: "number, name, type, label,
    (corner)"; "label or type" when a space has its ground only where it has no label."""
    columns = columns_of(presented)
    words = [f"({column})" if column == "corner" else column for column in columns]
    ground = columns[0] if columns and columns[0] not in LABEL_COLUMNS else None
    if ground is not None and "label" in columns and not any(ground in v and "label" in v for v in presented.values()):
        words = [f"label or {ground}", *words[2:]]
    return "each space: number, name" + "".join(f", {word}" for word in words)
