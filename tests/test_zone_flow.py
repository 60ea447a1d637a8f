"""Which zones a component that has a copy may reach (interpreter/compiler/zone_flow.py): a
simultaneous choice over a hand that no copy ever reaches is compiled without the test for
copies; where a move (directly, through a name, through another zone) can bring copies into
it, the test is kept and the copies still merge; a state made from data that puts copies there
turns the test back on for the game."""
from __future__ import annotations

import pytest
from conftest import rules

import rulelang
from rulelang.interpreter.compiler.zone_flow import copies_apart

TRICK = """
game "Trick" { players 2 }
component card { name: string }
zone pile: card
zone heap: card
player zone hand: card
player deck cards: card in hand = [card(name: "ace" + player_number(me)), card(name: "king" + player_number(me))]
deck bids: card in pile = [card(name: "bid"), card(name: "bid")]

phase play {
  MOVE
  simultaneous p in players choose c in p.hand
  end game
}
score p = 0
"""

REACHING = {   # (moves that bring the two copies into player 1's hand)
    "a zone": "move pile to players[0].hand",
    "a name": "let x = pile\n  move x to players[0].hand",
    "another zone": "move pile to heap\n  move heap to players[0].hand",
    "an item": "move top(pile) to players[0].hand\n  move bottom(pile) to players[0].hand",
    "a procedure's parameter": "call give(top(pile))\n  call give(top(pile))",
}
GIVE = "\nprocedure give(c: card) {\n  move c to players[0].hand\n}\n"


def load(move: str) -> rulelang.Game:
    return rulelang.load(rules(TRICK).replace("MOVE", move) + (GIVE if "give" in move else ""))


def labels(state: rulelang.State, player: int) -> list[str]:
    return [str(a) for a in state.legal_actions(player)]


def test_a_hand_no_copy_reaches_is_offered_without_the_test():
    game = load("move pile to heap")
    assert "_copies and not" in game.generated_code()
    assert copies_apart(game.catalog)[1] == {"pile", "heap"}
    assert game.program.apart is not None and not game.program.apart.broken
    assert labels(game.new_initial_state(), 0) == ["ace1", "king1"]


@pytest.mark.parametrize("how", sorted(REACHING))
def test_where_copies_can_reach_the_hand_the_test_is_kept_and_they_merge(how: str):
    game = load(REACHING[how])
    assert "_copies and not" not in game.generated_code()
    assert "hand" in (copies_apart(game.catalog)[1] or {"hand"})
    assert labels(game.new_initial_state(), 0) == ["ace1", "king1", "bid"]


def test_a_move_to_a_place_not_known_means_any_zone():
    game = load("move pile to zone_of(top(players[1].hand))")
    assert copies_apart(game.catalog)[1] is None and "_copies and not" not in game.generated_code()


def test_a_state_made_from_data_with_copies_in_the_hand_merges_them_again():
    game = load("")
    data = game.new_initial_state().to_json()
    data["zones"]["hand/0"] += data["zones"]["pile"]
    data["zones"]["pile"] = []
    restored = game.state_from_json(data)
    assert game.program.apart is not None and game.program.apart.broken
    assert labels(restored, 0) == ["ace1", "king1", "bid"] and labels(restored, 1) == ["ace2", "king2"]


def test_a_game_gone_leaves_no_catalog_behind():
    import gc
    import weakref

    game = load("")
    copies_apart(game.catalog)   # (the flow is kept by catalog, and must not keep it alive)
    catalog = weakref.ref(game.catalog)
    del game
    gc.collect()
    assert catalog() is None
