"""What the information-set sampler need not compute on a sample: an invariant that reads
the components of zones only by fields that the components of each group agree on keeps its
value under the permutation (``unmoved.uniform_fields``, ``infostate.uniform_invariants``),
as long as rebuilding the decision awaited changed nothing (``infostate._rebuilt``); and
what a sampler shares between its samples (``state/hidden.py``, ``state/relabel.py``).
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from conftest import play_randomly

import rulelang
from rulelang import Game, State
from rulelang.interpreter.state.infostate import (
    Sampler,
    _built,
    _Fresh,
    _rebuilt,
    _sorted_permutation,
    uniform_invariants,
)
from rulelang.interpreter.state.precheck import rebuilds_alone
from rulelang.interpreter.state.unmoved import blind_invariants, uniform_fields

GAMES = Path(__file__).resolve().parent.parent / "games"


def load(name: str, players: int) -> Game:
    return rulelang.load(GAMES / f"{name}.rules", players=players)


def states(game: Game, seed: int, stride: int, most: int) -> list[State]:
    """Copies of the states of one random game every ``stride`` actions, at most ``most``."""
    state = game.new_initial_state(seed=seed)
    chooser = random.Random(seed)
    kept: list[State] = []
    count = 0
    while not state.is_terminal() and len(kept) < most:
        if count % stride == stride - 1:
            kept.append(state.clone())
        play_randomly(state, chooser, 1)
        count += 1
    return kept


def test_the_fields_through_which_invariants_read_what_zones_hold() -> None:
    game = load("jamaica", 4)
    fields = dict(zip((rule.label for rule in game.program.invariants), uniform_fields(game.catalog), strict=True))
    # c.colour for c in list(p.draw) + ...: the colour only
    assert fields["a player has his own colour's 11 cards"] == frozenset({"colour"})
    assert fields["players hold riches and curses face down"] == frozenset({"kind"})
    assert fields["a hand holds at most 4 cards"] == frozenset()           # blind: sizes only
    tobago = load("tobago", 4)
    blind = blind_invariants(tobago.catalog)
    read = uniform_fields(tobago.catalog)
    # Tobago's that are not blind read variables that may hold a component, or compare components.
    assert [f for f, b in zip(read, blind, strict=True) if not b] == [None] * blind.count(False)


def test_an_invariant_of_fields_the_groups_agree_on_is_not_computed_on_samples(monkeypatch: Any) -> None:
    # Jamaica: each player's action cards (one colour) are a group of their own, so "his own
    # colour's cards" keeps its value; the treasures of one group differ in kind, so "riches
    # and curses face down" is computed on every sample.
    game = load("jamaica", 4)
    labels = {rule.span: rule.label for rule in game.program.invariants}
    computed: list[str] = []
    evaluate = State.evaluate

    def counted(self: State, fn: Any, env: Any, span: Any = None) -> Any:
        if span in labels:
            computed.append(labels[span])
        return evaluate(self, fn, env, span)

    candidates = [s for s in states(game, 3, 25, 8) if s.current_players()]
    monkeypatch.setattr(State, "evaluate", counted)
    for state in candidates:
        Sampler(state, state.current_players()[0]).sample(7)
    assert "players hold riches and curses face down" in computed
    assert "a player has his own colour's 11 cards" not in computed


@pytest.mark.parametrize(("name", "players"), [("jamaica", 4), ("asterix", 4), ("jolly_roger", 4)])
def test_an_invariant_of_fields_the_groups_agree_on_keeps_its_value(name: str, players: int) -> None:
    game = load(name, players)
    invariants = {id(rule): rule for rule in game.program.invariants}
    blind = dict(zip(invariants, blind_invariants(game.catalog), strict=True))
    checked = 0
    # Two games: a game of one seed may end before any state where such an invariant holds
    # (Jolly Roger's seed 5 since the shuffle sorts by keys); two make it seed-proof enough.
    for state in states(game, 5, 30, 6) + states(game, 6, 30, 6):
        player = state.current_players()[0]
        sampler = Sampler(state, player)
        uniform = [invariants[k] for k, unmoved in uniform_invariants(game, sampler.widest).items()
                   if unmoved and not blind[k]]
        for seed in range(3):
            sample = sampler.sample(seed)
            for rule in uniform:
                checked += 1
                assert bool(sample.evaluate(rule.condition, {}, rule.span)) == bool(
                    state.evaluate(rule.condition, {}, rule.span)), rule.label
    assert checked


SKIPPING = """\
game "G" { players 2 }
var limit: int = 0
var skipped: bool = false
phase p {
  choose x in [k for k in [1, 2, 3] if k > limit] by players[0] otherwise { skipped = true }
  choose y in [4, 5] by players[1]
  end game
}
"""


def test_a_rebuild_is_pure_only_where_it_stops_again_at_once() -> None:
    game = rulelang.load(SKIPPING)
    state = game.new_initial_state(seed=0)
    same = state.clone()
    assert _rebuilt(same) is True and same.current_players() == [0]
    runs_on = state.clone()
    runs_on.global_values["limit"] = 3   # no option: the run goes through 'otherwise' to the next choice
    assert _rebuilt(runs_on) is False
    assert runs_on.global_values["skipped"] is True and runs_on.current_players() == [1]


@pytest.mark.parametrize(("name", "players", "stride"), [("jamaica", 4, 25), ("tobago", 4, 25), ("jolly_roger", 4, 5)])
def test_a_sampler_draws_as_the_state_does_from_any_point_of_a_game(name: str, players: int, stride: int) -> None:
    # The sampler reads the history on from the last one it read for a game and seat
    # (relabel._naming): its samples are those of a sampler that reads it all, in any order
    # of states of one game or of two.
    game = load(name, players)
    first, second = states(game, 1, stride, 4), states(game, 2, stride, 4)
    order = [first[2], second[0], first[0], first[3], second[3], first[1]]
    seen: dict[int, object] = {}
    for state in order:
        player = state.current_players()[0]
        seen[id(state)] = Sampler(state, player).sample(11).to_json()
    from rulelang.interpreter.state import relabel
    for state in reversed(order):
        relabel._NAMING.clear()
        player = state.current_players()[0]
        assert Sampler(state, player).sample(11).to_json() == seen[id(state)]


def test_a_decision_rebuilds_alone_where_running_it_again_can_only_stop_there() -> None:
    game = rulelang.load(SKIPPING)
    state = game.new_initial_state(seed=0)
    assert not rebuilds_alone(state)   # 'otherwise' runs on when there is no option
    state.apply_action(state.legal_actions(0)[0], player=0)
    assert rebuilds_alone(state)       # a choice without 'otherwise'
    jamaica = load("jamaica", 4)
    for state in states(jamaica, 2, 15, 6):
        decision = state.pending
        assert decision is not None
        # Jamaica's choices have no 'otherwise', and its simultaneous choice is made by 'players'.
        assert rebuilds_alone(state) == (decision.kind in ("choose", "menu", "simultaneous"))


def test_a_precheck_computes_on_the_permutation_what_the_sample_would() -> None:
    game = load("jamaica", 4)
    compared = 0
    for state in states(game, 6, 20, 8):
        player = state.current_players()[0]
        sampler = Sampler(state, player)
        precheck, fit = sampler.precheck, sampler.fit
        if precheck is None or fit is None:
            continue
        rules = list(game.program.invariants)
        fresh = _Fresh(0, player, None)
        generator = 99
        for _ in range(6):
            generator, mapping = _sorted_permutation(sampler.draws, generator)
            checked = precheck.keeps(mapping, rules, lambda rule: False)   # (computes them all)
            built = _built(state, mapping, fresh, sampler.relabelling, 0)
            assert checked is not None and built is not None and built[1]
            sample = built[0]
            assert checked[1] == {rule.label for rule in rules if id(rule) in precheck.ids
                                  and not sample.evaluate(rule.condition, {}, rule.span)}
            compared += 1
    assert compared


def test_a_permutation_the_precheck_rules_out_builds_no_sample(monkeypatch: Any) -> None:
    # Jamaica: about one permutation in two puts a power among a player's face-down treasures.
    from rulelang.interpreter.state import infostate
    game = load("jamaica", 4)
    drawn: list[int] = []
    built: list[int] = []
    permutation, build = infostate._sorted_permutation, infostate._built

    def drawing(*args: Any) -> Any:
        drawn.append(1)
        return permutation(*args)

    def building(*args: Any) -> Any:
        built.append(1)
        return build(*args)

    candidates = [s for s in states(game, 7, 20, 10) if s.current_players()]
    monkeypatch.setattr(infostate, "_sorted_permutation", drawing)
    monkeypatch.setattr(infostate, "_built", building)
    for state in candidates:
        Sampler(state, state.current_players()[0]).sample(3)
    assert len(built) < len(drawn)
