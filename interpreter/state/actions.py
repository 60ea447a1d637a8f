"""Actions and decision contexts: what a player may take, and what he is asked now.

A game makes each ``Action`` once and gives the same object again (``Game.actions``); a
``DecisionContext`` (``State.decision``) holds the question with its legal actions.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

from rulelang.diagnostics import Span
from rulelang.errors import IllegalActionError

from ..model.values import CHANCE, Value, display


def as_integer(value: object) -> int | None:
    """``value`` as a Python int where it is an integer of any library a host may hand over
    (an ``int``, numpy's ``int64`` from an argmax or a sampled action, anything with
    ``__index__``); None for anything else, booleans included (True is not action 1)."""
    if type(value) is int:
        return value
    if isinstance(value, bool):   # (numpy's bool has no __index__)
        return None
    try:
        return operator.index(value)   # type: ignore[arg-type]
    except TypeError:
        return None


def checked_player(player: object, count: int) -> int:
    """``player`` as a player number of a ``count``-player game (0..count-1, or CHANCE),
    any integer type accepted; IllegalActionError otherwise."""
    number = as_integer(player)
    if number is None or not (number == CHANCE or 0 <= number < count):
        raise IllegalActionError(f"no player {player!r} in a {count}-player game (players are 0..{count - 1})")
    return number


class Action:
    """A legal action: a stable integer ``id`` and a readable ``str()`` (its ``label``: the
    value as the rules show it, unless given). Immutable: a game gives the same Action
    objects again (``Game.actions``)."""

    __slots__ = ("_label", "id", "player", "value")
    id: int
    player: int
    value: Value
    _label: str | None

    def __init__(self, action_id: int, label: str | None, player: int, value: Value = None):
        for name, field_value in (("id", action_id), ("_label", label), ("player", player), ("value", value)):
            object.__setattr__(self, name, field_value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an Action cannot be changed ('{name}')")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an Action cannot be changed ('{name}')")

    def __reduce__(self) -> tuple[type[Action], tuple[int, str | None, int, Value]]:
        return Action, (self.id, self._label, self.player, self.value)

    @property
    def label(self) -> str:
        """The action as the rules show it (made when first asked for: a host that plays by
        ids never needs it)."""
        if self._label is None:
            object.__setattr__(self, "_label", display(self.value))
        assert self._label is not None
        return self._label

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"Action({self.id}, {self.label!r}, player={self.player})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.id == self.id and other.player == self.player

    def __hash__(self) -> int:
        return hash((self.id, self.player))


@dataclass(frozen=True)
class DecisionContext:
    """What a player is asked now (``State.decision``)."""

    kind: str                     # "choice", "number range", "menu", "simultaneous" or "chance"
    prompt: str                   # the rule's prompt, or one derived from the statement
    player: int                   # who answers (CHANCE for a chance event)
    span: Span | None             # the statement of the ruleset that asks
    actions: tuple[Action, ...]   # the legal actions (or the chance outcomes), with their labels

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "prompt": self.prompt, "player": self.player,
                "at": None if self.span is None else f"{self.span.line}:{self.span.column}",
                "actions": [[a.id, a.label] for a in self.actions]}
