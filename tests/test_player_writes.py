"""``p.v = value`` (and ``+=``...) of a player the compiler knows is one written to the
state's table in place (compiler/procedures.py): the value checked against the variable's
type as ``OwnedVariable.write`` checks it (the same error, at the write), and written by
``write`` where the state keeps its events, which then record the same writes."""
from __future__ import annotations

import random
import re
from pathlib import Path

from conftest import generated_functions as code
from conftest import load_written
from conftest import setup_failure as failure

import rulelang

RULES = '''\
    game "G" { players 2 }
    player var score: int = 0
    player var best: list[int] = []
    procedure bump(p: player, x: int) {
      p.score += 2
      p.best = [x] + p.best
    }
    phase main {
      for x in [1, 2, 3] {
        for q in players {
          call bump(q, x)
          choose k in [x, x + 1] by q
          q.score += k
        }
      }
      end game
    }
'''


def load(tmp_path: Path, source: str) -> rulelang.Game:
    return load_written(tmp_path, source, players=2)


def test_a_known_players_variable_is_written_in_place_and_logged_as_before(tmp_path):
    game = load(tmp_path, RULES)
    assert len(re.findall(r"if (?:_st_|st\.)event_log is None:", code(game))) >= 3
    for seed in range(3):
        chooser, plain = random.Random(seed), game.new_initial_state(seed)
        logged = game.new_initial_state(seed, events=True)
        while not plain.is_terminal():
            player = plain.current_players()[0]
            action = chooser.choice(plain.legal_actions(player))
            plain.apply_action(action, player=player)
            logged.apply_action(action.id, player=player)
        saved = logged.to_json()
        saved.pop("events")
        assert plain.to_json() == saved
        sets = [e for e in logged.events() if e["type"] == "set"]
        assert len(sets) == 2 * 3 * 3 and plain.to_json()["player_vars"]["best"] == [[3, 2, 1]] * 2


def test_a_value_of_another_kind_is_the_rules_error_at_the_write(tmp_path):
    game = load(tmp_path, RULES.replace("[x] + p.best", '[x] + ["a"]'))
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.code == "E602" and diagnostic.span.line == 6
    assert diagnostic.message.startswith("variable 'best' must be a list of int, got list")
