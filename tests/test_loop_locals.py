"""A 'for' of a procedure that may pause, written in place in its resumable code
(procedures.py, in the environment): its variable is read as a Python local in the body
(and still written to the environment each round), what it holds known from its source. The
game is the one where every read goes through the environment."""
from __future__ import annotations

import re

import pytest
from conftest import saved_states

import rulelang
from rulelang.interpreter.compiler import procedures

RULES = """\
game "L" { players 3 }
var line: list[player] = players
player var score: int = 0
var last: int = 0
phase main {
  repeat {
    choose x in [1, 2, 3] by players[0]
    for q in line { q.score += x }
    last = q.score
    for q in line {
      for q in [players[0]] { q.score += 1 }
    }
    last += q.score
    if last > 40 { end game }
  }
}
"""


def test_a_loop_variable_read_as_a_python_local_plays_the_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = rulelang.load(RULES)
    code = fast.generated_code()
    assert any(line.strip().startswith("for _l") for line in code.splitlines())
    assert re.search(r"_t\d+\[_t\d+\.index\] = ", code)   # (q known a player: its table written in place)
    played = [saved_states(fast, seed) for seed in range(3)]
    monkeypatch.setattr(procedures, "_rebound", lambda node: True)   # (every read through the environment)
    slow = rulelang.load(RULES)
    assert not any(line.strip().startswith("for _l") for line in slow.generated_code().splitlines())
    assert not re.search(r"_t\d+\[_t\d+\.index\] = ", slow.generated_code())
    assert played == [saved_states(slow, seed) for seed in range(3)]
