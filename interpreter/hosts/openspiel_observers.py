"""The observers of the OpenSpiel adapter: what ``make_observation`` and ``make_py_observer``
give for each ``IIGObservationType``, as strings and as tensors (``tensors.py``).

``private_info`` says whose private information the view holds: ``SINGLE_PLAYER`` the
observing player's own view (``observation(player)``), ``NONE`` the public view, what every
seat sees (``observation(CHANCE)``, the same whoever asks), ``ALL_PLAYERS`` every seat's view
side by side, in seat order. ``perfect_recall`` adds each viewer's own past actions (the
information state). The public view has no recall of its own (the engine keeps no public
history of the actions), and a view without the public information is not one the engine
draws: both are refused with a ValueError that says what is supported.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal, Protocol, TypeVar

import numpy as np

from ..game import Game as EngineGame
from ..model.values import CHANCE
from ..state import tensors
from ..state.state import State as EngineState

Private = Literal["none", "single", "all"]
T = TypeVar("T")


class AdapterState(Protocol):
    """What an observer reads of the adapter's state: the engine's state, and a cache that
    lasts while no action is applied."""

    @property
    def inner(self) -> EngineState: ...

    def cached(self, key: tuple[Any, ...], make: Callable[[], T]) -> T: ...


def observer_kind(public_info: bool, perfect_recall: bool, private: Private) -> tuple[Private, bool]:
    """The view an ``IIGObservationType`` asks for, or a ValueError for one not supported."""
    if not public_info:
        raise ValueError("rulelang observers always include the public information: "
                         "ask for public_info=True (the default)")
    if private == "none" and perfect_recall:
        raise ValueError("the public view has no perfect recall (the engine keeps no public history of "
                         "actions): ask for private_info=NONE with perfect_recall=False, or for a player's "
                         "information state (SINGLE_PLAYER or ALL_PLAYERS with perfect_recall=True)")
    return private, perfect_recall


class Observer:
    """One observer: ``tensor`` is one flat float32 array and ``dict`` names its blocks (views
    into it: the engine's blocks, prefixed by ``seat N/`` for ALL_PLAYERS)."""

    def __init__(self, game: EngineGame, private: Private, perfect_recall: bool, max_number: int | None,
                 history: int):
        self.private, self.perfect_recall = private, perfect_recall
        self.max_number, self.history = max_number, history
        self.seats = list(range(game.num_players)) if private == "all" else [0]
        one = (tensors.information_state_shape(game, max_number, history)[0] if perfect_recall
               else tensors.observation_shape(game)[0])
        self.width = one
        self.tensor = np.zeros(one * len(self.seats), np.float32)
        self.dict: dict[str, Any] = {}
        for place, seat in enumerate(self.seats):
            self._name_blocks(game, place * one, f"seat {seat}/" if private == "all" else "")

    def _name_blocks(self, game: EngineGame, start: int, prefix: str) -> None:
        for block in tensors.layout(game).blocks:
            self.dict[prefix + block.name] = self.tensor[start + block.offset:start + block.offset + block.size]
        if self.perfect_recall:
            observed = tensors.observation_shape(game)[0]
            self.dict[prefix + "own actions"] = self.tensor[start + observed:start + self.width]

    def _viewers(self, player: int) -> list[int]:
        if self.private == "none":
            return [CHANCE]
        return self.seats if self.private == "all" else [player]

    def set_from(self, state: AdapterState, player: int) -> None:
        for place, viewer in enumerate(self._viewers(player)):
            start = place * self.width
            observed = state.cached(("observation tensor", viewer), lambda v=viewer: np.asarray(  # type: ignore[misc]
                tensors.observation_tensor(state.inner, v), np.float32))
            self.tensor[start:start + observed.size] = observed
            if self.perfect_recall:
                self.tensor[start + observed.size:start + self.width] = tensors.own_actions_tensor(
                    state.inner, viewer, self.max_number, self.history)

    def string_from(self, state: AdapterState, player: int) -> str:
        views = [self._view_string(state, viewer) for viewer in self._viewers(player)]
        return views[0] if self.private != "all" else "\n".join(
            f"seat {seat}: {view}" for seat, view in zip(self.seats, views, strict=True))

    def _view_string(self, state: AdapterState, viewer: int) -> str:
        text = state.cached(("observation", viewer),
                            lambda: json.dumps(state.inner.observation(viewer), sort_keys=True))
        if not self.perfect_recall:
            return text
        own = [a for p, a in state.inner.history() if p == viewer]
        return f"{text} own actions {own}"
