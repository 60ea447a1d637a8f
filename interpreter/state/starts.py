"""The start a new game of a game shares with every other, whatever its seed (``State.initial``).

Nothing before the first operation that may stop for a decision or draw from the random
generator reads the seed: a new game starts as a copy of a state run up to there, computed
once per game (and on to the first decision itself when nothing on the way draws).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..game import Game
    from .state import State

__all__ = ["start_of"]


def start_of(blank: type[State], game: Game, events: bool) -> tuple[State, int, int] | None:
    """A new game of ``game`` (a ``blank`` state, recording ``events`` or not) set up and run
    up to the first operation that may stop for a decision or draw from the random generator,
    with the steps done so far (the state holds the work and rounds); computed once per game. Nothing before that
    reads the seed, so every new game starts as a copy of it. None if that run fails (the
    game's own run reports it) or if the rules stop there in a way no copy could share."""
    starts, key = game.starts, (events, game.max_steps)
    if key not in starts:
        starts[key] = None
        state = blank(game, 0, False, events)
        try:
            state._set_up_and_start()
            steps = state._run_until_decision(until_stop=True)
        except Exception:
            return None
        if state.pending is None:   # on to the first decision itself when nothing on the way draws
            starts[key] = _first_decision(state, steps) or (state, steps, state.work)
    return starts[key]


def _first_decision(prefix: State, steps: int) -> tuple[State, int, int] | None:
    """``prefix`` (a start of ``start_of``) run on to its first decision, or to its end, when
    that run draws nothing from the random generator: then every new game reaches the very
    same decision (the decision holds no state of its own), and a copy of it needs no run.
    None if the run draws (its generator moved), or fails (each game's own run reports it)."""
    state = prefix.clone()
    drawn = state.rng
    try:
        state._run_until_decision(steps, state.work, rounds=state.rounds)
    except Exception:
        return None
    if state.rng != drawn or (state.pending is None and not state.terminal):
        return None
    return state, 0, 0
