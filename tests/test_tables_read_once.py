"""A 'let' or a 'for' whose expression goes through items (a comprehension, a generator) reads
the state's tables of its variables and token counts once, into locals, before it
(``ProcedureWriter.expr_once``, ``Scope.tables``), a held supply's table included
(compiler/tokens.py): the same states, work and errors as reading them at each item."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import worked_states

import rulelang
from rulelang.interpreter.compiler.procedures import ProcedureWriter

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "T" { players 2 }
supply coins total 20
component chip { n: int }
zone pile: chip visible all
deck chips: chip in pile = [chip(n: k) for k in 1..6]
player var score: int = 0
var out: list[int] = []
procedure count(k: supply, p: player) {
  let held = [c.n for c in pile if tokens(c, k) > 0 and c.n > p.score]
  for c in sorted(c for c in pile if tokens(c, coins) > 1 by c.n) {
    out = out + [tokens(c, k)]
  }
  out = out + held
}
phase main {
  for c in pile { gain c.n % 3 coins to c }
  players[0].score = 1
  call count(coins, players[0])
  end game
}
"""


def _each_item(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ProcedureWriter, "expr_once", lambda self, node, indent, span, scope=None:
                        self.compiler.writer.write(node, self.scope() if scope is None else scope))


def test_the_tables_are_read_once_before_the_statement(monkeypatch):
    game = rulelang.load(RULES)
    code = game.generated_code()
    assert re.search(r"_t\d+ = st\.supply_counts\[_l\d+\.name\]", code)
    assert re.search(r"_t\d+ = st\.supply_counts\[_k\d+\]", code)
    out = game.new_initial_state().to_json()["globals"]["out"]
    assert out == [2, 2, 2, 4, 5]
    _each_item(monkeypatch)
    general = rulelang.load(RULES).generated_code()   # (a gain in place reads its supply's table: not this)
    assert not re.search(r"_t\d+ = st\.supply_counts\[_l\d+\.name\]", general)
    assert rulelang.load(RULES).new_initial_state().to_json()["globals"]["out"] == out


def test_jamaica_plays_as_with_its_tables_read_at_each_item(monkeypatch):
    path = GAMES / "jamaica.rules"
    played = [worked_states(rulelang.load(path, players=4), seed) for seed in range(3)]
    _each_item(monkeypatch)
    assert played == [worked_states(rulelang.load(path, players=4), seed) for seed in range(3)]
