"""Functions of a ruleset that can never call each other too deep (compiler/callgraph.py) are
written without the depth they run at; the bound on the depth stays where it can be reached:
in a cycle of calls, and in a chain of more than MAX_FUNCTION_DEPTH functions."""
from __future__ import annotations

import pytest

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.tables.runtime import MAX_FUNCTION_DEPTH


def chain(length: int) -> str:
    """A ruleset whose phase calls f1, which calls f2, ... up to f``length``."""
    functions = [f"function f{k}(n: int) -> int = f{k + 1}(n) + 1" for k in range(1, length)]
    return "\n".join([
        'game "C" { players 1 }', "var out: int = 0",
        *functions, f"function f{length}(n: int) -> int = n",
        "phase p {", "  out = f1(0)", "  end game", "}", ""])


def test_a_function_that_calls_no_cycle_takes_no_depth() -> None:
    game = rulelang.load(chain(3))
    code = game.generated_code()
    assert "_enter(" not in code and "_too_deep" not in code and "_depth" not in code
    assert game.new_initial_state().to_json()["globals"]["out"] == 2


def test_a_chain_as_long_as_the_bound_runs_and_one_longer_stops_where_it_did() -> None:
    assert rulelang.load(chain(MAX_FUNCTION_DEPTH)).new_initial_state().is_terminal()
    with pytest.raises(RulesRuntimeError) as caught:
        rulelang.load(chain(MAX_FUNCTION_DEPTH + 1)).new_initial_state()
    diagnostic = caught.value.diagnostic
    assert (diagnostic.code, diagnostic.span.line) == ("E603", MAX_FUNCTION_DEPTH + 5)
    assert f"more than {MAX_FUNCTION_DEPTH} deep" in diagnostic.message


MIXED = """\
game "M" { players 1 }
var out: int = 0
function leaf(n: int) -> int = n + 1
function down(n: int) -> int = if n == 0 then leaf(0) else leaf(down(n - 1))
phase p {
  out = leaf(1) + down(10)
  out = down(99)
  end game
}
"""


def test_a_function_called_from_a_cycle_counts_its_depth_there_only() -> None:
    game = rulelang.load(MIXED)
    code = game.generated_code()
    assert "if _depth > 100:" in code   # in the cycle: counted (in the prologue of the function called)
    with pytest.raises(RulesRuntimeError) as caught:   # down(99) calls leaf at depth 101
        game.new_initial_state()
    diagnostic = caught.value.diagnostic
    assert (diagnostic.code, diagnostic.span.line) == ("E603", 7) and "more than 100 deep" in diagnostic.message
    fine = rulelang.load(MIXED.replace("down(99)", "down(98)")).new_initial_state()
    assert fine.to_json()["globals"]["out"] == 99
