"""The type of a simultaneous choice's map, ``map[player, T]``: a procedure or a function takes
one as a parameter and a variable keeps one; saved states and positions keep it; a value of
another kind is the rules' error at its statement (E602), a saved state or a position
holding one is refused (E606); the linter knows a map's entries and keys (players), and a
map whose keys are not players is E205; tensors write a map seat by seat."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import rulelang
from rulelang import StateDataError
from rulelang.check.linter import lint_text
from rulelang.interpreter.state import tensors
from rulelang.interpreter.state.unmoved import may_hold_components

RULES = '''\
    game "G" { players 3 }
    component card { rank: int }
    zone draw: card visible all
    player zone hand: card visible owner
    deck cards: card in draw = [card(rank: r) for r in 1..9]
    player var gold: int = 5
    var last: map[player, int]? = none
    var kept: map[player, card]? = none
    function highest(bids: map[player, int]) -> int = max(bids[q] for q in bids)
    procedure settle(bids: map[player, int]) {
      for q in bids {
        q.gold -= bids[q]
      }
    }
    procedure take(picks: map[player, card]) {
      for q in picks {
        move picks[q] to q.hand
      }
      choose n in [TOP, 0] by players[0]
      players[0].gold += n
    }
    phase main {
      simultaneous p in players choose bid in 0..3
      call settle(BIDS)
      last = bid
      simultaneous p in players choose pick in draw
      kept = KEPT
      call take(pick)
      end game
    }
    score p = p.gold
'''
RIGHT = {"BIDS": "bid", "KEPT": "pick", "TOP": "highest(last)"}
LEFT_OUT = ("history", "decisions", "log", "private_log", "events")


def load(tmp_path: Path, **changes: str) -> rulelang.Game:
    source = textwrap.dedent(RULES)
    for key, text in {**RIGHT, **changes}.items():
        source = source.replace(key, text)
    path = tmp_path / "game.rules"
    path.write_text(source, encoding="utf-8")
    return rulelang.load(path, players=3)


def bid_and_pick(game: rulelang.Game) -> rulelang.State:
    """Players bid 1, 2 and 3, then pick the cards of ranks 1, 2 and 3: paused at the
    choice inside 'take'."""
    state = game.new_initial_state(seed=1)
    for player in range(3):
        state.apply_action(state.legal_actions(player)[player + 1], player=player)
    for player in range(3):
        state.apply_action(next(a for a in state.legal_actions(player) if str(a) == str(player + 1)),
                           player=player)
    return state


def kept(state: rulelang.State) -> dict[str, object]:
    return {k: v for k, v in state.to_json().items() if k not in LEFT_OUT}


def test_a_map_is_passed_to_procedures_and_functions_and_kept_in_variables(tmp_path):
    game = load(tmp_path)
    state = bid_and_pick(game)
    data = state.to_json()
    assert data["player_vars"]["gold"] == [4, 3, 2]   # settle(bid)
    assert data["globals"]["last"] == {"map": [[{"player": p}, p + 1] for p in range(3)]}
    assert [str(a) for a in state.legal_actions(0)] == ["3", "0"]   # highest(last)
    picked = [next(c["label"] for c in game.catalog_info()["components"] if c["id"] == pair[1]["component"])
              for pair in data["globals"]["kept"]["map"]]
    assert picked == ["1", "2", "3"]
    state.apply_action(state.legal_actions(0)[0], player=0)
    assert state.is_terminal() and state.returns() == [7, 3, 2]


def test_a_map_is_read_back_from_a_saved_state_and_a_position(tmp_path):
    game = load(tmp_path)
    state = bid_and_pick(game)
    again = game.state_from_json(state.to_json())
    assert again.to_json() == state.to_json()
    position = state.to_position()
    assert "global last = {player 1: 1, player 2: 2, player 3: 3}" in position
    from_position = game.state_from_position(position)
    assert kept(from_position) == kept(state)
    for copy in (again, from_position):
        copy.apply_action(copy.legal_actions(0)[0], player=0)
        assert copy.returns() == [7, 3, 2]


@pytest.mark.parametrize(("changes", "line", "message"), [
    ({"BIDS": "[1, 2, 3]"}, 24, "'bids' of settle must be a map from players to int, got list"),
    ({"KEPT": "bid"}, 27, "variable 'kept' must be a map from players to component or none, got map"),
    ({"TOP": "highest(picks)"}, 19, "'bids' of highest must be a map from players to int, got map"),
])
def test_a_value_of_another_kind_is_the_rules_error_at_its_statement(tmp_path, changes, line, message):
    game = load(tmp_path, **changes)
    with pytest.raises(rulelang.RulesRuntimeError) as caught:
        bid_and_pick(game)
    diagnostic = caught.value.diagnostic
    assert (diagnostic.code, diagnostic.span.line) == ("E602", line)
    assert diagnostic.message.startswith(message)


CARD = {"component": 0}
WRONG_MAPS = [[1, 2, 3], {"map": [[{"player": 0}, CARD]]}, {"map": [[1, 1]]}]


@pytest.mark.parametrize("wrong", WRONG_MAPS)
def test_a_saved_state_holding_a_wrong_map_is_refused(tmp_path, wrong):
    game = load(tmp_path)
    data = bid_and_pick(game).to_json()
    with pytest.raises(StateDataError) as caught:
        game.state_from_json({**data, "globals": {**data["globals"], "last": wrong}})
    assert caught.value.diagnostic.code == "E606" and "last" in str(caught.value)


def test_a_saved_frame_whose_map_parameter_breaks_its_type_is_refused(tmp_path):
    game = load(tmp_path)
    data = bid_and_pick(game).to_json()
    frame = next(f for f in data["frames"] if f["procedure"] == "take")
    edited = {**data, "frames": [{**f, "env": {**f["env"], "picks": data["globals"]["last"]}} if f is frame else f
                                 for f in data["frames"]]}
    with pytest.raises(StateDataError) as caught:
        game.state_from_json(edited)
    assert caught.value.diagnostic.code == "E606"
    assert "parameter picks of take must be a map from players to component, not map" in str(caught.value)


@pytest.mark.parametrize("wrong", ["[1, 2, 3]", "{player 1: true}", "{1: 1}", '{player 1: card "1"}'])
def test_a_position_holding_a_wrong_map_is_refused(tmp_path, wrong):
    game = load(tmp_path)
    position = bid_and_pick(game).to_position()
    with pytest.raises(StateDataError) as caught:
        game.state_from_position(position.replace("{player 1: 1, player 2: 2, player 3: 3}", wrong))
    diagnostic = caught.value.diagnostic
    assert diagnostic.code == "E606" and "'last' is declared 'map[player, int]?'" in diagnostic.message


def lint(extra: str) -> list[tuple[str, str]]:
    source = textwrap.dedent(RULES)
    for key, text in RIGHT.items():
        source = source.replace(key, text)
    source = source.replace("  end game\n", textwrap.indent(textwrap.dedent(extra), "  ") + "  end game\n")
    return [(d.code, d.message) for d in lint_text(source) if d.severity == "error"]


def test_the_linter_knows_a_maps_keys_and_entries():
    assert lint("") == []
    assert lint('''\
        for q in last {
          move top(draw) to q
        }
        log sum(kept[q] for q in kept)
        log highest([1, 2])
        log highest(pick)
        ''') == [("E206", "'move ... to' needs a zone, not a player"),
                 ("E206", "sum() needs numbers, and each item here is a component"),
                 ("E206", "argument 'bids' of highest() is declared map[player, int], not a list"),
                 ("E206", "argument 'bids' of highest() is declared map[player, int], not a map to a component")]


def test_a_map_whose_keys_are_not_players_is_e205():
    found = [(d.code, d.message, d.span.column)
             for d in lint_text('game "G" { players 2 }\nvar m: map[int, bool]? = none\nphase main {\n'
                                '  log m\n  end game\n}\n')]
    assert found == [("E205", "the keys of a map are players, not 'int'", 12)]


def test_the_tensors_write_a_map_seat_by_seat(tmp_path):
    game = load(tmp_path)
    state = bid_and_pick(game)
    blocks = {b.name: b for b in tensors.layout(game).blocks}
    observed = tensors.observation_tensor(state, 0)
    last = blocks["global last"]
    assert observed[last.offset:last.offset + last.size] == [1.0, 2.0, 3.0]
    cards = blocks["global kept"]
    assert cards.size == 3 * 9
    per_seat = [observed[cards.offset + 9 * seat:cards.offset + 9 * seat + 9] for seat in range(3)]
    assert [row.index(1.0) for row in per_seat] == [0, 1, 2] and sum(map(sum, per_seat)) == 3


def test_the_catalog_names_the_type_and_a_map_of_numbers_holds_no_component(tmp_path):
    game = load(tmp_path)
    variables = game.catalog_info()["variables"]["global"]
    assert variables["last"]["type"] == "map[player, int]?" and variables["kept"]["type"] == "map[player, card]?"
    decls = game.catalog.global_vars
    assert not may_hold_components(game.catalog, decls["last"].type)
    assert may_hold_components(game.catalog, decls["kept"].type)
