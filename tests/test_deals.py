"""A deal (a 'for', or a nest of them, whose innermost body only moves the top of a zone the
rules name) written as one call (compiler/deals.py, tables/dealing.py), against the loops
themselves: the same states, work, events and loop variables, E603 at the same statement
and "nothing to move" at the same move, whatever the budget and the size of the pile."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import budgeted, logged_events, played_to_the_end

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import deals

GAMES = Path(__file__).resolve().parent.parent / "games"
DEALT = "<the top of a zone dealt to each zone"

RULES = """\
game "D" { players 3  max_steps STEPS }
component card { rank: int }
player zone hand: card visible owner
zone pile: card visible count
deck cards: card in pile = [card(rank: k) for k in 1..CARDS]
zone table: card visible all
var line: list[player] = [players[2], players[0], players[1]]
var twice: list[player] = [players[1], players[1], players[0]]
var n: int = 2

procedure plain() {
  for i in 1..n { for p in line { move top(pile) to p.hand } }
  for p in players { for i in 1..2 { move top(pile) to p.hand } }
  for p in twice { move top(pile) to p.hand }
  for i in 1..2 { move top(pile) to table }
}

procedure shuffled() {
  shuffle pile
  for i in 1..n { for p in line { move top(pile) to p.hand } }
  for p in players { for i in 1..2 { move top(pile) to p.hand } }
}

procedure then_choose() {
  for i in 1..n { for p in line { move top(pile) to p.hand } }
  for p in players { move top(pile) to p.hand }
  choose c in players[0].hand by players[0] prompt "a card"
  move c to table
}

procedure once_each() {
  for q in line { move top(pile) to q.hand }
  choose d in players[0].hand by players[0] prompt "a card"
  move d to table
}

phase main {
  call plain()
  call shuffled()
  call then_choose()
  choose c in players[0].hand by players[0] prompt "another"
  move c to table
  n = 1
  call then_choose()
  call once_each()
  end game
}
"""
CARDS = 2 * 3 + 3 * 2 + 3 + 2 + 2 * 3 + 3 * 2 + 2 * 3 + 3 + 1 * 3 + 3 + 3   # every move above


def _game(steps: int = 100_000, cards: int = CARDS) -> rulelang.Game:
    return rulelang.load(RULES.replace("STEPS", str(steps)).replace("CARDS", str(cards)))


def _known_states(game: rulelang.Game, seed: int) -> list[tuple[dict, int, list[int]]]:
    """``worked_states`` with who knows where each component is (not saved: the samples of
    an information set read it)."""
    chooser, state, seen = random.Random(seed), game.new_initial_state(seed=seed), []
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
        seen.append((state.to_json(), state.work, state.component_knowledge[:]))
    return seen


def _as_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deals, "_nest", lambda node, writer: None)


def test_each_deal_is_one_call():
    listing = _game().generated_code()
    assert len(re.findall(r"_k\d+\(st, \d+, \[", listing)) >= 10   # (each deal, in each way a procedure runs)
    assert re.search(r"_k\d+\(st, \d+, _sl\d+\)", listing)   # (each player's two in turn: dealt one by one)
    assert f"{DEALT} of a round" in listing
    assert re.search(r"env = \{\}\n(.*\n)*.*except NameError", listing)   # (a procedure's env made where it pauses)


def test_random_games_leave_the_same_states_work_and_events_as_the_loops(monkeypatch):
    fast = [_known_states(_game(), seed) for seed in range(6)]
    events = [logged_events(_game(), seed) for seed in range(3)]
    assert fast[0][0][0]["frames"]   # (a frame paused after deals: its loops' variables saved)
    _as_loops(monkeypatch)
    assert DEALT not in _game().generated_code()
    assert fast == [_known_states(_game(), seed) for seed in range(6)]
    assert events == [logged_events(_game(), seed) for seed in range(3)]


def _outcome(steps: int, cards: int) -> object:
    return played_to_the_end(_game(steps, cards))


def _outcomes(budgets: range, piles: range) -> list[object]:
    """``_outcome`` at each of ``budgets`` with every card (the ruleset loaded once,
    conftest.budgeted: as loaded with the first and last budget), then of each pile of
    ``piles`` at budget 1000."""
    at = budgeted(RULES.replace("CARDS", str(CARDS)))
    found = [played_to_the_end(at(steps)) for steps in budgets]
    assert [found[0], found[-1]] == [_outcome(budgets[0], CARDS), _outcome(budgets[-1], CARDS)]
    return found + [_outcome(1000, cards) for cards in piles]


def test_the_budget_and_a_short_pile_stop_at_the_same_statement_as_the_loops(monkeypatch):
    budgets, piles = range(1, 80), range(CARDS - 45, CARDS + 1)
    fast = _outcomes(budgets, piles)
    _as_loops(monkeypatch)
    assert fast == _outcomes(budgets, piles)
    errors = [outcome[0] for outcome in fast if type(outcome[1]) is not int]
    assert any("E603" in error for error in errors) and any("nothing to move" in error for error in errors)
    assert len({outcome[1].line for outcome in fast if type(outcome[1]) is not int}) > 4   # (several statements)


@pytest.mark.parametrize(("name", "players"), [("jolly_roger", 3), ("jolly_roger", 4), ("kuhn_poker", 2)])
def test_games_play_as_with_the_loops(name, players, monkeypatch):
    path = GAMES / f"{name}.rules"
    fast = rulelang.load(path, players=players)
    assert DEALT in fast.generated_code()
    played = [_known_states(fast, seed) for seed in range(2)]
    _as_loops(monkeypatch)
    assert played == [_known_states(rulelang.load(path, players=players), seed) for seed in range(2)]


def test_a_pile_too_short_fails_at_the_move():
    with pytest.raises(RulesRuntimeError) as caught:
        _game(cards=5).new_initial_state()
    assert "nothing to move" in caught.value.diagnostic.message
    assert caught.value.diagnostic.span.line == RULES.splitlines().index(
        "  for i in 1..n { for p in line { move top(pile) to p.hand } }") + 1
