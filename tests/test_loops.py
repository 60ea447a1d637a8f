"""Functions whose body is a comprehension, written as nested loops (compiler/loops.py):
the same values, the same work charged (the least step budget that runs the rules) and the
same errors at the same spans as the body written as one expression."""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import codegen

RULES = """\
game "L" { players 2  max_steps STEPS }
component card { rank: int } shown as "{rank}"
component var marks: list[bool] = []
deck cards: card in draw = [card(rank: r) for r in 1..9]
zone draw: card visible count
player zone hand: card visible all
var pairs: list[list[int]] = []
var marked: list[int] = []
var nothing: list[int] = []
var chosen: list[int] = []
var picked: list[bool] = []

function matching(p: player) -> list[list[int]] =
  if size(p.hand) == 0 then []
  else [[c.rank, d.rank] for c in p.hand for d in draw if c.rank > d.rank + 2
        for k in [count(i for i in [0, 1, 2] if c.marks[i] and d.marks[i])] if k > 0]
function marks_of(p: player) -> list[int] = [k for c in p.hand for k in [count(m for m in c.marks)]]
function none_of(p: player) -> list[int] = [c.rank for c in p.hand if c.rank > 100]
function ranks(low: int) -> list[int] =
  if low > 5 then [r for r in 1..low if r % 2 == 0]
  else if low > 2 then [low] else [r * r for r in [low, 3]]
function picks(p: player, at: int) -> list[bool] = [c.marks[j] for c in p.hand for j in [0, at]]

phase deal {
  for c in draw { c.marks = [c.rank % 2 == 0, c.rank % 3 == 0, c.rank > 4] }
  for p in players { for i in 1..3 { move top(draw) to p.hand } }
  pairs = matching(players[0]) + matching(players[1])
  marked = marks_of(players[0]) + marks_of(players[1])
  nothing = none_of(players[1])
  chosen = ranks(8) + ranks(4) + ranks(1)
  picked = picks(players[1], AT)
  end game
}
"""


@pytest.fixture(params=["loops", "expression"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each test runs with the functions' bodies as loops, then as one expression."""
    if request.param == "expression":
        monkeypatch.setattr(codegen, "function_body", _as_expression)
    yield request.param


def _as_expression(writer: Any, body: Any, scope: Any) -> list[str]:
    return [f"return {writer.write(body, scope)}"]


def _run(steps: int = 1_000_000, at: int = 2, text: str = RULES) -> rulelang.State:
    source = text.replace("STEPS", str(steps)).replace("AT", str(at))
    return rulelang.load(source).new_initial_state()


def _least_budget() -> int:
    """The least ``max_steps`` with which the rules run to their end."""
    low, high = 1, 1_000_000
    while low < high:
        middle = (low + high) // 2
        try:
            _run(middle)
        except RulesRuntimeError:
            low = middle + 1
        else:
            high = middle
    return low


def test_the_values_are_those_of_the_rules(path: str) -> None:
    values = _run().to_json()["globals"]
    # the cards of ranks 9, 8, 7 go to the first player, 6, 5, 4 to the second; left: 1, 2, 3
    assert values["pairs"] == [[9, 3], [8, 2], [6, 2], [6, 3]]
    assert values["marked"] == [2, 2, 1, 3, 1, 1]
    assert values["nothing"] == []
    assert values["chosen"] == [2, 4, 6, 8, 4, 1, 9]
    assert values["picked"] == [True, True, False, True, True, False]
    assert _run(at=1).to_json()["globals"]["picked"] == [True, True, False, False, True, False]


def test_the_work_charged_is_that_of_the_expression(path: str) -> None:
    # (measured on the expression: a change in what either path charges moves it)
    assert _least_budget() == 172


def test_an_index_out_of_range_is_the_rules_error_at_the_statement(path: str) -> None:
    with pytest.raises(RulesRuntimeError) as caught:
        _run(at=3)
    diagnostic = caught.value.diagnostic
    assert (diagnostic.code, diagnostic.span.line, diagnostic.span.column) == ("E602", 31, 3)
    assert "index 3 is out of range for a list of 3" in diagnostic.message
    with pytest.raises(RulesRuntimeError) as caught:
        _run(at=-4)
    assert "index -4 is out of range for a list of 3" in caught.value.diagnostic.message


def test_an_index_from_the_end_reads_as_in_the_expression(path: str) -> None:
    assert _run(at=-1).to_json()["globals"]["picked"] == _run(at=2).to_json()["globals"]["picked"]


RUNAWAY = """\
game "R" { players 1  max_steps STEPS }
var out: list[int] = []
function big(n: int) -> list[int] = [i + j for i in 1..n for j in 1..n if i == j]
function wide() -> list[int] = [1 for i in 1..1000 for j in 1..1001 if i < 0]
phase p {
  out = big(10)
  out = big(AT)
  out = wide()
  end game
}
"""


def test_a_runaway_comprehension_stops_at_the_budget_at_its_statement(path: str) -> None:
    with pytest.raises(RulesRuntimeError) as caught:
        _run(steps=100_000, at=1000, text=RUNAWAY)
    diagnostic = caught.value.diagnostic
    assert (diagnostic.code, diagnostic.span.line) == ("E603", 7)
    assert "more than 100000 items of work" in diagnostic.message


def test_a_comprehension_of_too_many_items_stops_at_its_statement(path: str) -> None:
    with pytest.raises(RulesRuntimeError) as caught:
        _run(steps=10_000_000, at=10, text=RUNAWAY)
    diagnostic = caught.value.diagnostic
    assert (diagnostic.code, diagnostic.span.line) == ("E602", 8)
    assert "a comprehension went through more than 1000000 items" in diagnostic.message


def test_the_comprehensions_of_functions_are_loops_and_only_their_fallback_calls_items(path: str) -> None:
    listing = rulelang.load(RULES.replace("STEPS", "1000").replace("AT", "2")).generated_code()
    matching = listing[listing.index("# function at line 13,"):listing.index("# function at line 17,")]
    if path == "loops":
        assert "for _v" in matching and "except IndexError" in matching
        assert len(re.findall(r"_h\d+ = _t\d+\[_v\d+\.id\]", matching)) == 2   # c.marks, d.marks: read once
        assert matching.count("_items(") == matching[matching.index("except IndexError"):].count("_items(") > 0
    else:
        assert "except IndexError" not in matching


def test_a_count_of_a_clause_is_its_variable_and_an_owners_read_follows_its_loop() -> None:
    listing = rulelang.load(RULES.replace("STEPS", "1000").replace("AT", "2")).generated_code()
    matching = listing[listing.index("# function at line 13,"):listing.index("except IndexError")]
    (counted,) = re.findall(r"(_r\d+) = 0", matching)
    assert f"= {counted}\n" not in matching and f"({counted} > _k" in matching   # k is the count's local
    c_loop, marks = re.search(r"for (_v\d+) in _s\d+:\n\s+(_h\d+) = _t\d+\[\1\.id\]", matching).groups()
    assert matching.index(marks) < matching.index("for _v", matching.index(c_loop) + 1)   # c.marks: once a c


def test_a_loop_nest_counts_its_work_in_a_local_and_leaves_the_same_work(monkeypatch: pytest.MonkeyPatch) -> None:
    listing = rulelang.load(RULES.replace("STEPS", "1000").replace("AT", "2")).generated_code()
    matching = listing[listing.index("# function at line 13,"):listing.index("# function at line 17,")]
    assert "_x, _lim = _w, st.max_steps" in matching and "st.work = _x\n        return" in matching
    budgets = range(150, 200)
    fast = [_outcome(steps) for steps in budgets]
    monkeypatch.setattr(codegen, "function_body", _as_expression)
    assert fast == [_outcome(steps) for steps in budgets]


def _outcome(steps: int) -> tuple[Any, ...]:
    """The work counted by the end of the rules with ``steps`` as their budget, or the error."""
    try:
        state = _run(steps)
    except RulesRuntimeError as error:
        return error.diagnostic.code, error.diagnostic.span.line, error.diagnostic.message
    return state.work, state.to_json()["globals"]["pairs"]


def test_items_visited_are_counted_only_where_the_step_budget_does_not_stop_them_first() -> None:
    def matching(steps: int) -> str:
        listing = rulelang.load(RULES.replace("STEPS", str(steps)).replace("AT", "2")).generated_code()
        return listing[listing.index("# function at line 13,"):listing.index("except IndexError")]
    assert not re.search(r"_n\d+ \+= ", matching(1_000_000))   # (each item visited is charged first)
    assert re.search(r"_n\d+ \+= ", matching(10_000_000))
