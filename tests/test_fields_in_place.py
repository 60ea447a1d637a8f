"""``c.name`` of a component read in place (``c.record[name]``, codegen.py) where the
component has that field; one without it gives the rules' error, as the reader does."""
from __future__ import annotations

from pathlib import Path

from conftest import generated_functions as code
from conftest import load_written
from conftest import setup_failure as failure

import rulelang

RULES = '''\
    game "G" { players 1 }
    component gem { worth: int }
    component rock { weight: int }
    zone gems: gem visible all
    zone rocks: rock visible all
    deck all_gems: gem in gems = [gem(worth: k) for k in 1..4]
    deck all_rocks: rock in rocks = [rock(weight: k) for k in 1..3]
    var out: int = 0
    phase main {
      out = sum(g.worth for g in SOURCE)
      end game
    }
'''


def load(tmp_path: Path, source: str) -> rulelang.Game:
    return load_written(tmp_path, source, players=1)


def test_a_field_is_read_in_place(tmp_path):
    game = load(tmp_path, RULES.replace("SOURCE", "gems"))
    assert ".record[" in code(game)
    assert game.new_initial_state().to_json()["globals"]["out"] == 10


def test_a_component_without_the_field_is_the_rules_error(tmp_path):
    game = load(tmp_path, RULES.replace("SOURCE", "list(gems) + list(rocks)"))
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.code == "E602" and diagnostic.span.line == 10
    assert diagnostic.message.startswith("a rock has no field 'worth'")
