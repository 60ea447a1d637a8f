"""The sampler keeps the seat's own past: ``state.resample_from_infostate(player, seed)`` (and
the agents' ``Sampler``) gives a state whose ``history()`` holds exactly the actions ``player``
took, in order, for games with hidden cards that are played and shuffled back (the cards a
seat chose go out of its sight) and with simultaneous choices (some seats have picked, some
not), beside what every sample keeps: the seat's observation, labelled legal actions and
tensor, the invariants, and a game that plays on to its end.
"""
from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelang
from rulelang import Game, State
from rulelang.interpreter.state.infostate import Sampler
from rulelang.interpreter.state.state import CHANCE

GAMES = Path(__file__).resolve().parent.parent / "games"

# (ruleset, players, the most actions played before sampling)
CASES = [("jolly_roger", 3, 160), ("jamaica", 3, 200), ("tobago", 2, 300), ("tobago", 4, 300)]

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@functools.cache
def load(name: str, players: int) -> Game:
    return rulelang.load(GAMES / f"{name}.rules", players=players)


def played(game: Game, seed: int, actions: int) -> State:
    """A random game of ``game`` after up to ``actions`` actions, each by a seat drawn among
    those to act (so a simultaneous choice may stand half made)."""
    chooser = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    for _ in range(actions):
        if state.is_terminal():
            break
        player = chooser.choice(state.current_players())
        state.apply_action(chooser.choice(state.legal_action_ids(player)), player=player)
    return state


def own(state: State, player: int) -> list[int]:
    """The action ids ``player`` took, in order."""
    return [action for seat, action in state.history() if seat == player]


def seen(state: State, player: int) -> tuple[object, ...]:
    """What ``player`` sees: observation, labelled legal actions, tensor, who acts."""
    actions = [(a.id, a.label) for a in state.legal_actions(player)] if player in state.current_players() else []
    return state.observation(player), actions, state.observation_tensor(player), state.current_players()


def check_sample(sample: State, state: State, player: int, chooser: random.Random) -> None:
    assert own(sample, player) == own(state, player), "the seat's own past was rewritten"
    assert len(sample.history()) == len(state.history())
    assert seen(sample, player) == seen(state, player)
    assert sample.check_invariants() == []
    while not sample.is_terminal():
        seat = chooser.choice(sample.current_players())
        sample.apply_action(chooser.choice(sample.legal_action_ids(seat)), player=seat)


@pytest.mark.parametrize(("name", "players", "most"), CASES, ids=[f"{n}-{p}p" for n, p, _ in CASES])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, fraction=st.floats(min_value=0.0, max_value=1.0), viewer=st.integers(min_value=0, max_value=3),
       sample_seed=SEEDS)
def test_a_sample_keeps_the_seats_own_actions(name: str, players: int, most: int, seed: int, fraction: float,
                                              viewer: int, sample_seed: int) -> None:
    game = load(name, players)
    state = played(game, seed, round(most * fraction))
    player = viewer % players
    truth = state.to_json()
    chooser = random.Random(sample_seed)
    check_sample(state.resample_from_infostate(player, sample_seed), state, player, chooser)
    check_sample(Sampler(state, player).sample(sample_seed), state, player, chooser)
    assert state.to_json() == truth, "the original changed"


def test_a_card_played_and_shuffled_back_stays_the_one_the_seat_played() -> None:
    """Jolly Roger: each round a seat plays one card of its hand, and the next round deals
    all cards again from a shuffled pile; the sampler permutes the cards the seat has lost
    track of, but the action that played one still names the card played."""
    game = load("jolly_roger", 3)
    state = played(game, 0, 40)
    assert CHANCE not in state.current_players()
    base, top = game.catalog.component_base, game.catalog.component_base + len(game.catalog.components)
    cards = [a for a in own(state, 0) if base <= a < top]
    assert cards, "seat 0 played a card"
    samples = [state.resample_from_infostate(0, seed) for seed in range(20)]
    assert any(s.zones != state.zones for s in samples), "the hidden cards are drawn again"
    assert all(own(s, 0) == own(state, 0) for s in samples)


def test_a_pick_made_in_a_simultaneous_choice_stays_the_seats_own() -> None:
    """Jamaica: seat 1 has picked a card in secret (the history holds the pick at once),
    seats 0 and 2 not yet. In every sample for seat 1 the history ends with that pick as
    seat 1 made it, and still does once the others have picked; the others' samples keep
    their own past too."""
    game = load("jamaica", 3)
    state = game.new_initial_state(seed=1)
    chooser = random.Random(1)
    while state.current_players() != [0, 1, 2]:
        seat = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_action_ids(seat)), player=seat)
    pick = state.legal_action_ids(1)[0]
    state.apply_action(pick, player=1)
    assert own(state, 1)[-1] == pick
    for seed in range(10):
        sample = state.resample_from_infostate(1, seed)
        assert own(sample, 1) == own(state, 1)
        for seat in (0, 2):
            sample.apply_action(sample.legal_action_ids(seat)[0], player=seat)
        assert own(sample, 1) == own(state, 1)
        for seat in (0, 2):
            assert own(state.resample_from_infostate(seat, seed), seat) == own(state, seat)
