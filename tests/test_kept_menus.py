"""A menu without conditions keeps one decision per player (compiler/choices.py): each time
it is reached, by any state, that player gets the same decision and the same actions; a menu
with conditions is built again from the state."""
from __future__ import annotations

import pytest
from conftest import rules

import rulelang
from rulelang import RulesRuntimeError

MENU = """
game "M" { players 2 }
var draws: int = 0 visible all
phase main {
  for round in 1..3 {
    for p in players {
      choose by p prompt "{p}: round {round}" {
        option "draw" { draws += 1 }
        option "pass" { }
        option "double" when draws > 0 { draws += 2 }
      }
      choose by p {
        option "left" { draws += 10 }
        option "right" { }
      }
    }
  }
  end game
}
"""


def test_a_menu_without_conditions_gives_each_player_the_same_decision_again() -> None:
    state = rulelang.load(rules(MENU)).new_initial_state()
    first: dict[int, object] = {}
    for _ in range(12):
        player = state.current_players()[0]
        labels = [str(a) for a in state.legal_actions(player)]
        if labels == ["left", "right"]:
            assert first.setdefault(player, state.pending) is state.pending
            assert state.legal_actions(player) == state.legal_actions(player)
        state.apply_action(state.legal_actions(player)[0], player=player)
    assert sorted(first) == [0, 1] and first[0] is not first[1]
    assert state.is_terminal() and state.to_json()["globals"]["draws"] == 6 * (1 + 10)


def test_a_kept_menu_asks_its_player_and_its_prompt_reads_the_state_that_asks() -> None:
    state = rulelang.load(rules(MENU)).new_initial_state()
    state.apply_action(state.legal_actions(0)[1], player=0)  # "pass"
    assert state.current_players() == [0]
    assert state.decision(0).prompt == "choose one" and state.legal_actions(1) == []
    copy = state.clone()
    copy.apply_action(copy.legal_actions(0)[0], player=0)  # "left"
    state.apply_action(state.legal_actions(0)[1], player=0)  # "right": the copy is apart
    assert copy.to_json()["globals"]["draws"] == 10 and state.to_json()["globals"]["draws"] == 0
    assert state.decision(1).prompt == "player 2: round 1"
    assert [str(a) for a in state.legal_actions(1)] == ["draw", "pass"]


def test_a_kept_menu_by_a_value_that_is_no_player_is_an_error_at_its_statement() -> None:
    text = rules(MENU).replace("choose by p {", "choose by 3 {")
    with pytest.raises(RulesRuntimeError) as caught:
        state = rulelang.load(text).new_initial_state()
        state.apply_action(state.legal_actions(0)[0], player=0)
    diagnostic = caught.value.diagnostics[0]
    assert "needs a player" in diagnostic.message
    assert diagnostic.span.line == next(n for n, line in enumerate(text.splitlines(), 1) if "choose by 3" in line)


def _by_resume(decision):
    """The same decision going on by its ``resume`` call instead of its ``goes`` (as before)."""
    from rulelang.interpreter.model.program import made_decision
    return made_decision(decision.kind, decision.players, decision.options, decision.ids, decision.resume,
                         decision.probs, decision.per_player, decision.chosen, decision.prompt_of, decision.span,
                         decision.asks, decision.binds, decision.then)


@pytest.mark.parametrize("seed", range(4))
def test_a_menu_goes_on_at_its_option_as_data_where_resume_would_go(seed: int) -> None:
    import random
    chooser = random.Random(seed)
    state = rulelang.load(rules(MENU)).new_initial_state(seed=seed)
    menus = 0
    while not state.is_terminal():
        player = state.current_players()[0]
        action = chooser.choice(state.legal_actions(player))
        assert state.pending.goes is not None and len(state.pending.goes) == len(state.pending.options)
        other = state.clone()
        other.pending = _by_resume(state.pending)
        state.apply_action(action, player=player)
        other.apply_action(action, player=player)
        assert state.to_json() == other.to_json()
        assert [f.pc for f in state.frames] == [f.pc for f in other.frames]
        menus += 1
    assert menus == 12
