"""An attribute of a board's spaces (``s.terrain``) in a game of one board is read from a
tuple of that attribute of each of its spaces, by the space's index (compiler/fields.py
``space_attributes``): the
same values as the space's own attributes, none where a space has none; a game of two boards
reads each space's own."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import worked_states

import rulelang
from rulelang.interpreter.compiler import codegen

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "B" { players 1 }
board island = load_board("island.yaml")
BOARDS
var out: list[int] = []
var marks: list[string] = []
phase p {
  out = [s.index for s in spaces(island) if s.terrain == "lake" or s.landmark == "statue"]
  marks = [if s.landmark == none then "-" else s.landmark for s in spaces(island) if s.terrain != "sea"]
  OTHER
  end game
}
"""


def _load(tmp_path: Path, two_boards: bool) -> rulelang.Game:
    shutil.copy(GAMES / "tobago" / "island.yaml", tmp_path / "island.yaml")
    shutil.copy(GAMES / "jamaica" / "board.yaml", tmp_path / "track.yaml")
    text = RULES.replace("BOARDS", 'board track = load_board("track.yaml")' if two_boards else "")
    text = text.replace("OTHER", 'out = out + [s.points for s in spaces(track) if s.points < 0]' if two_boards else "")
    path = tmp_path / "game.rules"
    path.write_text(text, encoding="utf-8")
    return rulelang.load(path)


def _values(game: rulelang.Game) -> dict[str, object]:
    return game.new_initial_state().to_json()["globals"]


def test_one_board_reads_the_tuple_of_each_attribute_and_the_same_values(tmp_path, monkeypatch):
    game = _load(tmp_path, two_boards=False)
    listing = game.generated_code()
    assert "<the terrain of each space>" in listing and "attributes.get" not in listing
    fast = _values(game)
    monkeypatch.setattr(codegen, "space_attributes", lambda cat, name: None)
    assert "attributes.get" in _load(tmp_path, two_boards=False).generated_code()
    assert fast == _values(_load(tmp_path, two_boards=False))
    assert "-" in fast["marks"] and "statue" in fast["marks"]   # (a space without one: none)


def test_two_boards_read_each_spaces_own_attributes(tmp_path):
    game = _load(tmp_path, two_boards=True)
    assert "of each space>" not in game.generated_code()
    values = _values(game)
    assert values["out"][-1] == -5 and len(values["out"]) > 9


@pytest.mark.parametrize("seed", [0, 1])
def test_tobago_plays_as_with_the_spaces_own_attributes(seed, monkeypatch):
    fast = worked_states(rulelang.load(GAMES / "tobago.rules", players=3), seed)
    monkeypatch.setattr(codegen, "space_attributes", lambda cat, name: None)
    slow = rulelang.load(GAMES / "tobago.rules", players=3)
    assert "of each space>" not in slow.generated_code()
    assert fast == worked_states(slow, seed)
