"""``x.name = value`` written in place (interpreter/compiler/writes.py): the same values,
events and errors as ``OwnedVariable.write``, which the other cases still call."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_written

import rulelang
from rulelang.errors import RulesRuntimeError

WRITES = """\
    game "G" { players 2 }
    board grid = square_grid(2, 1)
    space var mark: player? = none
    player var n: int = 0
    phase p {
      repeat {
        choose x in [0, 1, 2] by players[0]
        players[1].n = [5, 6, "seven"][x]
        spaces(grid)[x % 2].mark = if x == 1 then players[1] else none
      }
    }
"""


def game(tmp_path: Path) -> rulelang.Game:
    return load_written(tmp_path, WRITES)


def test_a_write_in_place_changes_the_variable_of_its_owner_only(tmp_path: Path) -> None:
    state = game(tmp_path).new_initial_state()
    state.apply_action(state.legal_actions(0)[1], player=0)
    assert state.to_json()["player_vars"] == {"n": [0, 6]}
    assert state.to_json()["space_vars"] == {"mark": [None, {"player": 1}]}
    state.apply_action(state.legal_actions(0)[0], player=0)
    assert state.to_json()["player_vars"] == {"n": [0, 5]}
    assert state.to_json()["space_vars"] == {"mark": [None, {"player": 1}]}


def test_a_write_recorded_as_events_is_the_same_write(tmp_path: Path) -> None:
    state = game(tmp_path).new_initial_state(events=True)
    mark = state.event_count()
    state.apply_action(state.legal_actions(0)[1], player=0)
    sets = [e for e in state.events(since=mark) if e["type"] == "set"]
    assert [(e["var"], e["value"]) for e in sets] == [("n", 6), ("mark", {"player": 1})]


def test_a_value_of_another_type_is_the_rules_error_at_the_write_and_changes_nothing(tmp_path: Path) -> None:
    state = game(tmp_path).new_initial_state()
    before = state.to_json()
    with pytest.raises(RulesRuntimeError) as caught:
        state.apply_action(state.legal_actions(0)[2], player=0)
    diagnostic = caught.value.diagnostic
    assert diagnostic.span is not None and diagnostic.span.line == 8
    assert "variable 'n' must be an int, got string" in diagnostic.message
    assert state.to_json() == before
