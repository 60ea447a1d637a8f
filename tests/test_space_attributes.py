"""``s.name`` of a space's attribute in a game of one board that builds no other (compiler/
fields.py ``space_attributes``): read by the space's index from a constant of each space's
value (none where it has none), not from its data; and a board query of a space known to be
one, its other arguments constants, by the space's index from its answers computed at load
where none charges work (known.py ``per_space``). The same values and work as the
general path, which is kept wherever another board may be built while the game runs."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import worked_states

import rulelang
from rulelang.interpreter.compiler import codegen, known

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "A" { players 1 }
board track = load_board("board.yaml")
var prices: list[int] = []
var kinds: list[string] = []
var other: int = 0
var steps: list[int] = []
var here: space = space(track, "01")
phase p {
  steps = [size(ahead(s, 1)) + size(behind(s, 2)) + size(ahead(here, 70)) for s in spaces(track)]
  prices = [if s.price == none then -1 else s.price for s in spaces(track) if s.type != "lair"]
  kinds = [s.type for s in spaces(track)]
  OTHER
  end game
}
"""


def _load(tmp_path: Path, other: str = "") -> rulelang.Game:
    shutil.copy(GAMES / "jamaica" / "board.yaml", tmp_path / "board.yaml")
    path = tmp_path / "game.rules"
    path.write_text(RULES.replace("OTHER", other), encoding="utf-8")
    return rulelang.load(path, players=1)


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codegen, "space_attributes", lambda cat, name: None)
    monkeypatch.setattr(known, "spaces_by_index", lambda cat: None)


def test_attributes_are_read_by_index_as_from_the_data(tmp_path, monkeypatch):
    game = _load(tmp_path)
    code = game.generated_code()
    assert "<the price of each space>" in code and ".attributes.get(" not in code
    assert "<ahead(...) of each space, computed at load>" in code and "<behind(...) of each space" in code
    assert "<ahead(...), kept per space>" in code   # (70 steps: charged, so kept per space as it runs)
    state = game.new_initial_state()
    values, work = state.to_json()["globals"], state.work
    assert values["prices"][0] == -1 and values["kinds"][:2] == ["home", "sea"] and len(values["kinds"]) == 52
    assert len(values["steps"]) == 52 and min(values["steps"]) >= 3
    _general(monkeypatch)
    slow = _load(tmp_path)
    assert "of each space" not in slow.generated_code()
    state = slow.new_initial_state()
    assert (state.to_json()["globals"], state.work) == (values, work)


def test_a_board_built_while_the_game_runs_keeps_the_general_path(tmp_path):
    game = _load(tmp_path, 'if size(kinds) == 0 { log "" + square_grid(2, 2) }')
    assert "of each space>" not in game.generated_code() and ".attributes.get(" in game.generated_code()
    assert game.new_initial_state().to_json()["globals"]["kinds"][:2] == ["home", "sea"]


def test_jamaica_plays_as_with_attributes_read_from_the_data(monkeypatch):
    path = GAMES / "jamaica.rules"
    played = [worked_states(rulelang.load(path, players=4), seed) for seed in range(3)]
    _general(monkeypatch)
    assert played == [worked_states(rulelang.load(path, players=4), seed) for seed in range(3)]
