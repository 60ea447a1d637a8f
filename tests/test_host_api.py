"""The host API contract of DESIGN.md, exercised on tic-tac-toe and on small inline rulesets."""
from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest
from conftest import GAMES_DIR, game_cases, rules, transfers_called

import rulelang
from rulelang import Action, IllegalActionError, RulesetError, RulesRuntimeError, StateDataError

TTT = str(GAMES_DIR / "tic_tac_toe.rules")


@pytest.fixture(scope="module")
def ttt():
    return rulelang.load(TTT, players=2)


def play(state, *labels):
    """Apply the actions named by their labels, each by the one player to act."""
    for label in labels:
        (player,) = state.current_players()
        matching = [a for a in state.legal_actions(player) if str(a) == label]
        assert matching, f"{label} is not legal; legal: {[str(a) for a in state.legal_actions(player)]}"
        state.apply_action(matching[0], player=player)
    return state


# ---- the names of the contract ----

def test_public_names():
    assert rulelang.CHANCE == -1
    assert rulelang.IllegalActionError is IllegalActionError
    assert rulelang.RulesRuntimeError is RulesRuntimeError
    assert issubclass(IllegalActionError, ValueError)
    assert rulelang.DecisionContext.__name__ == "DecisionContext" and "DecisionContext" in rulelang.__all__


def test_first_state(ttt):
    state = ttt.new_initial_state(seed=7)
    assert not state.is_terminal()
    assert state.current_players() == [0]
    actions = state.legal_actions(0)
    assert [str(a) for a in actions] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert all(isinstance(a, Action) and isinstance(a.id, int) for a in actions)
    assert len({a.id for a in actions}) == 9
    assert state.legal_action_ids(0) == [a.id for a in actions]
    assert state.history() == []
    assert state.winners() == []


def test_action_ids_are_stable(ttt):
    one = {str(a): a.id for a in ttt.new_initial_state(seed=1).legal_actions(0)}
    other = {str(a): a.id for a in rulelang.load(TTT, players=2).new_initial_state(seed=99).legal_actions(0)}
    assert one == other
    # The same cell keeps its id deeper in the game, for the other player too.
    state = play(ttt.new_initial_state(), "a1")
    assert {str(a): a.id for a in state.legal_actions(1)} == {k: v for k, v in one.items() if k != "a1"}
    assert all(a.id < ttt.num_distinct_actions() for a in state.legal_actions(1))


def test_apply_by_id_or_action_is_the_same(ttt):
    a = ttt.new_initial_state()
    b = ttt.new_initial_state()
    action = a.legal_actions(0)[4]
    a.apply_action(action)
    b.apply_action(action.id, player=0)
    assert a.to_json() == b.to_json()
    assert a.history() == [(0, action.id)] == b.history()


def test_actions_are_immutable_values_that_a_game_gives_again(ttt):
    first, second = ttt.new_initial_state(seed=1), ttt.new_initial_state(seed=2)
    actions = first.legal_actions(0)
    assert [str(a) for a in actions] == [str(a) for a in second.legal_actions(0)]
    assert all(a is b for a, b in zip(actions, second.legal_actions(0), strict=True))   # made once, given again
    with pytest.raises(AttributeError, match="cannot be changed"):
        actions[0].id = actions[1].id
    with pytest.raises(AttributeError, match="cannot be changed"):
        del actions[0].value
    assert [a.id for a in first.legal_actions(0)] == [a.id for a in actions]   # the game's actions unchanged
    copied = pickle.loads(pickle.dumps(actions[3]))
    assert copied == actions[3] and (copied.id, copied.player, str(copied)) == (actions[3].id, 0, str(actions[3]))
    assert copy.copy(actions[3]) == actions[3]
    # (legal_actions reads them through each player's getter, made once: bound to the game's own)
    assert [getter.__self__ for getter in ttt.action_of] == ttt.actions
    assert all(getter.__self__ is made for getter, made in zip(ttt.action_of, ttt.actions, strict=True))
    unpickled = pickle.loads(pickle.dumps(ttt))
    assert all(getter.__self__ is made for getter, made in zip(unpickled.action_of, unpickled.actions, strict=True))
    assert [str(a) for a in unpickled.new_initial_state(seed=1).legal_actions(0)] == [str(a) for a in actions]


def test_history_records_every_action(ttt):
    state = play(ttt.new_initial_state(), "b2", "a1", "c3")
    ids = {str(a): a.id for a in ttt.new_initial_state().legal_actions(0)}
    assert state.history() == [(0, ids["b2"]), (1, ids["a1"]), (0, ids["c3"])]
    # history() is a copy, not the state's own list
    state.history().append((1, 0))
    assert len(state.history()) == 3


def test_legal_actions_of_a_player_not_to_act_is_empty(ttt):
    state = ttt.new_initial_state()
    assert state.legal_actions(1) == []
    assert state.legal_action_ids(1) == []
    play(state, "a1")
    assert state.legal_actions(0) == []
    assert len(state.legal_actions(1)) == 8


# ---- returns and winners ----

def test_first_player_wins_a_column(ttt):
    state = play(ttt.new_initial_state(), "a1", "a2", "b1", "b2", "c1")
    assert state.is_terminal()
    assert state.current_players() == []
    assert state.winners() == [0]
    assert state.returns() == [1, -1]
    assert state.legal_actions(0) == []


def test_second_player_wins(ttt):
    state = play(ttt.new_initial_state(), "a1", "a2", "b1", "b2", "a3", "c2")
    assert state.is_terminal()
    assert state.winners() == [1]
    assert state.returns() == [-1, 1]


def test_draw(ttt):
    # a1 b1 c1 / a2 b2 c2 / a3 b3 c3 laid out as  X O X / X O O / O X X
    state = play(ttt.new_initial_state(), "a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3")
    assert state.is_terminal()
    assert state.winners() == [0, 1]
    assert state.returns() == [0, 0]


def test_unfinished_game_has_no_winners(ttt):
    state = play(ttt.new_initial_state(), "a1", "a2")
    assert not state.is_terminal()
    assert state.winners() == []


# ---- illegal actions ----

def test_illegal_action_names_the_action_and_the_legal_ones(ttt):
    state = play(ttt.new_initial_state(), "b2")
    before = state.to_json()
    taken = {str(a): a.id for a in ttt.new_initial_state().legal_actions(0)}["b2"]
    with pytest.raises(IllegalActionError) as caught:
        state.apply_action(taken, player=1)
    message = str(caught.value)
    assert str(taken) in message
    for action in state.legal_actions(1):
        assert f"{action.id} ({action})" in message
    assert state.to_json() == before
    with pytest.raises(ValueError):
        state.apply_action(12345, player=1)
    assert state.to_json() == before


def test_wrong_player(ttt):
    state = ttt.new_initial_state()
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="turn"):
        state.apply_action(state.legal_actions(0)[0].id, player=1)
    assert state.to_json() == before


@pytest.mark.parametrize("action", ["a1", 1.0, None, True, [0]])
def test_bad_action_types(ttt, action):
    state = ttt.new_initial_state()
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_action(action, player=0)
    assert state.to_json() == before


def test_numpy_integers_are_ids_and_players(ttt):
    numpy = pytest.importorskip("numpy")
    by_numpy, by_int = ttt.new_initial_state(), ttt.new_initial_state()
    for _ in range(5):   # ids as an argmax gives them, players as numpy and plain ints in turn
        player = by_int.current_players()[0]
        chosen = by_int.legal_action_ids()[-1]
        by_numpy.apply_action(numpy.int64(chosen), player=numpy.int32(player))
        by_int.apply_action(chosen, player=player)
        assert by_numpy.to_json() == by_int.to_json()
        assert by_numpy.observation(numpy.uint8(player)) == by_int.observation(player)
        assert by_numpy.observation_tensor(numpy.int64(player)) == by_int.observation_tensor(player)


@pytest.mark.parametrize("how", ["bool", "float", "array"])
def test_numpy_values_that_are_not_integers_are_refused(ttt, how):
    numpy = pytest.importorskip("numpy")
    state = ttt.new_initial_state()
    before = state.to_json()
    action = {"bool": numpy.True_, "float": numpy.float64(0.0), "array": numpy.array([0, 1])}[how]
    with pytest.raises(IllegalActionError, match="integer id"):
        state.apply_action(action, player=0)
    with pytest.raises(IllegalActionError, match="no player"):
        state.observation(action)
    assert state.to_json() == before


@pytest.mark.parametrize("player", [99, -2, 2, "0", 0.0, True])
def test_bad_players(ttt, player):
    state = ttt.new_initial_state()
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_action(0, player=player)
    with pytest.raises(IllegalActionError):
        state.observation(player)
    assert state.to_json() == before


def test_apply_after_terminal(ttt):
    state = play(ttt.new_initial_state(), "a1", "a2", "b1", "b2", "c1")
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(3, player=1)
    assert state.to_json() == before


def test_bad_seed(ttt):
    with pytest.raises(IllegalActionError):
        ttt.new_initial_state(seed="7")


def test_chance_outcomes_outside_a_chance_node(ttt):
    with pytest.raises(IllegalActionError):
        ttt.new_initial_state().chance_outcomes()


# ---- observation, clone, JSON ----

def test_observation_is_json(ttt):
    state = play(ttt.new_initial_state(), "b2")
    obs = state.observation(1)
    assert json.loads(json.dumps(obs)) == obs
    assert obs["player"] == 1 and obs["to_act"] == [1]
    assert [label for _, label in obs["legal_actions"]] == [str(a) for a in state.legal_actions(1)]
    assert "legal_actions" not in state.observation(0)


def test_clone_is_independent(ttt):
    state = play(ttt.new_initial_state(), "b2")
    before = state.to_json()
    other = state.clone()
    play(other, "a1", "c3")
    assert state.to_json() == before
    assert len(other.history()) == 3 and len(state.history()) == 1


def test_state_fields_are_declared(ttt):
    state = ttt.new_initial_state(events=True)   # events recorded: the log is a field to copy too
    with pytest.raises(AttributeError):
        state.something_else = 1        # nothing is attached to a state from outside
    other = play(state.clone(), "b2")
    for field in rulelang.State.__slots__:
        assert getattr(state, field) is not getattr(other, field) or field in (
            "game", "seed", "explicit_chance", "rng", "pending", "terminal", "chance_taken", "origin", "origin_at",
            "rounds", "log_built", "private_built", "max_steps"), \
            f"clone() shares the state's '{field}'"


def test_returned_data_is_a_copy(ttt):
    state = play(ttt.new_initial_state(), "b2")
    before = state.to_json()
    data = state.to_json()
    data["space_vars"]["mark"][0] = {"player": 1}
    data["history"].append([1, 0])
    data["frames"][0]["env"].clear()
    obs = state.observation(1)
    obs["spaces"]["mark"][0] = {"player": 1}
    obs["legal_actions"].clear()
    assert state.to_json() == before
    assert len(state.legal_actions(1)) == 8


def test_state_from_json_round_trip(ttt):
    state = play(ttt.new_initial_state(seed=5), "b2", "a1")
    data = json.loads(json.dumps(state.to_json()))
    loaded = ttt.state_from_json(data)
    assert loaded.to_json() == state.to_json()
    assert loaded.history() == state.history()
    play(loaded, "c3")
    play(state, "c3")
    assert loaded.to_json() == state.to_json()


def test_state_from_json_with_edited_data(ttt):
    state = ttt.new_initial_state()
    data = state.to_json()
    # put the first player's mark on b2 (space index 4) and the second's on a1 by editing the data
    data["space_vars"]["mark"][4] = {"player": 0}
    data["space_vars"]["mark"][0] = {"player": 1}
    edited = ttt.state_from_json(data)
    labels = [str(a) for a in edited.legal_actions(0)]
    assert "b2" not in labels and "a1" not in labels and len(labels) == 7
    # the edit counts: first player completes the middle row a2-b2-c2
    play(edited, "a2", "a3", "c2")
    assert edited.is_terminal() and edited.winners() == [0]


def test_state_from_json_does_not_keep_the_callers_dict(ttt):
    """A failed action restores from the loaded data: editing the dict afterwards must not matter."""
    game = rulelang.load(rules(DIVIDE))
    state = game.new_initial_state()
    data = state.to_json()
    loaded = game.state_from_json(data)
    data["globals"]["total"] = 999
    before = loaded.to_json()
    with pytest.raises(RulesRuntimeError):
        loaded.apply_action(_labelled(loaded, "0"))
    assert loaded.to_json() == before


def _corruptions():
    """name -> function(data) returning the corrupted data (editing it in place or not)."""
    def edit(change):
        def run(d):
            change(d)
            return d
        return run

    def drop(key):
        return edit(lambda d: d.pop(key))

    def setting(key, value):
        return edit(lambda d: d.__setitem__(key, value))

    def frame(key, value):
        return edit(lambda d: d["frames"][0].__setitem__(key, value))

    return {
        "not a dict": lambda d: [1, 2],
        "a string": lambda d: "state",
        "none": lambda d: None,
        "no frames": drop("frames"),
        "no zones": drop("zones"),
        "wrong format": setting("format", 99),
        "wrong player count": setting("players", 3),
        "unknown procedure": frame("procedure", "nope"),
        "pc not a number": frame("pc", "x"),
        "pc past the end": frame("pc", 9999),
        "negative pc": frame("pc", -1),
        "unknown player": edit(lambda d: d["frames"][0]["env"].__setitem__("p", {"player": 99})),
        "chooser not a player": edit(lambda d: d["frames"][0]["env"].__setitem__("p", 5)),
        "unknown value tag": edit(lambda d: d["space_vars"]["mark"].__setitem__(0, {"what": 1})),
        "too few spaces": edit(lambda d: d["space_vars"]["mark"].pop()),
        "too few players": edit(lambda d: d["player_vars"]["won"].pop()),
        "unknown variable": edit(lambda d: d["globals"].__setitem__("nope", 1)),
        "rng not a number": setting("rng", "abc"),
        "rng negative": setting("rng", -5),
        "rng a float": setting("rng", 1.5),
        "seed a string": setting("seed", "abc"),
        "terminal a string": setting("terminal", "no"),
        "history not pairs": setting("history", "abc"),
        "frames empty": setting("frames", []),
        "frames a dict": setting("frames", {}),
        "log not a list": setting("log", 5),
    }


@pytest.mark.parametrize("name", sorted(_corruptions()))
def test_malformed_state_data_is_a_clean_error(ttt, name):
    state = play(ttt.new_initial_state(seed=1), "b2")
    data = _corruptions()[name](copy.deepcopy(state.to_json()))
    with pytest.raises(StateDataError) as caught:
        ttt.state_from_json(data)
    assert caught.value.diagnostic.code == "E606"
    assert isinstance(caught.value, ValueError)


# ---- loading ----

def test_bad_player_count():
    for players in (1, 3, 0, -1, "2", 2.0):
        with pytest.raises(RulesetError) as caught:
            rulelang.load(TTT, players=players)
        assert [d.code for d in caught.value.diagnostics] == ["E601"]


def test_default_player_count_is_the_lowest():
    game = rulelang.load(rules('game "G" { players 2..4 }  phase p { end game }'))
    assert game.num_players == 2
    assert rulelang.load(rules('game "G" { players 2..4 }  phase p { end game }'), players=4).num_players == 4


def test_load_text_and_path_give_the_same_game():
    text = (GAMES_DIR / "tic_tac_toe.rules").read_text()
    from_text = rulelang.load(text, players=2).new_initial_state(seed=3)
    from_path = rulelang.load(TTT, players=2).new_initial_state(seed=3)
    play(from_text, "a1", "b1")
    play(from_path, "a1", "b1")
    assert from_text.to_json() == from_path.to_json()


def test_load_pathlib_path():
    game = rulelang.load(GAMES_DIR / "tic_tac_toe.rules", players=2)
    assert game.num_players == 2


def test_missing_file():
    with pytest.raises(RulesetError) as caught:
        rulelang.load("no_such_file.rules")
    assert caught.value.diagnostics[0].code == "E001"


def test_data_diagnostics_report_every_data_problem_without_lowering(tmp_path):
    from rulelang.check.settings import read_settings
    from rulelang.interpreter.compiler.driver import data_diagnostics
    from rulelang.loader import read_ruleset

    text = rules("""
        game "D" { players 2..4 }
        component card { rank: int }
        zone pile: card
        deck short: card in pile size 10 = [card(rank: r) for r in 1..13]
        deck chips: card in pile = [1, 2]
        phase p { x = 1 }
    """)
    declarations, base_dir, shown = read_ruleset(text, str(tmp_path / "d.rules"))
    settings, _ = read_settings(declarations, shown)
    found = data_diagnostics(declarations, settings, base_dir)
    # both decks are reported, in source order; the procedure is not lowered (no E203 for x)
    assert [(d.code, d.span.line) for d in found] == [("E402", 4), ("E402", 5)]
    with pytest.raises(RulesetError) as caught:     # a Game reports them as one RulesetError
        rulelang.interpreter.Game(declarations, 2, base_dir, settings)
    assert [d.code for d in caught.value.diagnostics] == ["E402", "E402"]


# ---- runtime errors ----

RUNAWAY = """
game "Runaway" { players 1  max_steps 500 }
phase p { repeat { } }
"""


def test_runaway_ruleset_is_stopped():
    game = rulelang.load(rules(RUNAWAY))
    with pytest.raises(RulesRuntimeError) as caught:
        game.new_initial_state()
    assert caught.value.diagnostic.code == "E603"
    assert caught.value.diagnostic.span is not None


RUNAWAY_LATER = """
game "Runaway later" { players 1  max_steps 500 }
phase p {
  choose n in [1, 2] by players[0]
  if n == 2 { repeat { } }
}
"""


def test_runaway_after_an_action_leaves_the_state_unchanged():
    game = rulelang.load(rules(RUNAWAY_LATER))
    state = game.new_initial_state()
    before = state.to_json()
    with pytest.raises(RulesRuntimeError) as caught:
        state.apply_action(_labelled(state, "2"))
    assert caught.value.diagnostic.code == "E603"
    assert state.to_json() == before
    state.apply_action(_labelled(state, "1"))
    assert state.is_terminal()


DIVIDE = """
game "Divide" { players 1 }
die d6 = [1, 2, 3, 4, 5, 6]
var total: int = 60
var rolled: int = 0
phase p {
  repeat {
    let r = roll d6
    rolled += r
    choose n in [0, 1, 2] by players[0]
    total = total / n
    if total == 0 { end game }
  }
}
"""


def _labelled(state, label):
    (player,) = state.current_players()
    return next(a for a in state.legal_actions(player) if str(a) == label)


def test_runtime_error_in_apply_action_leaves_the_state_unchanged():
    game = rulelang.load(rules(DIVIDE))
    state = game.new_initial_state(seed=11)
    state.apply_action(_labelled(state, "2"))
    before = state.to_json()
    with pytest.raises(RulesRuntimeError) as caught:
        state.apply_action(_labelled(state, "0"))
    diagnostic = caught.value.diagnostic
    assert diagnostic.code == "E602"
    assert "zero" in diagnostic.message
    assert diagnostic.span is not None and diagnostic.span.line == 10
    assert state.to_json() == before
    # and the game goes on from there as if the failed action had never been tried
    state.apply_action(_labelled(state, "2"))
    fresh = game.new_initial_state(seed=11)
    fresh.apply_action(_labelled(fresh, "2"))
    fresh.apply_action(_labelled(fresh, "2"))
    assert state.to_json() == fresh.to_json()


def test_runtime_error_after_a_json_load_leaves_the_state_unchanged():
    game = rulelang.load(rules(DIVIDE))
    state = game.new_initial_state(seed=4)
    state.apply_action(_labelled(state, "1"))
    loaded = game.state_from_json(json.loads(json.dumps(state.to_json())))
    loaded.apply_action(_labelled(loaded, "2"))
    before = loaded.to_json()
    with pytest.raises(RulesRuntimeError):
        loaded.apply_action(_labelled(loaded, "0"))
    assert loaded.to_json() == before
    # once restored, it still restores correctly on a second failure
    loaded.apply_action(_labelled(loaded, "1"))
    before = loaded.to_json()
    with pytest.raises(RulesRuntimeError):
        loaded.apply_action(_labelled(loaded, "0"))
    assert loaded.to_json() == before
    state.apply_action(_labelled(state, "2"))
    state.apply_action(_labelled(state, "1"))
    assert loaded.to_json() == state.to_json()


def test_runtime_error_in_a_clone_leaves_the_clone_unchanged():
    game = rulelang.load(rules(DIVIDE))
    state = game.new_initial_state(seed=4)
    state.apply_action(_labelled(state, "1"))
    other = state.clone()
    other.apply_action(_labelled(other, "2"))
    before = other.to_json()
    with pytest.raises(RulesRuntimeError):
        other.apply_action(_labelled(other, "0"))
    assert other.to_json() == before


# ---- the error family ----

ERROR_CLASSES = ["RulesetError", "IllegalActionError", "RulesRuntimeError", "StateDataError", "InternalError"]


@pytest.mark.parametrize("name", ERROR_CLASSES)
def test_every_error_class_is_a_rulelang_error(name):
    cls = getattr(rulelang, name)
    assert issubclass(cls, rulelang.RulelangError)


def test_only_host_and_data_errors_are_value_errors():
    assert issubclass(rulelang.IllegalActionError, ValueError)
    assert issubclass(rulelang.StateDataError, ValueError)
    for cls in (rulelang.RulesetError, rulelang.RulesRuntimeError, rulelang.InternalError):
        assert not issubclass(cls, ValueError)


def test_malformed_state_data_is_a_state_data_error_not_an_illegal_action(ttt):
    data = ttt.new_initial_state(seed=1).to_json()
    data["player_vars"]["won"] = [False]
    with pytest.raises(ValueError) as caught:        # what a host that knows no more catches
        ttt.state_from_json(data)
    assert isinstance(caught.value, rulelang.StateDataError)
    assert not isinstance(caught.value, IllegalActionError)
    assert caught.value.diagnostic.code == "E606"


GAIN = """
game "Gain" { players 1 }
supply coins total 10
player var took: int = 0
phase p {
  choose n in [1, 2] by players[0]
  gain n coins to players[0]
  players[0].took += n
}
"""


def _failing_transfer(*args):
    raise ZeroDivisionError("a bug in the engine")


def test_an_engine_failure_is_an_internal_error_not_the_rules_fault(monkeypatch):
    transfers_called(monkeypatch)   # (the engine's method that fails)
    state = rulelang.load(rules(GAIN)).new_initial_state()
    before = state.to_json()
    monkeypatch.setattr(rulelang.State, "transfer", _failing_transfer)
    with pytest.raises(rulelang.InternalError) as caught:
        state.apply_action(_labelled(state, "2"))
    diagnostic = caught.value.diagnostic
    assert diagnostic.code == "E900"
    assert "ZeroDivisionError" in diagnostic.message and "a bug in the engine" in diagnostic.message
    assert diagnostic.span is not None and diagnostic.span.line == 6   # the rule that was running
    assert isinstance(caught.value.__cause__, ZeroDivisionError)        # the bug, for its report
    assert not isinstance(caught.value, (RulesRuntimeError, ValueError))
    assert state.to_json() == before                                    # rolled back all the same
    monkeypatch.undo()
    state.apply_action(_labelled(state, "2"))
    assert state.to_json()["supplies"]["coins"] == [8, 2]


def test_an_engine_failure_while_starting_is_an_internal_error(monkeypatch):
    transfers_called(monkeypatch)   # (the engine's method that fails)
    game = rulelang.load(rules(GAIN.replace("choose n in [1, 2] by players[0]", "let n = 1")))
    monkeypatch.setattr(rulelang.State, "transfer", _failing_transfer)
    with pytest.raises(rulelang.InternalError) as caught:
        game.new_initial_state()
    assert caught.value.diagnostic.code == "E900"


def test_an_error_of_the_rules_is_not_chained_to_python_errors():
    game = rulelang.load(rules(DIVIDE))
    state = game.new_initial_state(seed=11)
    with pytest.raises(RulesRuntimeError) as caught:
        state.apply_action(_labelled(state, "0"))
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_an_unknown_enum_value_deep_in_saved_data_is_a_state_data_error():
    game = rulelang.load(rules("""
        game "E" { players 1 }
        enum suit { a, b }
        var xs: list[suit] = [suit.a]
        phase p { choose x in [1, 2] by players[0] }
    """))
    data = game.new_initial_state().to_json()
    data["globals"]["xs"] = [{"enum": "suit", "value": "zz"}]
    with pytest.raises(StateDataError, match="no value 'zz'"):
        game.state_from_json(data)


# ---------------------------------------------------------------- what a decision asks

KINDS = {"choice", "number range", "menu", "simultaneous", "chance"}


@pytest.mark.parametrize("path", sorted(GAMES_DIR.glob("*.rules")), ids=lambda p: p.stem)
def test_every_decision_says_what_it_asks(path):
    import random

    game = rulelang.load(path)
    state = game.new_initial_state(seed=5, explicit_chance=True)
    rng = random.Random(5)
    seen = set()
    while not state.is_terminal():
        for player in state.current_players():
            context = state.decision(player)
            assert context is not None and context.kind in KINDS and context.prompt.strip()
            assert context.span is not None   # a statement of the ruleset or of its base
            assert 1 <= context.span.line <= len(Path(context.span.file).read_text(encoding="utf-8").splitlines())
            if player == rulelang.CHANCE:
                assert [a.id for a in context.actions] == [a.id for a, _ in state.chance_outcomes()]
            else:
                assert [(a.id, a.label) for a in context.actions] == \
                    [(a.id, a.label) for a in state.legal_actions(player)]
                assert state.observation(player)["asks"] == context.kind
            seen.add(context.kind)
        player = state.current_players()[0]
        state.apply_action(rng.choice(state.decision(player).actions), player=player)
    assert "chance" in seen or path.stem == "tic_tac_toe"


def test_a_range_of_numbers_is_a_number_range_and_a_player_not_asked_gets_none():
    state = rulelang.load(rules('''
        game "N" { players 2 }
        var bid: int = 0
        phase p {
          choose n in 0..3 by players[0] prompt "{bid}: your bid"
          bid = n
          end game
        }
    ''')).new_initial_state()
    context = state.decision()
    assert (context.kind, context.prompt, context.player, context.span.line) == ("number range", "0: your bid", 0, 4)
    assert [a.label for a in context.actions] == ["0", "1", "2", "3"]
    assert context.to_json()["at"] == "4:3"
    assert state.decision(1) is None and state.decision(rulelang.CHANCE) is None


def test_returns_and_winners_are_per_player_and_observations_list_every_seat():
    state = rulelang.load(rules('''
        game "D" { players 2  dummies 1 }
        player var points: int = 0
        phase p {
          seats[2].points = 9
          players[1].points = 4
          end game
        }
        score p = p.points
    ''')).new_initial_state()
    assert state.returns() == [0.0, 4.0] and state.winners() == [1]
    assert len(state.observation(0)["players"]) == 3


# ---------------------------------------------------------------- chance outcomes: one per effect

@pytest.mark.parametrize("path,players", game_cases())
def test_merged_chance_outcomes_sum_to_one_with_unique_labels(path, players):
    import random

    game = rulelang.load(path, players=players)
    for seed in (1, 2):
        state = game.new_initial_state(seed=seed, explicit_chance=True)
        chooser = random.Random(seed)
        while not state.is_terminal():
            player = state.current_players()[0]
            if player == rulelang.CHANCE:
                outcomes = state.chance_outcomes()
                assert len(outcomes) > 1                     # a single outcome is no chance node
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                labels = [a.label for a, _ in outcomes]
                assert len(set(labels)) == len(labels), f"repeated labels: {labels}"
                assert len({a.id for a, _ in outcomes}) == len(outcomes)
                actions, weights = zip(*outcomes, strict=True)
                state.apply_action(chooser.choices(actions, weights)[0])
            else:
                state.apply_action(chooser.choice(state.legal_action_ids(player)), player=player)


def _setup_branching(game, seed):
    state = game.new_initial_state(seed=seed, explicit_chance=True)
    counts = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        counts.append(len(outcomes))
        state.apply_action(outcomes[0][0])
    return counts, state


def test_jolly_roger_setup_branching_shrinks():
    import math

    game = rulelang.load(GAMES_DIR / "jolly_roger.rules", players=4)
    counts, state = _setup_branching(game, seed=0)
    # Before merging: the line (4 players), the 10 chests and the 20 tokens, each shuffled as
    # n - 1 picks among n, n - 1, ..., 2 distinct components: 4! * 10! * 20! in all.
    unmerged = math.factorial(4) * math.factorial(10) * math.factorial(20)
    assert counts[:3] == [4, 3, 2]                       # players are all different
    assert counts[3] == 5                                # chests of 3, 4, 5, 6 or 7
    assert max(counts[12:]) == 2                         # a coin or a trinket
    assert math.prod(counts) < unmerged / 10**12
    assert state.current_players() == [0]                # the first decision, after the setup


def test_interchangeable_components_are_one_outcome_and_the_first_copy_is_picked():
    game = rulelang.load(rules('''
        game "Copies" { players 1 }
        component chip { colour: string } shown as "{colour}"
        deck chips: chip in bag = [chip(colour: "red")] * 3 + [chip(colour: "blue")]
        zone bag: chip visible none
        zone out: chip visible all
        component var marked: bool = false
        phase p {
          let c = random bag
          move c to out
          end game
        }
    '''))
    state = game.new_initial_state(explicit_chance=True)
    outcomes = [(a.label, a.id, p) for a, p in state.chance_outcomes()]
    assert outcomes == [("red", 0, 0.75), ("blue", 3, 0.25)]      # the first red chip stands for all three
    state.apply_action(0)
    assert state.observation(0)["zones"]["out"][0]["component"] == 0
    assert state.history() == [(rulelang.CHANCE, 0)]


def test_copies_that_differ_now_are_different_outcomes():
    game = rulelang.load(rules('''
        game "Marked" { players 1 }
        component chip { colour: string } shown as "{colour}"
        deck chips: chip in bag = [chip(colour: "red")] * 4
        zone bag: chip visible none
        zone side: chip visible none
        supply stars total 5
        component var marked: bool = false
        phase p {
          let all_chips = [c for c in bag]
          all_chips[1].marked = true
          move all_chips[2] to side
          pay 0 stars from players[0]
          gain 1 stars to players[0]
          pay 1 stars from players[0] to all_chips[3]
          let c = random all_chips
          shuffle bag
          end game
        }
    '''))
    state = game.new_initial_state(explicit_chance=True)
    # One plain red chip, one marked, one in another zone, one holding a star: four outcomes.
    assert [a.id for a, _ in state.chance_outcomes()] == [0, 1, 2, 3]
    state.apply_action(0)
    # The shuffle of the bag: chips 0, 1 and 3 differ (a mark, a star), so the first pick has 3 outcomes.
    assert len(state.chance_outcomes()) == 3


def test_true_is_not_the_number_one_among_outcomes_and_shuffles_move_the_picked_item():
    game = rulelang.load(rules('''
        game "Mixed" { players 1 }
        var order: list[int] = [1, 1, 2]
        phase p {
          let x = random [1, true, 1]
          shuffle order
          end game
        }
    '''))
    state = game.new_initial_state(explicit_chance=True)
    assert [(a.label, round(p, 3)) for a, p in state.chance_outcomes()] == [("1", 0.667), ("true", 0.333)]
    state.apply_action(state.chance_outcomes()[1][0])
    assert [(a.label, round(p, 3)) for a, p in state.chance_outcomes()] == [("1", 0.667), ("2", 0.333)]


def test_merged_outcomes_replay_to_the_same_state():
    import random

    game = rulelang.load(GAMES_DIR / "jolly_roger.rules", players=3)
    state = game.new_initial_state(seed=3, explicit_chance=True)
    chooser = random.Random(3)
    for _ in range(80):
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_action_ids(player)), player=player)
    replayed = game.new_initial_state(seed=3, explicit_chance=True)
    for player, action_id in state.history():
        replayed.apply_action(action_id, player=player)
    assert replayed.to_json() == state.to_json()


CHANCE_THEN_SEAT = """
game "C" { players 2 }
die dd = [1, 2, 3]
var n: int = 0
phase p {
  repeat {
    let r = roll dd
    choose x in [1, 2, 3] by players[1]
    n += x + r
    if n > 20 { end game }
  }
}
"""


def test_chances_actions_are_kept_apart_from_the_last_seats() -> None:
    """A roll's outcomes and the last seat's choice of the same numbers have the same ids; the
    actions made for chance (player -1) are never given to that seat, nor the seat's to chance."""
    game = rulelang.load(CHANCE_THEN_SEAT)
    state = game.new_initial_state(seed=1, explicit_chance=True)
    while not state.is_terminal():
        player = state.current_players()[0]
        actions = state.legal_actions(player)
        assert {action.player for action in actions} == {player}, (player, actions)
        state.apply_action(actions[0])
    assert state.is_terminal()
