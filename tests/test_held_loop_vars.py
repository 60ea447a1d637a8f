"""The variable of a 'for' or a 'choose' that alone binds its name, over a list whose items are
certainly players, spaces or components, is held to that kind across a pause
(interpreter/compiler/held.py): the code after the pause writes `cell.mark = p` without testing
the kinds of `cell` and `p`, and a saved state whose frame breaks them is refused (E606)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import generated_functions as code
from conftest import load_written

import rulelang
from rulelang.errors import StateDataError

MARKS = '''\
    game "G" { players 2 }
    board grid = square_grid(2, 2)
    space var mark: player? = none
    player zone hand: card visible owner
    zone stock: card visible all
    component card { rank: int }
    deck cards: card in stock = [card(rank: r) for r in 1..4]
    player var last: int = 0
    phase play {
      repeat {
        for p in players {
          choose c in stock by p otherwise { end game }
          move c to p.hand
          choose cell in [s for s in spaces(grid) if s.mark == none] by p otherwise { end game }
          cell.mark = p
          p.last = c.rank
        }
      }
    }
'''


def load(tmp_path: Path, source: str) -> rulelang.Game:
    return load_written(tmp_path, source, players=2)


def test_the_write_of_held_variables_tests_no_kind(tmp_path):
    written = code(load(tmp_path, MARKS))
    assert "st.space_values[_k" in written and "type(_t" not in written   # cell.mark = p, p.last = c.rank
    rebound = code(load(tmp_path, MARKS.replace("p.last = c.rank", "let cell = p\n          p.last = c.rank")))
    assert "type(_t" in rebound and "is _Space" in rebound   # cell bound twice: tested as before


def test_held_variables_play_as_the_variables_bound_twice(tmp_path):
    held = load(tmp_path, MARKS)
    tested = load(tmp_path, MARKS.replace("p.last = c.rank", "p.last = c.rank\n          let cell = p"))
    for seed in range(5):
        chooser, states = random.Random(seed), [held.new_initial_state(seed=seed), tested.new_initial_state(seed=seed)]
        while not states[0].is_terminal():
            player = states[0].current_players()[0]
            at = chooser.randrange(len(states[0].legal_actions(player)))
            for state in states:
                state.apply_action(state.legal_actions(player)[at], player=player)
            first, second = (state.to_json() for state in states)
            assert first["space_vars"] == second["space_vars"] and first["player_vars"] == second["player_vars"]
            assert first["zones"] == second["zones"] and states[0].is_terminal() == states[1].is_terminal()


@pytest.mark.parametrize(("local", "value", "message"), [
    ("p", {"board": "grid", "space": "a1"}, "local p of play must be a player"),
    ("cell", {"player": 1}, "local cell of play must be a space"),
    ("c", 3, "local c of play must be a card")])
def test_a_saved_frame_whose_held_variable_breaks_its_kind_is_refused(tmp_path, local, value, message):
    game = load(tmp_path, MARKS)
    state = game.new_initial_state()
    for _ in range(2):   # a card, then a cell: the next choice has p, cell and c bound
        state.apply_action(state.legal_actions(0)[0], player=0)
    data = state.to_json()
    assert game.state_from_json(data).legal_actions(1)
    frame = data["frames"][0]
    assert {"p", "cell", "c"} <= set(frame["env"])
    edited = {**data, "frames": [{**frame, "env": {**frame["env"], local: value}}]}
    with pytest.raises(StateDataError) as caught:
        game.state_from_json(edited)
    assert caught.value.diagnostic.code == "E606"
    assert message in str(caught.value)


CHOOSER = '''\
    game "G" { players 2 }
    board grid = square_grid(2, 2)
    space var mark: player? = none
    var chooser: player? = none
    phase play {
      repeat {
        for p in players {
          chooser = if p.index == 0 then p else CHOOSER
          choose cell in [s for s in spaces(grid) if s.mark == none] by BY otherwise { end game }
          cell.mark = p
        }
      }
    }
'''


def test_a_chooser_proven_a_player_is_not_tested_before_its_kept_decision(tmp_path):
    proven = code(load(tmp_path, CHOOSER.replace("CHOOSER", "p").replace("BY", "p")))
    assert "if _p.index == _d.players[0]:" in proven and "type(_p) is _Player and _p.index" not in proven
    unproven = load(tmp_path, CHOOSER.replace("CHOOSER", "none").replace("BY", "chooser"))
    assert "type(_p) is _Player and _p.index" in code(unproven)
    state = unproven.new_initial_state()
    with pytest.raises(rulelang.RulesRuntimeError) as caught:   # the second seat's chooser is none
        state.apply_action(state.legal_actions(0)[0], player=0)
    assert state.current_players() == [0]   # the state as it was
    assert "'by' needs a player" in caught.value.diagnostic.message and caught.value.diagnostic.span.line == 9
