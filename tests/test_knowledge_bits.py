"""Who knows where a component is (``State.component_knowledge``): its bits always hold those
of the players who see its zone in full, in a new game, after every move, in a state loaded
from data and in a sample, so a move adds only the players who see the zone it enters, and
a move into a zone nobody sees in full (a face-down pile) writes no knowledge at all."""
from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

import rulelang

GAMES = Path(__file__).resolve().parent.parent / "games"

PILES = '''\
    game "G" { players 2 }
    component card { n: int }
    zone pile: card visible count
    zone table: card visible all
    player zone hand: card visible owner
    deck cards: card in pile = [card(n: k) for k in 1..6]
    phase main {
      for p in players {
        move top(pile) to p.hand
      }
      for p in players {
        move p.hand to pile
      }
      move pile to table
      end game
    }
'''


def _holds_its_zones_seers(state) -> bool:
    seers = state.game.catalog.zone_seers
    return all(known & seers[slot] == seers[slot]
               for known, slot in zip(state.component_knowledge, state.component_zone, strict=True))


def _checked_game(game, seed: int) -> int:
    """A random game, its every state checked, and a copy loaded from its saved data and a
    sample checked along the way; the number of states checked."""
    chooser, state, checked = random.Random(seed), game.new_initial_state(seed=seed), 0
    while not state.is_terminal():
        assert _holds_its_zones_seers(state)
        player = state.current_players()[0]
        if checked % 7 == 3:
            loaded = game.state_from_json(state.to_json())
            assert _holds_its_zones_seers(loaded)
            sample = state.resample_from_infostate(player, seed=checked)
            assert _holds_its_zones_seers(sample)
            state = loaded   # (played on from the data: its moves keep the bits too)
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
        checked += 1
    assert _holds_its_zones_seers(state)
    return checked


@pytest.mark.parametrize(("name", "players"), [("jolly_roger", 4), ("jolly_roger", 3), ("jamaica", 3)])
def test_every_component_carries_its_zones_seers(name, players):
    game = rulelang.load(GAMES / f"{name}.rules", players=players)
    assert sum(_checked_game(game, seed) for seed in range(2)) > 20


def test_a_state_loaded_from_data_knows_what_each_zone_shows(tmp_path):
    path = tmp_path / "piles.rules"
    path.write_text(textwrap.dedent(PILES), encoding="utf-8")
    game = rulelang.load(path, players=2)
    data = game.new_initial_state(seed=1).to_json()
    loaded = game.state_from_json(data)
    seers = game.catalog.zone_seers
    assert loaded.component_knowledge == [seers[slot] for slot in loaded.component_zone]


def test_a_move_into_a_zone_nobody_sees_writes_no_knowledge(tmp_path):
    path = tmp_path / "piles.rules"
    path.write_text(textwrap.dedent(PILES), encoding="utf-8")
    game = rulelang.load(path, players=2)
    code = game.generated_code()
    # the deal to the hands adds their owners; the hands and the pile moved face down add none;
    # the pile moved to the table (seen by all) adds everyone
    assert code.count("_m_known[_m_id] |=") + code.count("st.component_knowledge[_m_id] |=") == 2
    state = game.new_initial_state(seed=0)
    assert state.is_terminal() and _holds_its_zones_seers(state)
    assert state.component_knowledge == [3] * 6
