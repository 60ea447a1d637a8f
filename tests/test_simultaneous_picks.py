"""A simultaneous choice, pick by pick (interpreter/compiler/choices.py): who is still to pick
and who has picked after each pick, in the group's order, with a player named twice in the
group picking once for both; the picks known together once the last is in."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from conftest import load_written

import rulelang

GROUP = '''\
    game "G" { players 3 }
    var got: list[int] = []
    phase p {
      simultaneous q in [players[1], players[0], players[1], players[2]] choose x in [1, 2, 3]
      got = [x[q] for q in players]
      end game
    }
'''


def test_each_pick_leaves_the_others_to_pick_in_the_groups_order(tmp_path: Path) -> None:
    state = load_written(tmp_path, GROUP, players=3).new_initial_state()
    seen = []
    for player, option in ((1, 2), (2, 0), (0, 1)):
        seen.append((state.current_players(), state.observation(player).get("already_chosen")))
        assert [str(a) for a in state.legal_actions(player)] == ["1", "2", "3"]
        state.apply_action(state.legal_actions(player)[option], player=player)
    assert seen == [([1, 0, 1, 2], []), ([0, 2], [1, 1]), ([0], [1, 1, 2])]
    assert state.is_terminal() and state.to_json()["globals"]["got"] == [2, 3, 1]


def test_a_state_saved_or_cloned_between_picks_goes_on_alike(tmp_path: Path) -> None:
    game = load_written(tmp_path, GROUP, players=3)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions(1)[2], player=1)
    copies = [state, state.clone(), game.state_from_json(state.to_json())]
    for copy in copies:   # (who picked: computed from the group and who is still to pick, in each)
        assert copy.current_players() == [0, 2] and copy.observation(0)["already_chosen"] == [1, 1]
        copy.apply_action(copy.legal_actions(2)[0], player=2)
        copy.apply_action(copy.legal_actions(0)[1], player=0)
    assert [c.to_json()["globals"]["got"] for c in copies] == [[2, 3, 1]] * 3


def test_a_pick_makes_the_next_decision_of_the_statement_with_the_options_already_computed(tmp_path: Path) -> None:
    state = load_written(tmp_path, GROUP, players=3).new_initial_state()
    first = state.pending
    asked = [(state.prompt(p), state.decision(p).span, state.decision(p).kind) for p in (0, 2)]
    state.apply_action(state.legal_actions(1)[0], player=1)
    after = state.pending
    assert type(after) is type(first) and after is not first and after.per_player is first.per_player
    assert type(after).__init__ is object.__init__   # (made by a call of its class: no Picks.__init__, picks_of)
    assert [(state.prompt(p), state.decision(p).span, state.decision(p).kind) for p in (0, 2)] == asked
    assert after.kind == "simultaneous" and after.players == (0, 2) and after.chosen == (1, 1)


OPTIONS = '''\
    game "G" { players 2 }
    player var n: int = 0
    var got: list[int] = []
    phase p {
      players[1].n = N
      simultaneous q in players choose x in [[1, 1, 2], [3, 3], []][q.n]
      got = [x[q] for q in players]
      end game
    }
'''


def two_players(tmp_path: Path, source: str) -> rulelang.Game:
    return load_written(tmp_path, source, players=2)


def failure_of(game: rulelang.Game) -> tuple[str, int, str]:
    """The code, line and message of the error that making ``game``'s first state raises."""
    with pytest.raises(rulelang.RulesRuntimeError) as caught:
        game.new_initial_state()
    diagnostic = caught.value.diagnostic
    return diagnostic.code, diagnostic.span.line, diagnostic.message


def test_the_options_of_each_player_and_their_errors_are_the_statements(tmp_path: Path) -> None:
    state = two_players(tmp_path, OPTIONS.replace("N", "1")).new_initial_state()
    assert [[str(a) for a in state.legal_actions(p)] for p in (0, 1)] == [["1", "2"], ["3"]]   # no copies
    for n, code, message in (("2", "E604", "player 2 has no option in this simultaneous choice"),
                             ("5", "E602", "index 5 is out of range for a list of 3")):
        found = failure_of(two_players(tmp_path, OPTIONS.replace("N", n)))
        assert found[:2] == (code, 6) and found[2].startswith(message)


SEATS = '''\
    game "G" { players 2  dummies 1 }
    var got: list[int] = []
    phase p {
      let group = [s for s in GROUP]
      simultaneous q in group choose x in [1, 2]
      got = [x[q] for q in group]
      end game
    }
'''


def test_a_dummy_seat_in_the_group_is_still_the_rules_error_where_a_game_has_one(tmp_path: Path) -> None:
    state = two_players(tmp_path, SEATS.replace("GROUP", "players")).new_initial_state()
    for player in (0, 1):
        state.apply_action(state.legal_actions(player)[1], player=player)
    assert state.is_terminal() and state.to_json()["globals"]["got"] == [2, 2]
    _, line, message = failure_of(two_players(tmp_path, SEATS.replace("GROUP", "seats")))
    assert line == 5 and "dummy seat and cannot choose" in message


IN_ORDER = '''\
    game "G" { players 3 }
    phase p {
      simultaneous q in [players[2], players[0], players[1]] choose x in [1, 2, 3]
      choose y in [1, 2] by players[0]
      end game
    }
'''


@pytest.mark.parametrize("order", [(2, 0, 1), (0, 1, 2), (1, 2, 0)])
def test_the_map_of_the_picks_keeps_the_groups_order_whatever_the_order_of_the_picks(tmp_path: Path,
                                                                                    order: tuple[int, ...]) -> None:
    """The last pick makes the map in the group's order: the picks' own map where they came in
    that order, a new one otherwise (the same saved locals either way)."""
    state = load_written(tmp_path, IN_ORDER, players=3).new_initial_state()
    for player in order:
        state.apply_action(state.legal_actions(player)[player], player=player)
    (frame,) = state.to_json()["frames"]
    picks = [[{"player": 2}, 3], [{"player": 0}, 1], [{"player": 1}, 2]]
    assert json.dumps(frame["env"]) == json.dumps({"x": {"map": picks}})


HANDS = '''\
game "H" { players 3  max_steps STEPS }
component card { rank: int } shown as "{rank}"
zone pile: card visible all
player zone hand: card visible owner
player deck mine: card in hand size SIZE = [card(rank: r) for r in 1..SIZE]
phase p {
  for r in 1..2 {
    simultaneous q in players choose x in q.hand
    for q in players { move x[q] to pile }
  }
  end game
}
'''


def _hands_played(size: int, steps: int) -> tuple[object, ...]:
    """Each player's options at each pick (every player's last taken): the options, the state
    and its work at the end, or where the rules fail."""
    from rulelang.errors import RulesRuntimeError
    offered = []
    try:
        state = rulelang.load(HANDS.replace("SIZE", str(size)).replace("STEPS", str(steps))).new_initial_state()
        while not state.is_terminal():
            for player in state.current_players():
                offered.append([a.id for a in state.legal_actions(player)])
                state.apply_action(state.legal_actions(player)[-1], player=player)
    except RulesRuntimeError as error:
        return offered, str(error), error.diagnostic.span
    return offered, state.to_json(), state.work


def test_the_groups_own_zones_read_by_their_slots_give_the_options_of_the_zones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The options of a simultaneous choice in a player's own zone read from the state's list
    by the constant table of the family's slots (picks.options_function: no ZoneRef read): the
    same options, states, work and step-budget errors as the zone read, short and long hands."""
    from rulelang.interpreter.compiler import picks
    code = rulelang.load(HANDS.replace("SIZE", "3").replace("STEPS", "1000")).generated_code()
    assert "_z = st.zones[_k" in code and "_o.slot" not in code
    cases = [(size, steps) for size in (3, 70) for steps in (1, 2, 3, 4, 1000)]
    by_slot = [_hands_played(size, steps) for size, steps in cases]
    monkeypatch.setattr(picks, "players_zone_slot", lambda text, module: None)
    assert "_o.slot" in rulelang.load(HANDS.replace("SIZE", "3").replace("STEPS", "1000")).generated_code()
    assert by_slot == [_hands_played(size, steps) for size, steps in cases]
    assert len(by_slot[-1][0]) == 6 and len(by_slot[-1][0][0]) == 70 and by_slot[4][1]["zones"] is not None


def test_a_group_that_names_each_player_once_picks_without_the_test_for_a_player_named_twice(tmp_path: Path) -> None:
    once = GROUP.replace("[players[1], players[0], players[1], players[2]]", "[players[1], players[0], players[2]]")
    states = []
    for name, source in (("twice", GROUP), ("once", once)):
        path = tmp_path / f"{name}.rules"
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        states.append(rulelang.load(path, players=3).new_initial_state())
    twice, each_once = states
    assert type(twice.pending) is not type(each_once.pending)   # (the class of a group without a player twice)
    assert twice.current_players() == [1, 0, 1, 2] and each_once.current_players() == [1, 0, 2]
    classes: list[set[type]] = [set(), set()]
    for state, seen in zip(states, classes, strict=True):
        for player, option in ((1, 2), (2, 0), (0, 1)):
            seen.add(type(state.pending))
            state.apply_action(state.legal_actions(player)[option], player=player)
        assert state.to_json()["globals"]["got"] == [2, 3, 1]
    assert not classes[0] & classes[1]   # (a pick of a group without a player twice never makes the other's)


def test_a_pick_after_two_leaves_a_clone_made_between_them_with_its_own_picks(tmp_path: Path) -> None:
    """The map of the picks so far is copied at each pick (``dict.copy``, then the pick), never
    changed in place: a clone shares its frame's locals shallowly, so a pick of the state must
    not reach the clone's map (nor the clone's pick the state's)."""
    state = load_written(tmp_path, GROUP, players=3).new_initial_state()
    state.apply_action(state.legal_actions(1)[2], player=1)
    clone = state.clone()
    state.apply_action(state.legal_actions(2)[0], player=2)
    assert clone.current_players() == [0, 2] and clone.observation(0)["already_chosen"] == [1, 1]
    clone.apply_action(clone.legal_actions(0)[0], player=0)
    assert state.observation(2)["already_chosen"] == [1, 1, 2] and clone.current_players() == [2]
    for copy, player, option in ((state, 0, 1), (clone, 2, 2)):
        copy.apply_action(copy.legal_actions(player)[option], player=player)
    assert state.to_json()["globals"]["got"] == [2, 3, 1] and clone.to_json()["globals"]["got"] == [1, 3, 3]


def test_picks_in_the_groups_order_from_none_make_decisions_of_a_class_of_their_own(tmp_path: Path) -> None:
    """Picks that come in the group's order from no pick leave the map in that order: their
    decisions are of a class whose last pick takes the map as it is (no test of its order); a
    pick out of order, or a state loaded between picks, makes decisions of the class that tests.
    The map is in the group's order every way (``IN_ORDER``'s group is players 2, 0, 1)."""
    game = load_written(tmp_path, IN_ORDER, players=3)
    picks = [[{"player": 2}, 3], [{"player": 0}, 1], [{"player": 1}, 2]]
    classes = []
    for order, loaded in (((2, 0, 1), False), ((2, 1, 0), False), ((2, 0, 1), True)):
        state = game.new_initial_state()
        seen = []
        for player in order:
            if loaded:
                state = game.state_from_json(state.to_json())
            seen.append(type(state.pending))
            state.apply_action(state.legal_actions(player)[player], player=player)
        classes.append(seen)
        (frame,) = state.to_json()["frames"]
        assert json.dumps(frame["env"]) == json.dumps({"x": {"map": picks}})
    in_order, out_of_order, loaded_between = classes
    assert len(set(in_order)) == 1 and out_of_order[:2] == in_order[:2] and out_of_order[2] is not in_order[0]
    assert loaded_between[0] is in_order[0] and in_order[0] not in loaded_between[1:]


def test_only_a_pick_has_options_per_player_and_it_goes_on_by_its_resume() -> None:
    """``State.apply_action`` and ``legal_actions`` take a decision with options per player
    for a pick (picks.py) and read neither its ``binds``, ``goes`` nor ``shared``: every such
    decision of a game with simultaneous choices and choices of one player (Astérix) is a
    pick that says none of them, and the other decisions have no options per player."""
    from rulelang.interpreter.compiler.picks import Picks

    game = rulelang.load(Path(__file__).resolve().parent.parent / "games" / "asterix.rules", players=3)
    kinds = set()
    for seed in range(2):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            decision = state.pending
            assert (decision.per_player is not None) is isinstance(decision, Picks)
            if decision.per_player is not None:
                assert decision.binds is None and decision.goes is None and not decision.shared
            kinds.add(decision.kind)
            player = state.current_players()[-1]
            actions = state.legal_actions(player)
            state.apply_action(actions[(seed + len(state.action_history)) % len(actions)], player=player)
    assert kinds == {"simultaneous", "choose", "menu"}
