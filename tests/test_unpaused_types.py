"""Procedures that may pause, run as Python functions until they pause (compiler/unpaused.py),
read their held parameters as their declared types promise: every call of one checks its
arguments where the text does not prove them (the rules' error, located at the call), the
call from another such function included."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

from conftest import generated_functions as code
from conftest import setup_failure as failure

import rulelang

CALLS = '''\
    game "G" { players 2 }
    player var score: int = 0
    var got: int = 0
    procedure ask(p: player, n: int) {
      p.score = p.score + n
      if n > 100 {
        choose k in [n, n + 1] by p
        got = k
      }
    }
    procedure outer(p: player, n: int) {
      call ask(p, ARG)
      if n > 100 {
        choose k in [1, 2] by p
      }
    }
    phase main {
      for q in players {
        call outer(q, 2)
      }
      end game
    }
'''


def load(tmp_path: Path, source: str, players: int = 2) -> rulelang.Game:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return rulelang.load(path, players=players)


def unpaused_functions(game: rulelang.Game) -> list[str]:
    """The source of each function that runs a procedure until it pauses."""
    units = re.split(r"\n(?=def )", code(game))
    return [unit for unit in units if unit.strip() and "until it pauses" in unit.strip().splitlines()[0]]


def test_a_held_parameter_is_read_without_testing_its_kind(tmp_path):
    game = load(tmp_path, CALLS.replace("ARG", "n"))
    functions = unpaused_functions(game)
    assert len(functions) == 2
    assert all("_no_attribute" not in f and "_order" not in f for f in functions)
    assert game.new_initial_state().to_json()["player_vars"]["score"] == [2, 2]


def test_an_argument_of_another_kind_is_the_rules_error_at_the_call_of_one_such_function(tmp_path):
    game = load(tmp_path, CALLS.replace("ARG", '"two"'))
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.code == "E602" and diagnostic.span.line == 12
    assert diagnostic.message.startswith("'n' of ask must be an int, got string")
