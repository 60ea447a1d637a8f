"""Locals held to their type across a pause (interpreter/compiler/held.py): a 'let' that alone
binds its name and whose value the text proves a list of players (or a component...), and the
map of a simultaneous choice of options of a known kind, are read after the pause without
tests of their kind; a state whose frame breaks them is refused (E606), and a map read without
an entry is the rules' error at its statement, as before."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import generated_functions as code
from conftest import load_written

import rulelang
from rulelang.errors import StateDataError

TURN = '''\
    game "G" { players 3 }
    player var total: int = 0
    zone draw: card visible count
    player zone hand: card visible owner
    component card { rank: int }
    deck cards: card in draw = [card(rank: r) for r in 1..9]
    procedure turn() {
      let active = [p for p in players if p != players[2]]
      simultaneous p in active choose pick in draw
      for p in active {
        move pick[p] to p.hand
      }
      let high = [p for p in READ if pick[p].rank > 4]
      choose c in [1, 2] by players[0]
      for p in high {
        p.total += c
      }
    }
    phase main {
      call turn()
      end game
    }
'''


def load(tmp_path: Path, source: str) -> rulelang.Game:
    return load_written(tmp_path, source, players=3)


def paused_at_the_choose(game: rulelang.Game) -> rulelang.State:
    state = game.new_initial_state(seed=3)
    for player, at in ((0, 0), (1, -1)):   # rank 1, then rank 9
        state.apply_action(state.legal_actions(player)[at], player=player)
    return state


def test_the_list_and_the_map_are_read_in_place_after_the_pause(tmp_path):
    game = load(tmp_path, TURN.replace("READ", "active"))
    resumable = next(unit for unit in code(game).split("\ndef ") if "statements at line 10" in unit)
    assert "_index(st, env[" not in resumable and "_no_attribute" not in resumable   # pick[p].rank, p.hand
    assert re.search(r"(env\[_k\d+\]|_h\d+)\[_v\d+\]\.record\[", resumable)   # (the map: read once before the loop)
    state = paused_at_the_choose(game)
    state.apply_action(state.legal_actions(0)[1], player=0)
    assert state.is_terminal() and state.to_json()["player_vars"]["total"] == [0, 2, 0]


def test_a_map_read_without_an_entry_is_the_rules_error_at_its_statement(tmp_path):
    game = load(tmp_path, TURN.replace("READ", "players"))
    state = game.new_initial_state(seed=3)
    state.apply_action(state.legal_actions(0)[0], player=0)
    with pytest.raises(rulelang.RulesRuntimeError) as caught:
        state.apply_action(state.legal_actions(1)[0], player=1)
    diagnostic = caught.value.diagnostic
    assert diagnostic.message.startswith("no entry for player 3") and diagnostic.span.line == 13
    assert state.current_players() == [1]   # the state as it was


def test_a_saved_frame_whose_held_local_breaks_its_type_is_refused(tmp_path):
    game = load(tmp_path, TURN.replace("READ", "active"))
    data = paused_at_the_choose(game).to_json()
    assert game.state_from_json(data).legal_actions(0)
    frame = next(f for f in data["frames"] if f["procedure"] == "turn")
    for local, value, message in (("active", [1, 2], "local active of turn must be a list of player"),
                                  ("pick", [1], "local pick of turn must be a map from players to component"),
                                  ("high", "all", "local high of turn must be a list of player")):
        edited = {**data, "frames": [{**f, "env": {**f["env"], local: value}} if f is frame else f
                                     for f in data["frames"]]}
        with pytest.raises(StateDataError) as caught:
            game.state_from_json(edited)
        assert caught.value.diagnostic.code == "E606"
        assert message in str(caught.value)


LOOP = '''\
    game "G" { players 3  max_steps STEPS }
    var total: int = 0
    procedure add(xs: list[int]) {
      for x in xs {
        total += x
      }
    }
    phase main {
      call add([k for k in 1..SIZE])
      end game
    }
'''


@pytest.mark.parametrize(("size", "steps", "total"), [(10, 100, 55), (120, 1000, 7260), (120, 700, None)])
def test_a_loop_over_a_list_the_text_proves_takes_it_as_it_is_charged_if_long(tmp_path, size, steps, total):
    game = load(tmp_path, LOOP.replace("SIZE", str(size)).replace("STEPS", str(steps)))
    # (the list, taken as it is when short, into the loop, or first into a local whose rounds are
    # charged at once: bulk_rounds.py)
    assert re.search(r"(for _l\d+ in|_s\d+ =) \(_l\d+ if len\(_l\d+\) <= 64 else _as_list\(st, _l\d+\)\)", code(game))
    if total is not None:
        assert game.new_initial_state().to_json()["globals"]["total"] == total
        return
    with pytest.raises(rulelang.RulesRuntimeError) as caught:   # the range, the comprehension, then the loop's list
        game.new_initial_state()
    diagnostic = caught.value.diagnostic
    assert diagnostic.span.line == 4 and "more than 700 items of work" in diagnostic.message


def test_the_options_of_a_zone_are_given_the_action_ids_of_their_components(tmp_path):
    game = load(tmp_path, TURN.replace("READ", "active"))
    assert re.search(r"_per\[_p\.index\] = \(_o, tuple\(map\(_k\d+, _o\)\)\)", code(game))
    state = game.new_initial_state(seed=3)
    for player in (0, 1):
        actions = state.legal_actions(player)
        assert [a.id for a in actions] == [game.catalog.encode(a.value) for a in actions] and len(actions) == 9
