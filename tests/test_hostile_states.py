"""Hostile saved states, copies, pickles and scores (issue 9, points 3 to 5): every bad
input is refused with StateDataError (E606) naming the JSON path, never a Python error."""
from __future__ import annotations

import copy
import json
import pickle
import random

import pytest
from conftest import play_randomly
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelang
from rulelang.errors import RulelangError, RulesRuntimeError, StateDataError

TTT = rulelang.load("games/tic_tac_toe.rules")
KUHN = rulelang.load("games/kuhn_poker.rules")
BIG = rulelang.load("games/jolly_roger.rules")

SHUFFLE = """
game "T" { players 2 }
component chip { n: int } shown as "chip {n}"
zone pile: chip visible all
deck chips: chip in pile = [chip(n: i) for i in 1..4]
supply coins total 10
phase main {
  shuffle pile
  choose x in [1, 2] by players[0]
  gain x coins to players[0]
}
invariant "coins are conserved" = bank(coins) + sum(p.coins for p in players) == 10
"""


def _played(game, seed, steps, explicit_chance=False):
    return play_randomly(game.new_initial_state(seed, explicit_chance=explicit_chance), random.Random(seed), steps)


def _refused(game, data, *fragments):
    with pytest.raises(StateDataError) as caught:
        game.state_from_json(data)
    assert caught.value.diagnostic.code == "E606"
    for fragment in fragments:
        assert fragment in str(caught.value)
    return caught.value


# ---- exact types, ids in range -------------------------------------------------------

def test_negative_ids_are_refused_not_indexed():
    data = _played(TTT, 1, 1).to_json()
    data["space_vars"]["mark"][0] = {"player": -1}
    _refused(TTT, data, "$.space_vars.mark[0]")
    data = _played(KUHN, 1, 1).to_json()
    key = next(k for k, v in data["zones"].items() if v)
    data["zones"][key][0] = -1
    _refused(KUHN, data, f"$.zones.{key}[0]")


@pytest.mark.parametrize("bad", ["7", 1.5, True, 1.0, None, [1]])
def test_counts_must_be_exact_integers(bad):
    data = _played(TTT, 1, 1).to_json()
    data["decisions"] = bad
    _refused(TTT, data, "$.decisions")


def test_ids_out_of_range_and_unknown_names():
    base = _played(TTT, 1, 1).to_json()
    for path, value, where in [
        (("space_vars", "mark", 1), {"player": 9}, "$.space_vars.mark[1]"),
        (("space_vars", "mark", 1), {"board": "grid", "space": 9}, "$.space_vars.mark[1].space"),
        (("space_vars", "mark", 1), {"board": "grid", "space": "z9"}, "$.space_vars.mark[1].space"),
        (("space_vars", "mark", 1), {"board": "nope", "space": 0}, "$.space_vars.mark[1].board"),
        (("space_vars", "mark", 1), {"zone": 0}, "$.space_vars.mark[1].zone"),
        (("space_vars", "mark", 1), {"enum": "x", "value": "y"}, "$.space_vars.mark[1].enum"),
        (("space_vars", "mark", 1), {"player": 0, "extra": 1}, "$.space_vars.mark[1]"),
    ]:
        data = copy.deepcopy(base)
        data[path[0]][path[1]][path[2]] = value
        _refused(TTT, data, where)


def test_unknown_and_missing_keys():
    data = _played(TTT, 1, 1).to_json()
    data["surprise"] = 1
    _refused(TTT, data, "surprise")
    data = _played(TTT, 1, 1).to_json()
    del data["player_vars"]["won"]
    _refused(TTT, data, "$.player_vars", "won")
    _refused(TTT, [], "$")
    _refused(TTT, {1: 2}, "key must be a string")
    _refused(TTT, {"format": (1,)}, "tuple is not JSON data")


def test_deep_nesting_is_refused_without_recursion():
    data = _played(TTT, 1, 1).to_json()
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    data["log"] = deep
    _refused(TTT, data, "nested more than")


# ---- history, program position, holdings, invariants -------------------------------

def test_history_names_real_players_only():
    data = _played(TTT, 1, 2).to_json()
    data["history"][0][0] = 7
    _refused(TTT, data, "$.history[0][0]", "no player 7")
    data = _played(TTT, 1, 2).to_json()
    data["history"][0][0] = -1   # chance, in a game without explicit chance
    _refused(TTT, data, "$.history[0][0]")
    data = _played(TTT, 1, 2).to_json()
    data["history"].append([0, 0])  # more choices than decisions
    _refused(TTT, data, "$.decisions")


def test_program_position_must_fit_the_ruleset():
    base = _played(TTT, 1, 1).to_json()
    data = copy.deepcopy(base)
    data["frames"][0]["procedure"] = "nowhere"
    _refused(TTT, data, "$.frames[0].procedure")
    data = copy.deepcopy(base)
    data["frames"][0]["pc"] = 10**6
    _refused(TTT, data, "$.frames[0].pc")
    data = copy.deepcopy(base)
    data["frames"][0]["env"]["$evil"] = 1
    _refused(TTT, data, "$.frames[0].env.$evil")
    data = copy.deepcopy(base)
    data["frames"][0]["env"]["$for1"] = [[], 5]
    _refused(TTT, data, "$.frames[0].env.$for1")
    data = copy.deepcopy(base)
    data["frames"] = []
    _refused(TTT, data, "$.frames")


def test_a_shuffle_missing_an_item_is_refused_and_a_sound_one_acts():
    game = rulelang.load(SHUFFLE)
    state = game.new_initial_state(3, explicit_chance=True)
    assert state.is_chance_node()
    data = state.to_json()
    key = next(k for k in data["frames"][0]["env"] if k.startswith("$shuffle"))
    good = game.state_from_json(copy.deepcopy(data))
    while good.is_chance_node():
        good.apply_action(good.chance_outcomes()[0][0])
    assert good.current_players() == [0]
    bad = copy.deepcopy(data)
    bad["frames"][0]["env"][key][0].pop()
    _refused(game, bad, key)


def test_supply_totals_and_zones_must_match():
    game = rulelang.load(SHUFFLE)
    data = game.new_initial_state(3).to_json()
    data["supplies"]["coins"][0] += 1
    _refused(game, data, "$.supplies.coins", "total 10")
    data = game.new_initial_state(3).to_json()
    data["supplies"]["coins"][0] = -1
    _refused(game, data, "$.supplies.coins[0]")
    data = game.new_initial_state(3).to_json()
    data["zones"]["pile"].append(data["zones"]["pile"][0])
    _refused(game, data, "two zones")
    data = game.new_initial_state(3).to_json()
    data["zones"]["pile"].pop()
    _refused(game, data, "in no zone")


def test_a_broken_invariant_is_refused_with_its_name_and_span():
    game = rulelang.load(SHUFFLE.replace("== 10", "<= 3"))
    data = game.new_initial_state(3).to_json()
    data["supplies"]["coins"] = [5] + [5] + [0] * (len(data["supplies"]["coins"]) - 2)
    error = _refused(game, data, "coins are conserved")
    assert error.diagnostic.span is not None and error.diagnostic.span.line > 1


def test_a_valid_edit_still_loads_and_acts():
    game = rulelang.load(SHUFFLE)
    data = game.new_initial_state(3).to_json()
    data["supplies"]["coins"][0] -= 2
    data["supplies"]["coins"][1] += 2
    state = game.state_from_json(data)
    state.apply_action(state.legal_actions()[0])
    assert state.to_json()["supplies"]["coins"][1] >= 3


# ---- fuzzing: random mutations of real states ------------------------------------------

_STATES = [(TTT, _played(TTT, 2, 3).to_json()), (KUHN, _played(KUHN, 1, 1, True).to_json()),
           (BIG, _played(BIG, 4, 6).to_json())]
_ODD = st.one_of(st.integers(-3, 12), st.just(-1), st.just(10**30), st.text(max_size=3), st.booleans(),
                 st.none(), st.floats(allow_nan=False, max_value=9, min_value=-9), st.just([]), st.just({}),
                 st.just({"player": 1}), st.just({"component": 0}))


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _mutate(data, path, new, drop):
    data = copy.deepcopy(data)
    if not path:
        return new
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    if drop:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return data


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, 2), pick=st.integers(0, 10**6), new=_ODD, drop=st.booleans(), act=st.integers(0, 50))
def test_fuzzed_states_load_or_are_refused_and_never_die(which, pick, new, drop, act):
    game, data = _STATES[which]
    paths = list(_paths(data))
    data = _mutate(data, paths[pick % len(paths)], new, drop)
    try:
        state = game.state_from_json(data)
    except StateDataError:
        return
    for _ in range(3):
        if state.is_terminal():
            assert state.current_players() == []
            return
        players = state.current_players()
        assert players, "a loaded state has nobody to act and is not over"
        try:
            actions = state.legal_actions(players[0])
            state.apply_action(actions[act % len(actions)], player=players[0])
        except RulelangError:
            assert state.is_terminal() or state.current_players(), "a failed call left a dead state"
            return


# ---- copies and pickles ----------------------------------------------------------------

@pytest.mark.parametrize("game", [TTT, KUHN, BIG], ids=["ttt", "kuhn", "big"])
def test_copies_and_pickles_are_independent(game):
    state = _played(game, 5, 2)
    if state.is_terminal():
        state = game.new_initial_state(5)
    before = state.to_json()
    for other in (copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert other.to_json() == before
        other.apply_action(other.legal_actions(other.current_players()[0])[0], player=other.current_players()[0])
        assert state.to_json() == before
    revived = pickle.loads(pickle.dumps(game))
    assert revived is not game and revived.num_players == game.num_players
    assert revived.new_initial_state(5).to_json() == game.new_initial_state(5).to_json()
    assert copy.deepcopy(game).new_initial_state(1).to_json() == game.new_initial_state(1).to_json()
    assert copy.copy(game).num_distinct_actions() == game.num_distinct_actions()


def test_components_are_immutable():
    component = KUHN.catalog.components[0]
    with pytest.raises(AttributeError):
        component.id = 5
    with pytest.raises(TypeError):
        component.fields["x"] = 1   # type: ignore[index]
    with pytest.raises(AttributeError):
        component.record = {}
    # (the engine's own dict, which the generated code reads, is the one the read-only view shows)
    assert component.record == dict(component.fields) and type(component.record) is dict
    revived = pickle.loads(pickle.dumps(component))
    assert list(revived.record) == list(component.record) and revived.fields == revived.record
    assert copy.deepcopy(component) is component


# ---- scores and JSON ---------------------------------------------------------------------

EMPTY_MAX = """
game "T" { players 2 }
var nothing: list[int] = []
phase main {
  end game
}
score p = max(nothing)
"""


def test_a_score_that_is_not_a_number_is_a_runtime_error_at_the_score():
    state = rulelang.load(EMPTY_MAX).new_initial_state(0)
    assert state.is_terminal()
    for call in (state.returns, state.winners):
        with pytest.raises(RulesRuntimeError) as caught:
            call()
        assert caught.value.diagnostic.code == "E602"
        assert caught.value.diagnostic.span is not None and caught.value.diagnostic.span.line == 7


def test_to_json_writes_a_huge_seed_and_reads_it_back():
    """Only a seed can be huge: a number of a variable stays within the engine's range
    (a huge one is refused: tests/test_typed_restore.py)."""
    game = rulelang.load("""
game "T" { players 1 }
var x: int = 0
phase main {
  choose c in [1] by players[0]
}
""")
    state = game.new_initial_state(10**5000)
    data = state.to_json()
    assert data["seed"] == {"int": hex(10**5000)}
    loaded = game.state_from_json(json.loads(json.dumps(data)))
    assert loaded.seed == 10**5000
    assert json.loads(json.dumps(loaded.to_json())) == data


def test_a_huge_hexadecimal_integer_is_refused():
    data = _played(TTT, 1, 1).to_json()
    data["seed"] = {"int": "0x" + "f" * 9000}
    _refused(TTT, data, "$.seed")
