"""``n += value`` (or ``-=``) of a global variable, written in place where the value is a
proven integer (compiler/writes.py, ``global_update``): the same values, work, events and
errors as ``effects.updated``, at the bounds of the rules' integers and when the variable
holds no number."""
from __future__ import annotations

import re

import pytest
from conftest import rules

import rulelang
from rulelang.interpreter.compiler import procedures

MAX_INT = 2**63 - 1

RULES = """\
game "U" { players 1 }
var n: int = START
var m: int? = none
var k: int = KSTART
phase p {
  for i in 1..3 {
    n += 2
    k -= i
    k -= 1
    choose x in [1, 2] by players[0]
    n -= x
  }
  BROKEN
  end game
}
"""


def _number(value: int) -> str:
    """``value`` as the rules write it (a literal has at most 18 digits)."""
    text = f"{abs(value) // 1000} * 1000 + {abs(value) % 1000}"
    return f"0 - ({text})" if value < 0 else f"({text})"


def _outcome(start: int, k: int = 0, broken: str = "") -> tuple[object, ...]:
    """The saved state, the events and the work at the end of a game that always takes the
    first option; or the error's text and span."""
    text = RULES.replace("KSTART", _number(k)).replace("START", _number(start)).replace("BROKEN", broken)
    try:
        state = rulelang.load(rules(text)).new_initial_state(events=True)
        while not state.is_terminal():
            state.apply_action(state.legal_actions(0)[0], player=0)
    except rulelang.RulesRuntimeError as error:
        return str(error), error.diagnostic.span
    return state.to_json(), state.events(), state.work


CASES = [(0, 0, ""), (MAX_INT - 3, 0, ""), (MAX_INT - 1, 0, ""), (-MAX_INT, 0, ""), (0, 0, "m += 1"),
         (0, 0, "n += m"), (MAX_INT - 6, 0, "n += 4"), (5, 5 - MAX_INT, ""), (5, 6 - MAX_INT, ""),
         (5, 9 - MAX_INT, ""), (5, 8 - MAX_INT, ""), (MAX_INT - 2, 0, "")]


def _code() -> str:
    text = RULES.replace("KSTART", "0").replace("START", "0").replace("BROKEN", "")
    return rulelang.load(rules(text)).generated_code()


def test_a_global_updated_in_place_as_updated_updates_it(monkeypatch: pytest.MonkeyPatch) -> None:
    assert re.search(r":= (?:_st_|st\.)global_values\[", _code())
    # (a variable declared int, by a number written in the rules: its one edge tested, not its kind)
    assert re.search(r"\(_u\d+ \+ _k\d+ if \(_u\d+ := (?:_st_|st\.)global_values\[_k\d+\]\) <= _k\d+ else", _code())
    # (``k -= 1`` after ``k -= i`` reads the value just written: globals_forwarded.py)
    assert re.search(r"\(_u\d+ - _k\d+ if \(_u\d+ := (?:(?:_st_|st\.)global_values\[_k\d+\]|_t\d+)\) >= _k\d+ else",
                     _code())
    fast = [_outcome(*case) for case in CASES]
    assert any("E602" in str(outcome[0]) for outcome in fast)
    monkeypatch.setattr(procedures, "global_update", lambda writer, name, node, value, op, scope:
                        f"_updated(st.global_values[{name}], {value}, {op})")
    assert not re.search(r":= (?:_st_|st\.)global_values\[", _code())
    assert fast == [_outcome(*case) for case in CASES]
