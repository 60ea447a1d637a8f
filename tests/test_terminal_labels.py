"""The terminal draws the presentation's space texts (``present { BOARD { label ... corner
... } }``) on a track and a hex map instead of the spaces' raw attributes, a space keeping
its ground (its first text attribute) where its label does not write it; a board without
declared texts is drawn from its attributes as before."""
from __future__ import annotations

from conftest import ROOT

import rulelang
from rulelang.interpreter.hosts.present_view import with_tokens
from rulelang.interpreter.hosts.seat_view import mapping_of
from rulelang.interpreter.hosts.terminal_view import SeatView, plain_text, render_text

JAMAICA, TOBAGO = ROOT / "games" / "jamaica.rules", ROOT / "games" / "tobago.rules"


def board_text(path, board: str, *, presented: bool = True) -> str:
    game = rulelang.load(path)
    view = SeatView(game)
    state = game.new_initial_state(seed=7, events=True)
    obs = mapping_of(state.observation(0))
    marks = with_tokens(view, view.board_marks(obs), obs)
    return plain_text(view.board_panel(board, marks, obs if presented else None), 120)


def test_a_track_shows_each_space_label_and_corner_instead_of_its_attributes():
    text = board_text(JAMAICA, "track")
    assert "each space: number, name, label or type, (corner); -> where it leads next" in text
    assert " 02 port 2 (-5)" in text and " 36 port 4 (10) -> port_royal" in text
    assert " 03 lair (-5)" in text                      # no label (a lair has no price): its ground
    assert "port 2 -5" not in text and "price" not in text


def test_a_track_without_the_observation_is_drawn_from_its_attributes_as_before():
    text = board_text(JAMAICA, "track", presented=False)
    assert "each space: number, name, type, price, points" in text and " 02 port 2 -5" in text


def test_a_hex_map_shows_the_initial_of_each_label_and_keeps_its_ground():
    text = board_text(TOBAGO, "island")
    assert "label: h hut, s statue, p palm" in text and "landmark:" not in text
    assert "terrain: S sea, B beach, J jungle" in text
    assert "4,2 (mountain, statue) statue faces 2" in text


def test_the_whole_view_draws_the_labels():
    game = rulelang.load(JAMAICA)
    text = render_text(game, game.new_initial_state(seed=7, events=True), 0, width=120)
    assert " 02 port 2 (-5)" in text
