"""Declared types the engine holds to (interpreter/tables/declared.py, compiler/scope.py): a
parameter never given another value holds a value of its declared type, checked at the call
where the text does not prove it (the rules' error, located at the call) and when a saved
state is read back; its reads are then plain Python."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import generated_functions as code
from conftest import load_written
from conftest import setup_failure as failure

import rulelang
from rulelang.errors import StateDataError


def load(tmp_path: Path, source: str, players: int = 1) -> rulelang.Game:
    return load_written(tmp_path, source, players=players)


HELD = '''\
    game "G" { players 2 }
    player var score: int = 0
    var seen: list[int] = []
    function worth(p: player, n: int) -> int = p.score + n
    procedure add(p: player, n: int) {
      p.score = p.score + n
      if n < 3 { seen = seen + [worth(p, n)] }
    }
    phase main {
      for q in players {
        call add(q, 2)
      }
      end game
    }
'''


def test_a_held_parameter_is_read_without_testing_its_kind(tmp_path):
    game = load(tmp_path, HELD, players=2)
    source = code(game)
    assert "_no_attribute" not in source and "_order" not in source
    state = game.new_initial_state()
    assert state.to_json()["globals"]["seen"] == [4, 4]


TURN = '''\
    game "G" { players 2 }
    component card { rank: int }
    deck cards: card in draw = [card(rank: r) for r in 1..4]
    zone draw: card visible count
    player zone hand: card visible owner
    player var score: int = 0
    procedure turn(p: player) {
      let n = size(p.hand) + p.score
      choose c in draw by p
      move c to p.hand
      p.score = n + 1
    }
    phase main {
      for q in [players[1], players[0], WHO] {
        call turn(q)
      }
      end game
    }
'''


def test_a_held_parameter_of_a_procedure_that_pauses_is_read_without_testing_its_kind(tmp_path):
    game = load(tmp_path, TURN.replace("WHO", "players[1]"), players=2)
    source = code(game)
    unpaused = source[source.index("until it pauses"):]
    unpaused = unpaused[:unpaused.index("\ndef ")]
    assert "_Player" not in unpaused and "_no_attribute" not in unpaused and "len(st.zones[" in unpaused
    state = game.new_initial_state()
    for player in (1, 0, 1):
        state.apply_action(state.legal_actions(player)[0], player=player)
    assert state.is_terminal() and state.to_json()["player_vars"]["score"] == [1, 3]
    game = load(tmp_path, TURN.replace("WHO", "3"), players=2)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions(1)[0], player=1)
    with pytest.raises(rulelang.RulesRuntimeError) as caught:
        state.apply_action(state.legal_actions(0)[0], player=0)
    diagnostic = caught.value.diagnostic
    assert (diagnostic.span.line, diagnostic.code) == (15, "E602")
    assert diagnostic.message.startswith("'p' of turn must be a player, got int")


def test_an_argument_of_another_kind_is_the_rules_error_at_the_call(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        var total: int = 0
        procedure add(n: int) {
          total = total + n
        }
        phase main {
          for x in [1, "two"] {
            call add(x)
          }
          end game
        }
    ''')
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 8 and diagnostic.code == "E602"
    assert diagnostic.message.startswith("'n' of add must be an int, got string")


def test_a_function_argument_is_checked_too(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        var found: list[int] = []
        function twice(p: player) -> int = p.index * 2
        phase main {
          found = [twice(x) for x in [players[0], 3]]
          end game
        }
    ''')
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 5
    assert diagnostic.message.startswith("'p' of twice must be a player, got int")


def test_a_list_is_checked_item_by_item_and_none_only_where_optional(tmp_path):
    template = '''\
        game "G" { players 1 }
        var n: int = 0
        procedure take(xs: list[int], p: player?) {
          n = size(xs)
        }
        phase main {
          for x in [[1, 2], ARG] {
            call take(x, none)
          }
          end game
        }
    '''
    game = load(tmp_path, template.replace("ARG", "[3]"))
    assert game.new_initial_state().to_json()["globals"]["n"] == 1
    game = load(tmp_path, template.replace("ARG", '[3, "x"]'))
    assert failure(game).diagnostics[0].message.startswith("'xs' of take must be a list of int, got list")


def test_a_list_of_lists_is_checked_list_by_list_and_none_only_where_optional(tmp_path):
    template = '''\
        game "G" { players 1 }
        var n: int = 0
        function total(xss: list[list[player?]]) -> int = sum(size(xs) for xs in xss)
        phase main {
          n = total([[players[0], none], [], ARG])
          end game
        }
    '''
    game = load(tmp_path, template.replace("ARG", "[players[0]]"))
    assert game.new_initial_state().to_json()["globals"]["n"] == 3
    for wrong, got in (("[1]", "list"), ("none", "list"), ("players[0]", "list"), ("[[players[0]]]", "list")):
        game = load(tmp_path, template.replace("ARG", wrong))
        message = failure(game).diagnostics[0].message
        assert message == f"'xss' of total must be a list of list of player or none, got {got} (in main)"
    game = load(tmp_path, template.replace("[[players[0], none], [], ARG]", "none"))
    message = failure(game).diagnostics[0].message
    assert message.startswith("'xss' of total must be a list of list of player or none, got none")


def test_a_parameter_given_another_value_is_not_held(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        var out: string = ""
        procedure show(n: int) {
          n = n + 1
          out = "" + n
        }
        phase main {
          call show(1)
          end game
        }
    ''')
    assert game.new_initial_state().to_json()["globals"]["out"] == "2"


PAUSING = '''\
    game "G" { players 1 }
    var got: int = 0
    procedure ask(p: player, n: int) {
      choose k in [n, n + 1] by p
      got = k
    }
    phase main {
      call ask(players[0], 5)
      end game
    }
'''


def test_a_saved_frame_whose_parameter_breaks_its_type_is_refused(tmp_path):
    game = load(tmp_path, PAUSING)
    data = game.new_initial_state().to_json()
    frame = next(f for f in data["frames"] if f["procedure"] == "ask")
    assert game.state_from_json(data).legal_actions(0)
    frame["env"]["n"] = "five"
    with pytest.raises(StateDataError) as caught:
        game.state_from_json(data)
    assert caught.value.diagnostic.code == "E606"
    assert re.search(r"frames\[\d\]\.env.*parameter n of ask must be an int", str(caught.value))


def test_a_variable_written_with_another_kind_is_the_rules_error_at_the_write(tmp_path):
    template = '''\
        game "G" { players 1 }
        var total: int = 0
        player var best: list[int] = []
        phase main {
          for x in [1, "two"] {
            WRITE
          }
          end game
        }
    '''
    for write, message in (("total = x", "variable 'total' must be an int, got string"),
                           ("players[0].best = [x]", "variable 'best' must be a list of int, got list")):
        game = load(tmp_path, template.replace("WRITE", write))
        (diagnostic,) = failure(game).diagnostics
        assert diagnostic.span.line == 6 and diagnostic.message.startswith(message)


def test_an_initial_value_of_another_kind_fails_at_its_declaration(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        var seat: player = 3
        phase main { end game }
    ''')
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 2 and diagnostic.message.startswith("variable 'seat' must be a player, got int")


def test_a_variable_read_is_known_by_its_declared_type(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 2 }
        board grid = square_grid(2, 2)
        space var count: int = 0
        var here: space = space(grid, "a1")
        var seen: list[int] = []
        phase main {
          seen = [s.count + here.index for s in spaces(grid) if s.count < here.index]
          end game
        }
    ''', players=2)
    assert not re.search(r"_no_attribute|_order|type\(", code(game))
    assert game.new_initial_state().to_json()["globals"]["seen"] == []


def test_a_saved_variable_of_another_kind_is_refused(tmp_path):
    game = load(tmp_path, PAUSING)
    data = game.new_initial_state().to_json()
    data["globals"]["got"] = "many"
    with pytest.raises(StateDataError) as caught:
        game.state_from_json(data)
    assert "$.globals" in str(caught.value) and "got must be an int, not string" in str(caught.value)
