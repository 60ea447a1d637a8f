"""The variable of a 'for' or a 'choose' that alone binds its name, over a list whose items are
certainly players, spaces or components, is held to that kind across a pause
(interpreter/compiler/held.py): the code after the pause writes `cell.mark = p` without testing
the kinds of `cell` and `p`, and a saved state whose frame breaks them is refused (E606). The
variable of a 'for' over integers (a range) is held an integer (s42-typed)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import generated_functions as code
from conftest import load_written
from test_blocks import failures_where_all_agree, one_by_one
from test_tails import counters_recorded

import rulelang
from rulelang.errors import StateDataError
from rulelang.interpreter.compiler import held
from rulelang.interpreter.model.program import line_text

__all__ = ["counters_recorded"]   # (the fixture, used by name)

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


ROUNDS = '''\
    game "G" { players 2 }
    var seen: int = 0
    phase play {
      for r in 1..3 {
        log "round " + r
        for p in players {
          choose x in [1, 2] by p
          seen = seen + x
        }
        log "after round " + r + ": " + seen
      }
      end game
    }
'''


def test_a_loop_variable_over_a_range_is_held_an_integer(tmp_path, monkeypatch):
    # (each item of 1..3 an integer: held to int across the choices, so its log line tests no kind)
    game = load(tmp_path, ROUNDS)
    written = code(game)
    assert "_MAX_INT" not in written.split("after round")[0] and "_NAMED" not in written
    state = game.new_initial_state()
    state.apply_action(state.legal_actions(0)[0], player=0)
    data = state.to_json()
    frame = data["frames"][0]
    assert game.state_from_json(data).legal_actions(1) and "r" in frame["env"]
    with pytest.raises(StateDataError) as caught:   # (a saved frame whose r is no integer: refused)
        game.state_from_json({**data, "frames": [{**frame, "env": {**frame["env"], "r": {"player": 1}}}]})
    assert caught.value.diagnostic.code == "E606" and "local r of play must be an int" in str(caught.value)
    with monkeypatch.context() as patch:   # (as before: r not held, its kind tested where it is logged)
        patch.setattr(held, "items_bound", lambda cat, source, scope: None)
        tested = load(tmp_path, ROUNDS)
    assert "_MAX_INT" in code(tested)
    for seed in range(3):   # (the same lines and states)
        played = []
        for each in (game, tested):
            state = each.new_initial_state(seed=seed)
            while not state.is_terminal():
                player = state.current_players()[0]
                state.apply_action(state.legal_actions(player)[seed % 2], player=player)
            played.append(([line_text(line) for line in state.log_lines], state.to_json()))
        assert played[0] == played[1] and played[0][0][0] == "round 1"


GLOBAL_ROUND = ROUNDS.replace("var seen: int = 0", "var seen: int = 0\n    var round: int = 0").replace(
    '        log "round " + r\n', '        round = r\n        log "round " + round\n')


@pytest.mark.usefixtures("counters_recorded")
def test_a_global_written_from_a_held_integer_is_not_checked(tmp_path, monkeypatch):
    # (r held an int: `round = r` writes it as it is, procedures.py's learnt scope; the global's
    # type is checked where r is not held, with the same states, lines and errors at every budget)
    game = load(tmp_path, GLOBAL_ROUND)
    assert "<checks variable 'round'>" not in game.generated_code()
    with monkeypatch.context() as patch:
        patch.setattr(held, "items_bound", lambda cat, source, scope: None)
        tested = load(tmp_path, GLOBAL_ROUND)
    assert "<checks variable 'round'>" in tested.generated_code()
    failures = failures_where_all_agree((game, tested, one_by_one(load(tmp_path, GLOBAL_ROUND))), 4, range(1, 40))
    assert failures and all("step" in str(failure[0]) for failure in failures)
