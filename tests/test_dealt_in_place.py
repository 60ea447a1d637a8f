"""A deal's outer range of two names built in place (compiler/ranges.py) and ``list(ZONE)``
of a zone the text names read in place (moves.listed_in_place), against the calls they
spare (``as_list`` of ``inclusive_range``; ``zone_seen``): the same states, work, private
lines and events, E603 at the same statement at every budget, ranges empty, short, of 64
numbers and more (charged), hands of at most 64 cards and more."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import budgeted, logged_events, played_to_the_end

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import codegen, deals

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "R" { players 3  max_steps STEPS }
component card { rank: int }
player zone hand: card visible owner
zone pile: card visible count
deck cards: card in pile = [card(rank: k) for k in 1..CARDS]
zone table: card visible all
var line: list[player] = [players[2], players[0], players[1]]
var k: int = SHIFT

procedure deal() {
  let each = size(pile) / size(players) - k
  for i in 1..each { for p in line { move top(pile) to p.hand } }
  for p in players {
    log "your hand: " + list(p.hand) to [p]
  }
  let low = k
  for i in low..1 { for p in players { move top(pile) to p.hand } }
}

phase main {
  for r in 1..2 {
    call deal()
    choose c in players[0].hand by players[0] prompt "a card"
    move c to table
    for p in players {
      move p.hand to pile
    }
    move table to pile
    shuffle pile
    k = k + 1
  }
  end game
}
"""


def _rules(cards: int, shift: int) -> str:
    return RULES.replace("CARDS", str(cards)).replace("SHIFT", str(shift))


def _game(cards: int, shift: int, steps: int = 100_000) -> rulelang.Game:
    return rulelang.load(_rules(cards, shift).replace("STEPS", str(steps)))


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deals, "range_in_place", lambda items, module: items)
    monkeypatch.setattr(codegen, "listed_in_place", lambda text, module, looked: None)


def _played(game: rulelang.Game, seed: int) -> list[tuple[object, ...]]:
    """The saved state, work, lines and knowledge after each action of a random game, then
    where its rules fail (the error's text and span), if they do."""
    chooser, seen = random.Random(seed), []
    try:
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            player = state.current_players()[0]
            state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
            seen.append((state.to_json(), state.work, [*map(str, state.log)], state.component_knowledge[:]))
    except RulesRuntimeError as error:
        seen.append((str(error), error.diagnostic.span))
    return seen


# (cards, the shift k): ranges of 0, 1..3, of 64 numbers and of more (3 * 70 cards), a low end
# above the high one and below it, negative counts
SHAPES = [(12, 0), (12, 2), (12, -2), (3, 5), (0, 0), (3 * 64, 0), (3 * 66, 1), (3 * 70, -1), (30, 40)]


def _outcomes() -> list[object]:
    return [(_played(_game(cards, shift), seed), _events(_game(cards, shift), seed))
            for cards, shift in SHAPES for seed in range(2)]


def _events(game: rulelang.Game, seed: int) -> object:
    """``logged_events`` of a random game, or where its rules fail."""
    try:
        return logged_events(game, seed)
    except RulesRuntimeError as error:
        return str(error), error.diagnostic.span


def test_the_range_and_the_hands_are_read_in_place():
    listing = _game(12, 0).generated_code()
    assert re.search(r"\(tuple\(range\(_k\d+, _l\d+ \+ 1\)\) if type\(_l\d+\) is int and _l\d+ - _k\d+ < 64 else "
                     r"_as_list\(st, _range\(st, _k\d+, _l\d+\)\)\)", listing)
    assert re.search(r"\(tuple\((_y\d+|st\.zones)\[_k\d+\[_l\d+\.index\]\]\) if len\(", listing)


def test_random_games_leave_the_same_states_work_lines_and_events_as_the_calls(monkeypatch):
    fast = _outcomes()
    _general(monkeypatch)
    assert "tuple(range(" not in _game(12, 0).generated_code()
    assert fast == _outcomes()


def _budgets(cards: int, shift: int, budgets: range) -> list[object]:
    at = budgeted(_rules(cards, shift))
    return [played_to_the_end(at(steps)) for steps in budgets]


def test_the_budget_stops_at_the_same_statement_as_the_calls(monkeypatch):
    shapes = [(12, 0, range(1, 60)), (3 * 70, 0, range(1, 700, 7))]
    fast = [_budgets(*shape) for shape in shapes]
    _general(monkeypatch)
    assert fast == [_budgets(*shape) for shape in shapes]
    errors = [outcome[0] for found in fast for outcome in found if type(outcome[1]) is not int]
    assert any("E603" in error for error in errors)
    assert len({outcome[1].line for found in fast for outcome in found if type(outcome[1]) is not int}) > 3


def test_jolly_roger_plays_as_with_the_calls(monkeypatch):
    path = GAMES / "jolly_roger.rules"
    fast = [_played(rulelang.load(path, players=players), 1) for players in (3, 4)]
    _general(monkeypatch)
    assert fast == [_played(rulelang.load(path, players=players), 1) for players in (3, 4)]
