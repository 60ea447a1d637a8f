"""The usual call of the host API, taken in place, gives what the general path gives.

``State.apply_action`` applies an Action or an int id for a player to act at a choice or a
menu in place (state.py); a pick or a chance outcome goes on by ``applied.went_on``, and
every other call by ``applied.applied_checked`` (the action checked). ``legal_actions`` and ``apply_action`` take
a player identical to the decision's first one without testing its type, and
``current_players`` reads the decision without testing it first. Each test compares the
usual call with the general path: states, positions, errors, their spans and messages, at
every step budget a ruleset's failures meet.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from test_host_path import run_one_by_one

import rulelang
from rulelang import IllegalActionError, RulesRuntimeError
from rulelang.interpreter.state import applied
from rulelang.interpreter.state import state as state_module
from rulelang.interpreter.state.actions import Action

GAMES = Path(__file__).resolve().parent.parent / "games"

FAILS = """
game "Fails" { players 2 }
var total: int = 0 visible all
phase play {
  for r in 1..4 {
    for p in players {
      choose x in [1, 2, 3] by p
      total += [10, 20][x - 1]
      choose by p {
        option "on" { total += 1 }
        option "off" { total += [1][total % 3] }
      }
    }
    simultaneous q in players choose y in [1, 2]
    total += [5][y[players[0]] - 1]
  }
  end game
}
"""


class Seat(int):
    """An int that is not one: a player the usual call must not take in place."""


def _outcome(state: rulelang.State, apply: Callable[[], None]) -> tuple[object, ...]:
    """What applying does: the error (its kind, message and span) and the state after."""
    try:
        apply()
    except (IllegalActionError, RulesRuntimeError) as error:
        diagnostic = getattr(error, "diagnostic", None)
        where = None if diagnostic is None else (diagnostic.message, diagnostic.span)
        return type(error).__name__, str(error), where, state.to_json(), [(f.name, f.pc) for f in state.frames]
    return "applied", state.to_json(), [(f.name, f.pc) for f in state.frames], list(state.action_history), \
        state.decisions, state.since_origin


def _both(state: rulelang.State, action: object, player: object) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What ``apply_action(action, player=player)`` does to a copy of ``state`` (the usual
    call, where it is one), and what the checked path does to another (``applied_checked``);
    an Action given by its id too, which must do the same."""
    usual, checked = state.clone(), state.clone()
    outcome = _outcome(usual, lambda: usual.apply_action(action, player=player))   # type: ignore[arg-type]
    if type(action) is Action:
        by_id = state.clone()
        assert _outcome(by_id, lambda: by_id.apply_action(action.id, player=player)) == outcome   # type: ignore[arg-type]
    return outcome, _outcome(checked, lambda: applied.applied_checked(checked, action, player))   # type: ignore[arg-type]


def _each_decision(game: rulelang.Game, seeds: range, check: Callable[[rulelang.State, int], None]) -> int:
    """Random games of ``game``: ``check(state, player)`` at each decision, then a random
    action that the rules do not fail on (a game ends where every one fails); the decisions."""
    seen = 0
    for seed in seeds:
        chooser = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            player = state.current_players()[0]
            check(state, player)
            seen += 1
            actions = state.legal_actions(player)
            chooser.shuffle(actions)
            for action in actions:
                after = state.clone()
                try:
                    after.apply_action(action, player=player)
                except RulesRuntimeError:
                    continue
                state = after
                break
            else:
                break
    return seen


@pytest.mark.parametrize("path", ["jolly_roger.rules", "asterix.rules", "tic_tac_toe.rules", "kuhn_poker.rules"])
def test_an_action_applied_by_the_usual_call_is_applied_as_the_checked_path_applies_its_id(path: str) -> None:
    game = rulelang.load(GAMES / path)

    def check(state: rulelang.State, player: int) -> None:
        for action in state.legal_actions(player)[:3]:
            usual, checked = _both(state, action, player)
            assert usual == checked
    assert _each_decision(game, range(10 if path == "kuhn_poker.rules" else 2), check) > 10


def test_the_usual_call_at_a_choice_or_a_menu_checks_nothing_and_calls_nothing_more(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    for name in ("applied_checked", "went_on"):
        original = getattr(state_module, name)
        monkeypatch.setattr(state_module, name, lambda *args, name=name, original=original: (
            calls.append(name), original(*args))[1])
    checked = state_module.State._checked
    monkeypatch.setattr(state_module.State, "_checked", lambda *args: (calls.append("_checked"), checked(*args))[1])
    game = rulelang.load(GAMES / "jolly_roger.rules", players=4)
    state = game.new_initial_state(seed=1)
    kinds = set()
    for _ in range(30):
        player = state.current_players()[0]
        kinds.add(state.pending.kind)
        state.apply_action(state.legal_actions(player)[-1], player=player)
        kinds.add(state.pending.kind)
        player = state.current_players()[0]
        state.apply_action(state.legal_actions(player)[0].id, player=player)   # (an id: the usual call too)
    assert kinds == {"choose", "menu"} and calls == []
    state.apply_action(state.legal_actions(state.current_players()[0])[0].id)   # (no player: the general path)
    assert calls == ["applied_checked", "_checked"]


def _compared(seen: list[tuple[object, ...]]) -> Callable[[rulelang.State, int], None]:
    """A check of each action at a decision: the usual call and the checked path do the same
    (a failure leaves the state as it was), their outcomes added to ``seen``."""
    def check(state: rulelang.State, player: int) -> None:
        before = state.to_json()
        for action in state.legal_actions(player):
            outcome, checked = _both(state, action, player)
            assert outcome == checked
            if outcome[0] != "applied":   # (put back as it was)
                assert outcome[3] == before
            seen.append(outcome[:3])
    return check


def test_errors_of_the_rules_after_the_usual_call_are_those_of_the_checked_path_at_every_budget() -> None:
    for budget in (*range(1, 40), 10_000):
        game = rulelang.load(FAILS)
        game.max_steps = budget
        seen: list[tuple[object, ...]] = []
        picks = [0]

        def counted(state: rulelang.State, player: int, picks: list[int] = picks,
                    seen: list[tuple[object, ...]] = seen) -> None:
            picks[0] += state.pending.kind == "simultaneous"
            _compared(seen)(state, player)
        try:
            _each_decision(game, range(3), counted)
        except RulesRuntimeError:   # (the budget runs out before the first decision)
            continue
        if budget == 10_000:
            assert any(o[0] == "RulesRuntimeError" for o in seen) and any(o[0] == "applied" for o in seen)
            assert picks[0] > 0   # (a simultaneous choice's picks among them)


def test_an_illegal_action_by_the_usual_call_is_refused_as_the_checked_path_refuses_it() -> None:
    for path in ("tic_tac_toe.rules", "jolly_roger.rules"):
        state = rulelang.load(GAMES / path).new_initial_state(seed=0)
        player = state.current_players()[0]
        first = state.legal_actions(player)[0]
        state.apply_action(first, player=player)
        while first.id in [a.id for a in state.legal_actions(state.current_players()[0])]:
            state.apply_action(state.legal_actions(state.current_players()[0])[0], player=state.current_players()[0])
        usual, checked = _both(state, first, state.current_players()[0])
        assert usual == checked and usual[0] == "IllegalActionError" and usual[3] == state.to_json()


@pytest.mark.parametrize("path", ["tic_tac_toe.rules", "jolly_roger.rules"])
@pytest.mark.parametrize("odd", [True, False, 0.0, 1.0, Seat(0), Seat(1), None, -1, 2, "0"])
def test_a_player_not_identical_to_one_to_act_goes_by_the_general_path(odd: object, path: str) -> None:
    state = rulelang.load(GAMES / path).new_initial_state(seed=0)
    if path == "jolly_roger.rules":   # (past the setup's choices: a hand)
        state.apply_action(state.legal_actions(state.current_players()[0])[0], player=state.current_players()[0])
    action = state.legal_actions(state.current_players()[0])[0]
    for odd_action in (odd, Seat(action.id), float(action.id), str(action.id), action.id + 10_000):
        usual, checked = _both(state, odd_action, state.current_players()[0])
        assert usual == checked
    assert _legal(lambda: state.legal_actions(odd)) == _legal(   # type: ignore[arg-type]
        lambda: _general_actions(state, odd))   # (as before the usual call's test)
    usual, checked = _both(state, action, odd)
    assert usual == checked


def _general_actions(state: rulelang.State, player: object) -> list[Action]:
    """``legal_actions(player)`` by the general path: the player resolved, then its actions."""
    resolved = state._resolve_player(player)   # type: ignore[arg-type]
    return [] if resolved is None else state._actions_of(resolved, *state._options(resolved))


def _legal(actions: Callable[[], list[Action]]) -> tuple[str, object]:
    """The ids and players of the actions given, or the error raised."""
    try:
        return "ok", [(a.id, a.player) for a in actions()]
    except IllegalActionError as error:
        return "error", str(error)


def test_current_players_is_a_new_list_each_call_and_none_once_the_game_is_over() -> None:
    state = rulelang.load(GAMES / "tic_tac_toe.rules").new_initial_state(seed=0)
    first = state.current_players()
    first.append(7)
    assert state.current_players() == [0] and state.current_players() is not state.current_players()
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(state.legal_actions(player)[0], player=player)
    assert state.current_players() == [] and state.current_players() is not state.current_players()


CHOOSERS = """
game "Choosers" { players 2  dummies 1 }
zone pile: card visible all
player zone hand: card visible owner
component card { n: int } shown as "#{n}"
deck cards: card in pile = [card(n: k) for k in 1..6]
phase play {
  for r in 1..2 {
    for p in players {
      choose c in SOURCE by CHOOSER
      move c to p.hand
    }
  }
  end game
}
"""


@pytest.mark.parametrize("source", ["pile", "[x for x in pile]"])
@pytest.mark.parametrize("chooser", ["p", "seats[2]", "3", '"p"', "top(pile)", "[p]", "none"])
def test_a_new_choice_finds_its_chooser_among_the_games_players_as_the_operation_run_alone_does(
        source: str, chooser: str) -> None:
    text = CHOOSERS.replace("SOURCE", source).replace("CHOOSER", chooser)
    outcomes = [_played(game) for game in (rulelang.load(text), run_one_by_one(rulelang.load(text)))]
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == ("played" if chooser == "p" else "error")


def _played(game: rulelang.Game) -> tuple[object, ...]:
    """Each decision of a game played by its first actions (the state and the actions' ids),
    or the error that stops it (its message and span)."""
    seen: list[tuple[object, ...]] = []
    try:
        state = game.new_initial_state(seed=0)
        while not state.is_terminal():
            player = state.current_players()[0]
            actions = state.legal_actions(player)
            seen.append((state.to_json(), [a.id for a in actions]))
            state.apply_action(actions[0], player=player)
    except RulesRuntimeError as error:
        return "error", error.diagnostic.message, error.diagnostic.span
    return "played", seen


def test_a_new_choice_by_a_real_player_calls_no_check_of_its_chooser(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulelang.interpreter.compiler import choices
    calls: list[object] = []
    checked = choices._choosing_player
    monkeypatch.setattr(choices, "_choosing_player", lambda st, player, *rest: (calls.append(player),
                                                                                 checked(st, player, *rest))[1])
    for source in ("pile", "[x for x in pile]"):
        assert _played(rulelang.load(CHOOSERS.replace("SOURCE", source).replace("CHOOSER", "p")))[0] == "played"
    assert calls == []
    assert _played(rulelang.load(CHOOSERS.replace("SOURCE", "pile").replace("CHOOSER", "seats[2]")))[0] == "error"
    assert calls   # (the dummy seat: refused by the check)
