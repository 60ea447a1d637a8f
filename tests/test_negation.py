"""``-x`` of a proven integer (integers.py) written as Python's negation, with no call of
``runtime.negated``: the same values, work and errors as through it."""
from __future__ import annotations

import re

from conftest import worked_states

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import codegen

RULES = """\
game "N" { players 2 }
var out: list[int] = []
var far: int = 922337203685477580 * 10 + 7
procedure step(p: player, d: int) {
  let back = -d
  out = out + [back, -3, -(d * 2), -far]
  choose k in [1, 2] by p
  out = out + [-k]
}
phase main {
  for p in players {
    call step(p, START)
  }
  end game
}
"""


def _played(start: str) -> object:
    game = rulelang.load(RULES.replace("START", start))
    try:
        return [worked_states(game, seed) for seed in range(3)]
    except RulesRuntimeError as error:
        return error.diagnostic.code, error.diagnostic.span.line, error.diagnostic.message


def test_a_proven_integer_is_negated_in_place(monkeypatch):
    listing = rulelang.load(RULES.replace("START", "4")).generated_code()
    assert re.search(r"\(-_l\d+\)", listing) and re.search(r"\(-_k\d+\)", listing)   # (d, 3)
    # (k, a choice among integers: held an int across the pause, held.py, so proven too)
    assert "_negated(env[" not in listing and re.search(r"\(-env\[_k\d+\]\)", listing)
    starts = ["4", "-7", "461168601842738790 * 10 + 4"]
    fast = [_played(start) for start in starts]
    monkeypatch.setattr(codegen, "integer_bound", lambda cat, node, scope: None)
    assert "_negated(" in rulelang.load(RULES.replace("START", "4")).generated_code()
    assert fast == [_played(start) for start in starts]
    assert fast[2][0] == "E602"   # (d * 2 too large: the product's error, before the negation)
