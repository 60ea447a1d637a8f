"""any() and all() over spaces (or lines of spaces) known at load, written out item by item
(compiler/unrolled.py): the same results, work and step-budget errors, at the same spans, as
the loops written for them, which run where the budget could run out inside the search; and a
test that is a search alone written in the resumable function in place of the call of its
helper (searches.search_in_place), the same as the call."""
from __future__ import annotations

import re

import pytest
from conftest import budgeted

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import codegen, resumable, searches

HEAD = """\
game "U" { players 1  max_steps STEPS }
board grid = square_grid(3, 3)
space var mark: int = 0
var out: int = 0
phase p {
"""

RULES = HEAD + """\
  for s in spaces(grid) { s.mark = 1 }
  for s in lines(grid, 3)[4] { s.mark = 2 }
  for v in [0, 1, 2] {
    choose w in [v] by players[0]   # (v read from the frame's locals after it)
    out += if any(all(s.mark == v for s in line) for line in lines(grid, 3)) then 1 else 0
    out += if all(any(s.mark == v for s in line) for line in lines(grid, 3)) then 10 else 0
    out += if any(s.mark == v for s in spaces(grid)) then 100 else 0
    out += if all(s.mark != v for s in spaces(grid)) then 1000 else 0
    out += if all(all(s.mark >= v for s in line) for line in lines(grid, 3)) then 10000 else 0
  }
  end game
}
"""

TESTS = HEAD + """\
  for s in lines(grid, 3)[4] { s.mark = 2 }
  for v in [0, 1, 2] {
    choose w in [v] by players[0]
    if any(all(s.mark == v for s in line) for line in lines(grid, 3)) {
      choose x in [v] by players[0]   # (so the test is an operation of its own)
      out += 1
    }
    if all(any(s.mark == v for s in line) for line in lines(grid, 3)) {
      choose x in [v] by players[0]   # (so the test is an operation of its own)
      out += 10
    }
    if any(s.mark == v for s in spaces(grid)) {
      choose x in [v] by players[0]   # (so the test is an operation of its own)
      out += 100
    }
    if all(s.mark != v for s in spaces(grid)) {
      choose x in [v] by players[0]   # (so the test is an operation of its own)
      out += 1000
    }
  }
  end game
}
"""


def _outcome(steps: int, rules: str = RULES, at=None) -> tuple[object, ...]:
    """RULES' end at budget ``steps`` (its value and work), or its error; ``at``, the ruleset
    loaded once (conftest.budgeted), or the text loaded with that budget."""
    try:
        game = rulelang.load(rules.replace("STEPS", str(steps))) if at is None else at(steps)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(state.legal_actions(0)[0], player=0)
    except RulesRuntimeError as error:
        d = error.diagnostic
        assert d.span is not None
        return d.code, d.message, d.span.line, d.span.column
    return state.to_json()["globals"]["out"], state.work


def _outcomes(rules: str, budgets: range | None = None, of=None) -> tuple[range, list[tuple[object, ...]]]:
    """``of`` (``_outcome``) of ``rules`` at each of ``budgets`` (none: every budget up to the
    least that plays to the end, and one past it), the ruleset loaded once (conftest.budgeted);
    at the first and last budget, as the text loaded with it gives."""
    of = of or _outcome
    at = budgeted(rules)
    if budgets is None:
        least = next(steps for steps in range(1, 2000) if type(_outcome(steps, rules, at)[0]) is int)
        budgets = range(1, least + 2)
    found = [of(steps, rules, at) for steps in budgets]
    assert [found[0], found[-1]] == [of(budgets[0], rules), of(budgets[-1], rules)]
    return budgets, found


def test_searches_written_out_give_what_their_loops_give_at_every_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    code = rulelang.load(RULES.replace("STEPS", "1000")).generated_code()
    assert code.count(" <= _limit and _k") == 5   # (each search written out, the local v read once)
    assert re.search(r"\n +if \(\(\(_t\d+\[0\]\) == _h\d+\)\):\n", code)   # (lines from space 0: tested once)
    budgets, written_out = _outcomes(RULES)
    monkeypatch.setattr(searches, "unrolled", lambda loop, name, indices: None)
    assert " <= _limit and _k" not in rulelang.load(RULES.replace("STEPS", "1000")).generated_code()
    assert written_out == _outcomes(RULES, budgets)[1]
    assert written_out[-1][0] == 11000 + 10101 + 101   # (v = 0, 1 and 2)
    assert {outcome[2] for outcome in written_out if outcome[0] == "E603"} >= {10, 11, 12, 13, 14}


def test_searches_in_place_give_what_their_calls_give_at_every_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resumable, "preludes", lambda code, blocks: [])   # (each block's lines once: counted)
    code = rulelang.load(TESTS.replace("STEPS", "1000")).generated_code()
    assert code.count("while True:\n") >= 5 and code.count("if not (_found):") == 4   # (the resumable's, the 4 tests)
    assert "_source = _k" not in code   # (a list known at load read where the loop goes through it)
    budgets, in_place = _outcomes(TESTS)
    monkeypatch.setattr(codegen, "search_in_place", lambda module, text: None)
    assert "if not (_found):" not in rulelang.load(TESTS.replace("STEPS", "1000")).generated_code()
    assert in_place == _outcomes(TESTS, budgets)[1]
    assert in_place[-1][0] == 101 + 1000 + 101   # (v = 0, 1, 2)
    assert {outcome[2] for outcome in in_place if outcome[0] == "E603"} >= {9, 13, 17, 21}


PLAYERS = """\
game "P" { players 3  max_steps STEPS }
player var won: bool = false
player var count: int = 0
var out: int = 0
phase p {
  repeat {
    for q in players {
      choose n in [1, 2] by players[0]
      q.count = q.count + n
      if q.count > 4 { q.won = true }
      out += if any(r.count > 3 for r in players) then 1 else 0
      if all(r.won or r.count > 1 for r in seats) { out += 10 }
      if any(r.won for r in players) { end game }
    }
  }
}
score p = if p.won then 1 else if any(q.won for q in players) then -1 else 0
"""


def _returned(steps: int, rules: str = PLAYERS, at=None) -> tuple[object, ...]:
    """``_outcome`` of PLAYERS, and the players' returns at its end (none where it fails)."""
    outcome = _outcome(steps, rules, at)
    if type(outcome[0]) is not int:
        return outcome
    state = (rulelang.load(rules.replace("STEPS", str(steps))) if at is None else at(steps)).new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions(0)[0], player=0)
    return (*outcome, state.returns())


def test_searches_over_the_players_written_out_give_what_their_loops_give(monkeypatch: pytest.MonkeyPatch) -> None:
    code = rulelang.load(PLAYERS.replace("STEPS", "1000")).generated_code()
    assert code.count("if _w + 3 <= _limit") >= 4   # (the three searches and the score's, over three players)
    budgets, written_out = _outcomes(PLAYERS, of=_returned)
    monkeypatch.setattr(searches, "_seats", lambda cat, node, scope: None)
    assert "if _w + 3 <= _limit" not in rulelang.load(PLAYERS.replace("STEPS", "1000")).generated_code()
    assert written_out == _outcomes(PLAYERS, budgets, _returned)[1]
    assert {outcome[2] for outcome in written_out if outcome[0] == "E603"} >= {12, 13}
    assert written_out[-1][-1] == [1.0, -1.0, -1.0]


ZONES = """\
game "Z" { players 3  max_steps STEPS }
component chip { n: int }
zone pile: chip visible all
player zone hand: chip visible all
deck chips: chip in pile size 6 = [chip(n: k) for k in 1..6]
var out: int = 0
phase p {
  while size(pile) > 0 and any(size(q.hand) > 0 for q in players) or out == 0 {
    out += 1
    for q in players {
      if size(pile) > 0 { move top(pile) to q.hand }
    }
    choose n in [1, 2] by players[0]
    if all(size(q.hand) < 3 for q in players) { move top(players[0].hand) to pile }
  }
  end game
}
"""


def test_searches_over_the_players_zones_written_out_give_what_their_loops_give(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A search whose test reads only zones' own lists (their sizes) charges nothing in it: it
    counts its work in a local, so it is written out; the same as the loop that charges the
    state's work at each item."""
    code = rulelang.load(ZONES.replace("STEPS", "1000")).generated_code()
    assert code.count("if _w + 3 <= _limit") == 2   # (the while's any() and the if's all())
    budgets, written_out = _outcomes(ZONES)
    monkeypatch.setattr(searches, "_STATE", re.compile(r"\bst\b"))
    assert "if _w + 3 <= _limit" not in rulelang.load(ZONES.replace("STEPS", "1000")).generated_code()
    assert written_out == _outcomes(ZONES, budgets)[1]
    assert {outcome[2] for outcome in written_out if outcome[0] == "E603"} >= {8}   # (in the while's search)


CONJOINED = ZONES.replace("size(q.hand) > 0 for q in players) or out == 0 {",
                          "size(q.hand) < 2 for q in players) {").replace(
    "if all(size(q.hand) < 3 for q in players) { move top(players[0].hand) to pile }",
    "if out > 0 and all(size(q.hand) < 3 for q in players) {\n"
    "      choose m in [1] by players[0]   # (so the test is an operation of its own)\n"
    "      move top(players[0].hand) to pile\n    }")


def test_a_search_after_a_test_in_place_gives_what_its_call_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test ``TEST and SEARCH`` of the resumable function: the search's lines in place where
    TEST is true (no call of its helper); the same states, work and E603 as the call."""
    monkeypatch.setattr(resumable, "preludes", lambda code, blocks: [])   # (each block's lines once: counted)
    code = rulelang.load(CONJOINED.replace("STEPS", "1000")).generated_code()
    assert searches._after_a_test("((x > 0) and _g1(y, st, env))") == ("(x > 0)", "_g1(y, st, env)")
    assert searches._after_a_test("(a or b and _g1(x, st, env))") is None
    assert searches._after_a_test("(a) and (b and _g1(x, st, env))") is None
    assert code.count("if not (_found):") == 2   # (the while's and the if's)
    budgets, in_place = _outcomes(CONJOINED)
    monkeypatch.setattr(searches, "_after_a_test", lambda text: None)
    assert "if not (_found):" not in rulelang.load(CONJOINED.replace("STEPS", "1000")).generated_code()
    assert in_place == _outcomes(CONJOINED, budgets)[1]
    assert {outcome[2] for outcome in in_place if outcome[0] == "E603"} >= {8}
