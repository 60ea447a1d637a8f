"""A function whose body joins two lists, one a comprehension (``list(z) + [c for c in ...]``),
is written as loops gathering both into one list (compiler/loops.py ``joined``): the same
values, the same work (the least step budget that runs the rules, a long join charged by
``runtime.concat``) and the same errors at the same spans as the body as one expression."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import budgeted, worked_states
from test_loops import _as_expression, path  # noqa: F401 (path: a fixture)

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import codegen

pytestmark = pytest.mark.usefixtures("path")   # (each test with the bodies as loops, then as expressions)

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "J" { players 2  max_steps STEPS }
component card { rank: int  marks: list[int] }
deck cards: card in draw = [card(rank: r, marks: [r, r * 2]) for r in 1..SIZE]
zone draw: card visible count
player zone hand: card visible all
var out: list[int] = []
function mine(p: player) -> list[card] = list(p.hand) + [c for c in draw if c.rank % 3 > 0]
function both(p: player) -> list[int] = [c.rank for c in p.hand] + [c.rank * 10 for c in draw if c.rank < 3]
function marked(p: player, at: int) -> list[int] = [c.marks[at] for c in p.hand] + [0]
function left() -> list[card] = list(draw) + [c for c in draw if c.rank < 0]
phase deal {
  for p in players { for i in 1..3 { move top(draw) to p.hand } }
  out = [c.rank for c in mine(players[0])] + both(players[1]) + marked(players[0], AT)
  out = out + [size(mine(players[1])), size(left())]
  end game
}
"""


def _outcome(steps: int, size: int = 9, at: int = 1, budget=None) -> tuple[object, ...]:
    """RULES' end at budget ``steps`` (its value and work), or its error; ``budget``, the
    ruleset loaded once (conftest.budgeted), or the text loaded with that budget."""
    source = RULES.replace("STEPS", str(steps)).replace("SIZE", str(size)).replace("AT", str(at))
    try:
        state = (rulelang.load(source) if budget is None else budget(steps)).new_initial_state()
    except RulesRuntimeError as error:
        d = error.diagnostic
        return d.code, d.message, d.span.line, d.span.column
    return state.to_json()["globals"]["out"], state.work


def test_the_values_and_work_are_those_of_the_expression() -> None:
    # the cards of ranks 9, 8, 7 go to the first player, 6, 5, 4 to the second; left: 1, 2, 3
    out, work = _outcome(1000)
    assert out == [9, 8, 7, 1, 2, 6, 5, 4, 10, 20, 18, 16, 14, 0, 5, 3]
    assert work == 43   # (measured on the expression: a change in what either path charges moves it)


def test_long_lists_and_the_step_budget_stop_as_in_the_expression() -> None:
    budget = budgeted(RULES.replace("SIZE", "100").replace("AT", "1"))
    outcomes = {steps: _outcome(steps, size=100, budget=budget) for steps in range(700, 1015)}
    assert [outcomes[700], outcomes[1014]] == [_outcome(700, size=100), _outcome(1014, size=100)]   # (as loaded)
    stopped = [steps for steps, outcome in outcomes.items() if outcome[0] == "E603"]
    assert stopped == list(range(700, 1011))   # (the least budget, measured on the expression)
    out, work = outcomes[1011]
    assert work == 1011 and out[-2:] == [66, 94]   # (joins of more than 64: 3 + 63 of the 94 left; 94 + 0)
    assert outcomes[1010][2:] == outcomes[700][2:] == (14, 3)   # (at the statement of the long joins)


def test_an_index_out_of_range_is_the_rules_error_at_the_statement() -> None:
    code, message, line, column = _outcome(1000, at=2)
    assert (code, line, column) == ("E602", 13, 3) and "index 2 is out of range for a list of 2" in message


def test_jamaica_plays_as_with_its_bodies_as_expressions(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = GAMES / "jamaica.rules"
    fast = rulelang.load(rules, players=4)
    line = next(n for n, text in enumerate(rules.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("function holds_of("))
    assert "_concat(" in fast.generated_code()[fast.generated_code().index(f"# function at line {line},"):][:2000]
    played = [worked_states(fast, seed) for seed in range(3)]
    monkeypatch.setattr(codegen, "function_body", _as_expression)
    assert played == [worked_states(rulelang.load(rules, players=4), seed) for seed in range(3)]
