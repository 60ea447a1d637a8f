"""Zones the compiler knows are zones (a declared zone, ``p.zone`` of a known player) read
in place: a comprehension, any(), all() and first() go through a zone's list without a
copy (``runtime.zone_items``), ``x in z``, ``list(z)`` and ``size(z)`` read it at once. The
games play, and count their work, as with every zone read through the general operations."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import worked_states

import rulelang
from rulelang.interpreter.compiler.codegen import ExpressionWriter

GAMES = Path(__file__).resolve().parent.parent / "games"

BIG = '''\
    game "G" { players 1 }
    component chip { n: int }
    zone pile: chip visible all
    deck chips: chip in pile = [chip(n: k) for k in 1..100]
    var out: int = 0
    phase main {
      out = size([c for c in pile if c.n % 2 == 0]) + size(list(pile)) + size(pile)
      out += if any(c.n == 100 for c in pile) then 1000 else 0
      out += if top(pile) in pile then 10000 else 0
      end game
    }
'''



def _not_known_as_zones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ExpressionWriter, "zone_read", lambda self, node, scope: False)


@pytest.mark.parametrize(("name", "players"), [("jamaica", 4), ("jolly_roger", 4)])
def test_games_play_and_count_work_as_with_zones_read_in_general(name, players, monkeypatch):
    path = GAMES / f"{name}.rules"
    fast = rulelang.load(path, players=players)
    assert "<the items of a zone, read in place>" in fast.generated_code()
    played = [worked_states(fast, seed) for seed in range(2)]
    _not_known_as_zones(monkeypatch)
    slow = rulelang.load(path, players=players)
    assert "<the items of a zone, read in place>" not in slow.generated_code()
    assert played == [worked_states(slow, seed) for seed in range(2)]


def test_a_long_zone_is_charged_as_before(tmp_path, monkeypatch):
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(BIG), encoding="utf-8")
    found = []
    for general in (False, True):
        if general:
            _not_known_as_zones(monkeypatch)
        state = rulelang.load(path, players=1).new_initial_state()
        found.append((state.to_json()["globals"]["out"], state.work))
    assert found[0] == found[1] and found[0][0] == 11250 and found[0][1] >= 200
