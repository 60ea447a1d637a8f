"""A saved state is read back only if its values fit the game's declared types and the
engine's number range (issue 25, item 6): ``game.state_from_json`` and the server's
``restore`` refuse ``"me"`` for a ``player?`` variable and ``10**4000`` for an ``int`` with
E606 and the JSON path of the bad value, while a valid state still reads back, byte for byte.
"""
from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import play_randomly

import rulelang
from rulelang.errors import StateDataError
from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.sessions import Session
from rulelang.interpreter.tables.runtime import MAX_INT

ROOT = Path(__file__).resolve().parent.parent
KUHN = rulelang.load(ROOT / "games" / "kuhn_poker.rules", players=2)
TTT = rulelang.load(ROOT / "games" / "tic_tac_toe.rules", players=2)

Edit = Callable[[dict[str, Any]], None]


def kuhn_data() -> dict[str, Any]:
    """A saved Kuhn poker state after one bet (``winner: player?``, ``staked: int`` per player)."""
    return play_randomly(KUHN.new_initial_state(seed=3), random.Random(3), 1).to_json()


def edited(data: dict[str, Any], edit: Edit) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    edit(changed)
    return changed


def set_global(name: str, value: object) -> Edit:
    return lambda data: data["globals"].__setitem__(name, value)


def set_owned(table: str, name: str, owner: int, value: object) -> Edit:
    return lambda data: data[table][name].__setitem__(owner, value)


BAD = [
    ("a string for a player?", set_global("winner", "me"), "$.globals.winner", "must be a player or none"),
    ("a huge number for an int", set_owned("player_vars", "staked", 0, 10**4000), "$.player_vars.staked[0]",
     "beyond the engine's range"),
    ("2^63 for an int", set_owned("player_vars", "staked", 1, 2**63), "$.player_vars.staked[1]",
     "beyond the engine's range"),
    ("2^63 written in hexadecimal", set_owned("player_vars", "staked", 1, {"int": hex(2**63)}),
     "$.player_vars.staked[1]", "beyond the engine's range"),
    ("-2^63 for an int", set_owned("player_vars", "staked", 0, -(2**63)), "$.player_vars.staked[0]",
     "beyond the engine's range"),
    ("a huge number for a player?", set_global("winner", 10**40), "$.globals.winner", "beyond the engine's range"),
]
IDS = [case[0] for case in BAD]


@pytest.mark.parametrize(("what", "edit", "path", "words"), BAD, ids=IDS)
def test_state_from_json_refuses_a_value_beyond_its_type_or_range(what: str, edit: Edit, path: str,
                                                                   words: str) -> None:
    data = edited(kuhn_data(), edit)
    before = copy.deepcopy(data)
    with pytest.raises(StateDataError) as caught:
        KUHN.state_from_json(data)
    assert caught.value.diagnostic.code == "E606"
    assert caught.value.path == path
    assert f"at {path}: " in str(caught.value) and words in str(caught.value)
    assert data == before, "the data given was changed"


@pytest.mark.parametrize(("what", "edit", "path", "words"), BAD, ids=IDS)
def test_the_restore_op_refuses_it_with_the_same_code_and_path(what: str, edit: Edit, path: str,
                                                               words: str) -> None:
    session = Session(GameLibrary(ROOT))
    game = session.handle({"id": 1, "op": "load", "path": "games/kuhn_poker.rules", "players": 2})["result"]["game"]
    data = edited(kuhn_data(), edit)
    for form in ({"data": data}, {"text": json.dumps(data)}):
        reply = session.handle({"id": 2, "op": "restore", "game": game, **form})
        assert not reply["ok"]
        assert reply["error"]["code"] == "E606"
        assert f"at {path}: " in reply["error"]["message"] and words in reply["error"]["message"]


def test_a_number_deep_in_a_value_or_a_local_is_held_to_the_range_too() -> None:
    data = kuhn_data()
    local = next(iter(data["frames"][-1]["env"]))
    with pytest.raises(StateDataError) as caught:
        KUHN.state_from_json(edited(data, lambda d: d["frames"][-1]["env"].__setitem__(local, [1, [2, 10**19]])))
    assert caught.value.path == f"$.frames[{len(data['frames']) - 1}].env.{local}[1][1]"
    board = TTT.new_initial_state(seed=1).to_json()
    with pytest.raises(StateDataError) as caught:
        TTT.state_from_json(edited(board, set_owned("space_vars", "mark", 4, -(10**30))))
    assert caught.value.path == "$.space_vars.mark[4]"


def test_the_ends_of_the_range_and_valid_states_read_back_byte_for_byte() -> None:
    data = kuhn_data()
    for value in (MAX_INT, -MAX_INT):
        state = KUHN.state_from_json(edited(data, set_owned("player_vars", "staked", 0, value)))
        assert state.to_json()["player_vars"]["staked"][0] == value
    for game, seed in ((KUHN, 3), (TTT, 1)):
        state = play_randomly(game.new_initial_state(seed=seed), random.Random(seed), 2)
        text = json.dumps(state.to_json(), sort_keys=True)
        assert json.dumps(game.state_from_json(json.loads(text)).to_json(), sort_keys=True) == text


def test_the_restore_op_reads_a_valid_state_back_byte_for_byte() -> None:
    session = Session(GameLibrary(ROOT))
    game = session.handle({"id": 1, "op": "load", "path": "games/kuhn_poker.rules", "players": 2})["result"]["game"]
    text = json.dumps(kuhn_data(), ensure_ascii=False, separators=(",", ":"))
    reply = session.handle({"id": 2, "op": "restore", "game": game, "text": text})
    assert reply["ok"], reply
    saved = session.handle({"id": 3, "op": "save", "state": reply["result"]["state"], "text": True})
    assert saved["result"]["text"] == text
