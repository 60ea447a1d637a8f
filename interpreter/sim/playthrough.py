"""Playthroughs: the text trace of one seeded random game, step by step.

Like OpenSpiel's playthrough files, a trace of every ruleset is kept under
``tests/playthroughs/`` and re-run by the tests, so any change in what a ruleset or the
engine does shows up as a diff. Regenerate the kept files with
``python tests/playthroughs/regenerate.py`` when a change is intended.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..agents import RandomAgent, derive_seed
from ..model.values import CHANCE, who
from ..state.state import Action

if TYPE_CHECKING:
    from ..game import Game

SHOWN_OPTIONS = 12  # legal actions listed per step (the rest are counted)


def playthrough(game: Game, seed: int = 0) -> str:
    """The trace of the game played by seeded random agents from ``seed``."""
    agents = [RandomAgent(derive_seed(seed, seat)) for seat in range(game.num_players)]
    state = game.new_initial_state(seed=seed)
    lines = [f"game: {game.title}", f"players: {game.num_players}", f"seed: {seed}"]
    step = 0
    while not state.is_terminal():
        players = state.current_players()
        player = players[0]
        actions = state.legal_actions(player)
        chosen = agents[player].choose(state, player) if player != CHANCE else actions[0]
        lines.append(f"{step}: {who(player)} of {players}: {_options(actions)} -> {chosen.id} {chosen}")
        state.apply_action(chosen, player=player)
        step += 1
    lines.append(f"returns: {state.returns()}")
    lines.append(f"winners: {state.winners()}")
    lines.extend(f"log: {message}" for message in state.log[-20:])
    return "\n".join(lines) + "\n"


def _options(actions: Sequence[Action]) -> str:
    shown = ", ".join(f"{a.id} {a}" for a in actions[:SHOWN_OPTIONS])
    more = f", ... ({len(actions)} in all)" if len(actions) > SHOWN_OPTIONS else ""
    return f"[{shown}{more}]"
