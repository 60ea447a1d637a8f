"""A 'for' of a procedure that may pause, written in place in its resumable code
(procedures.py, in the environment): its variable is read as a Python local in the body
(and still written to the environment each round), what it holds known from its source; so
is a 'let' (of a name no other statement binds) by the statements after it in the same
operation. The game is the one where every read goes through the environment."""
from __future__ import annotations

import re

import pytest
from conftest import saved_states

import rulelang
from rulelang.interpreter.compiler import lower, procedures, resumable

RULES = """\
game "L" { players 3 }
var line: list[player] = players
player var score: int = 0
var last: int = 0
phase main {
  repeat {
    choose x in [1, 2, 3] by players[0]
    let y = x * 2
    for q in line { q.score += x }
    last = q.score + y
    choose z in [y, y + 1] by players[0]
    last += z - y
    for q in line {
      for q in [players[0]] { q.score += 1 }
    }
    last += q.score
    if last > 40 { end game }
  }
}
"""


HELD = re.compile(r"^ *env\[_k\d+\] = _l\d+$", re.M)


def test_a_loop_variable_and_a_let_read_as_python_locals_play_the_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resumable, "preludes", lambda code, blocks: [])   # (each block's lines once: counted)
    fast = rulelang.load(RULES)
    code = fast.generated_code()
    assert any(line.strip().startswith("for _l") for line in code.splitlines())
    assert re.search(r"_t\d+\[_t\d+\.index\] = ", code)   # (q known a player: its table written in place)
    played = [saved_states(fast, seed) for seed in range(3)]
    monkeypatch.setattr(procedures, "_rebound", lambda node: True)   # (every read through the environment)
    monkeypatch.setattr(lower, "names_bound_once", lambda params, body: frozenset())
    slow = rulelang.load(RULES)
    assert len(HELD.findall(code)) == 3 and not HELD.findall(slow.generated_code())   # (y, and q of two loops)
    assert not any(line.strip().startswith("for _l") for line in slow.generated_code().splitlines())
    assert not re.search(r"_t\d+\[_t\d+\.index\] = ", slow.generated_code())
    assert played == [saved_states(slow, seed) for seed in range(3)]
