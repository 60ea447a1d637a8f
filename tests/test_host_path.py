"""The host's fixed path of a decision: each shortcut gives what the general path gives.

A choice over a zone takes the zone's components as they are (a zone holds each once: no
search for copies); the count of decisions and of the actions since the origin are read from
the history; ``apply_action`` resumes and runs on in place.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang import IllegalActionError, RulesRuntimeError
from rulelang.interpreter.compiler import choices
from rulelang.interpreter.model.program import Decision, made_decision, run_one

HANDS = """
game "Hands" { players 2 }
zone pile: card visible count
player zone hand: card visible owner
zone discard: card visible all
component card { n: int } shown as "#{n}"
deck cards: card in pile = [card(n: k) for k in 1..9]
setup {
  shuffle pile
  for p in players { move top(pile, 3) to p.hand }
}
phase play {
  repeat {
    for p in players {
      choose c in SOURCE by p otherwise { end game }
      move c to discard
      if size(pile) > 0 {
        move top(pile) to p.hand
      }
    }
  }
}
"""


def play_out(game: rulelang.Game, seed: int) -> list[tuple[list[tuple[int, str]], bool, dict[str, object]]]:
    """Each decision of a random game: the legal actions, whether the decision is kept, the state."""
    chooser = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    seen = []
    while not state.is_terminal():
        player = state.current_players()[0]
        actions = state.legal_actions(player)
        seen.append(([(a.id, str(a)) for a in actions], state.pending.shared, state.to_json()))
        state.apply_action(chooser.choice(actions), player=player)
    seen.append(([], False, state.to_json()))
    return seen


def test_a_choice_over_a_zone_offers_what_a_list_of_its_components_offers(monkeypatch: pytest.MonkeyPatch) -> None:
    from_zone = rulelang.load(HANDS.replace("SOURCE", "p.hand"))
    from_list = rulelang.load(HANDS.replace("SOURCE", "[x for x in p.hand]"))
    searched = []
    unique = choices.unique
    monkeypatch.setattr(choices, "unique", lambda items: searched.append(items) or unique(items))
    for seed in range(6):
        zone_games = play_out(from_zone, seed)
        assert not searched   # a zone's components: no search for copies
        assert zone_games == play_out(from_list, seed)
        assert searched       # a list may hold copies: searched
        searched.clear()


def test_a_choice_over_an_empty_zone_goes_to_otherwise_or_fails_at_its_statement() -> None:
    game = rulelang.load(HANDS.replace("SOURCE", "discard"))
    state = game.new_initial_state(seed=1)
    assert state.is_terminal()   # nothing discarded yet: otherwise
    bare = rulelang.load(HANDS.replace("SOURCE", "discard").replace(" otherwise { end game }", ""))
    with pytest.raises(RulesRuntimeError) as caught:
        bare.new_initial_state(seed=1)
    assert caught.value.diagnostic.code == "E604"
    assert caught.value.diagnostic.span.line == 15   # the choice


def test_the_counts_of_decisions_and_of_actions_since_the_origin_follow_the_history() -> None:
    game = rulelang.load(HANDS.replace("SOURCE", "p.hand"))
    state = game.new_initial_state(seed=3)
    for count in range(1, 4):
        player = state.current_players()[0]
        state.apply_action(state.legal_actions(player)[0], player=player)
        assert state.decisions == count == state.since_origin
    loaded = game.state_from_json(state.to_json())
    assert loaded.decisions == 3 and loaded.since_origin == 0
    before = loaded.to_json()
    with pytest.raises(IllegalActionError):
        loaded.apply_action(10_000, player=loaded.current_players()[0])
    assert loaded.to_json() == before and loaded.since_origin == 0
    player = loaded.current_players()[0]
    loaded.apply_action(loaded.legal_actions(player)[0], player=player)
    assert loaded.decisions == 4 and loaded.since_origin == 1


SCORED = """
game "Scored" { players 3 }
player var pts: int = [4, 7, 7][player_number(me) - 1]
player var tb: int = [0, 1, 2][player_number(me) - 1]
phase main { end game }
score p = SCORE
tiebreak p = TIEBREAK
"""


def scored(score: str, tiebreak: str) -> rulelang.State:
    return rulelang.load(SCORED.replace("SCORE", score).replace("TIEBREAK", tiebreak), players=3).new_initial_state()


def test_scores_and_tiebreaks_are_computed_for_each_player_in_turn_and_fail_at_their_rule() -> None:
    state = scored("p.pts", "p.tb")
    assert state.returns() == [4.0, 7.0, 7.0] and state.winners() == [2]
    for score, tiebreak, line in (("12 / (p.tb - 1)", "p.tb", 6), ("p.pts", "12 / (p.tb - 1)", 7)):
        failing = scored(score, tiebreak)
        with pytest.raises(RulesRuntimeError) as caught:
            failing.winners()
        assert (caught.value.diagnostic.code, caught.value.diagnostic.span.line) == ("E602", line)


MENUS = """
game "Menus" { players 2  dummies 1 }
var draws: int = 0 visible all
phase main {
  for round in 1..3 {
    for p in players {
      choose by CHOOSER {
        option "draw" { draws += 1 }
        option "pass" { }
      }
    }
  }
  end game
}
"""


def run_one_by_one(game: rulelang.Game) -> rulelang.Game:
    """``game`` with its code run one operation a round of the run loop (no code in place)."""
    for code in game.program.code.values():
        code.ops.run = run_one
    return game


def test_a_menu_without_conditions_written_in_place_is_the_menu_run_as_its_operation() -> None:
    text = MENUS.replace("CHOOSER", "p")
    fast, slow = rulelang.load(text), run_one_by_one(rulelang.load(text))
    assert any("menu at line 7" in line for line in fast.generated_code().splitlines())
    for seed in range(4):
        assert play_out(fast, seed) == play_out(slow, seed)
    for chooser, message in (("3", "needs a player"), ("seats[2]", "dummy seat")):
        errors = []
        for game in (rulelang.load(MENUS.replace("CHOOSER", chooser)),
                     run_one_by_one(rulelang.load(MENUS.replace("CHOOSER", chooser)))):
            with pytest.raises(RulesRuntimeError) as caught:
                game.new_initial_state()
            errors.append(caught.value.diagnostic)
        assert errors[0] == errors[1] and message in errors[0].message and errors[0].span.line == 7


def test_a_menu_by_a_proven_player_finds_its_kept_decision_with_no_test_of_its_kind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def lines(text: str) -> set[str]:
        return {line.strip() for line in rulelang.load(text).generated_code().splitlines() if "[_p.index]" in line}
    assert all(line.endswith("[_p.index]") for line in lines(MENUS.replace("CHOOSER", "p")))
    assert all(line.endswith("[_p.index]") for line in lines(MENUS.replace("CHOOSER", "seats[2]")))   # (a dummy)
    assert all(line.endswith("else None") for line in lines(MENUS.replace("CHOOSER", "3")))
    fast = [play_out(rulelang.load(MENUS.replace("CHOOSER", "p")), seed) for seed in range(4)]
    monkeypatch.setattr(choices.ChoiceLowering, "proven_player", lambda self, node: False)   # (the general path)
    assert all(line.endswith("else None") for line in lines(MENUS.replace("CHOOSER", "p")))
    assert fast == [play_out(rulelang.load(MENUS.replace("CHOOSER", "p")), seed) for seed in range(4)]


def test_a_choice_goes_on_by_its_data_as_its_resume_would() -> None:
    game = rulelang.load(HANDS.replace("SOURCE", "[x for x in p.hand]"))
    state = game.new_initial_state(seed=2)
    for _ in range(5):
        decision = state.pending
        assert decision.binds == "c"
        by_resume = state.clone()
        by_resume.pending = made_decision(decision.kind, decision.players, decision.options, decision.ids,
                                          decision.resume, (), None, (), decision.prompt_of, decision.span,
                                          decision.asks)
        player = state.current_players()[0]
        action = state.legal_actions(player)[-1]
        state.apply_action(action, player=player)
        by_resume.apply_action(action, player=player)
        assert by_resume.to_json() == state.to_json() and by_resume.frames[0].pc == state.frames[0].pc


def test_an_action_of_another_decision_is_not_legal_and_leaves_the_state_as_it_was() -> None:
    state = rulelang.load(Path(__file__).resolve().parent.parent / "games" / "tic_tac_toe.rules").new_initial_state()
    first = state.legal_actions(0)[0]
    state.apply_action(first, player=0)
    before = state.to_json()
    with pytest.raises(IllegalActionError) as raised:   # (its id is not among the options now)
        state.apply_action(first, player=1)
    assert state.to_json() == before and raised.value.__suppress_context__


def test_a_new_decision_of_a_choice_or_a_menu_has_every_field_of_one_made_by_its_class() -> None:
    with_condition = MENUS.replace("CHOOSER", "p").replace('option "pass"', 'option "pass" when draws < 9')
    for text in (HANDS.replace("SOURCE", "[x for x in p.hand]"), with_condition):
        decision = rulelang.load(text).new_initial_state(seed=3).pending
        made = made_decision(decision.kind, decision.players, decision.options, decision.ids, decision.resume, (),
                             None, (), decision.prompt_of, decision.span, decision.asks, decision.binds,
                             decision.then, decision.goes)
        made.shared = decision.shared
        assert type(decision) is Decision
        assert {name: getattr(decision, name) for name in Decision.__slots__} == {
            name: getattr(made, name) for name in Decision.__slots__}
