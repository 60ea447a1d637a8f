"""Scenario tests for games/asterix.rules: the Idéfix look (A6).

Each test starts a two-player game (its deck shuffled by the seed), has player 1 play
Idéfix and player 2 a Gaul on the first turn, and checks what follows.
"""
from __future__ import annotations

import pytest
from conftest import GAMES_DIR

import rulelang

RULES = GAMES_DIR / "asterix.rules"


@pytest.fixture(scope="module")
def game2():
    return rulelang.load(RULES, players=2)


def labels(state, player):
    return [str(a) for a in state.legal_actions(player)]


def act(state, player, label):
    (action,) = [a for a in state.legal_actions(player) if str(a) == label]
    state.apply_action(action, player=player)


def zone(state, game, name):
    return [game.catalog.components[i].label for i in state.to_json()["zones"][name]]


def idefix_against_a_gaul(game, always_looks=False):
    """Player 1 plays Idéfix, player 2 his Gaul 10, on the first card; the state and the
    card Idéfix may look at."""
    state = game.new_initial_state(seed=1)
    if always_looks:
        data = state.to_json()
        data["globals"]["idefix_always_looks"] = True
        state = game.state_from_json(data)
    assert sorted(state.current_players()) == [0, 1]
    next_card = zone(state, game, "deck")[-1]
    act(state, 0, "Idéfix (Astérix)")
    act(state, 1, "Obélix 10 (4 potions)")
    return state, next_card


def test_the_idefix_player_may_decline_to_look(game2):
    """A6: "pouvez regarder la carte suivante": looking is his choice (it used to be forced)."""
    state, next_card = idefix_against_a_gaul(game2)
    assert state.current_players() == [0]
    assert labels(state, 0) == ["look", "do not look"]
    assert "may look at the next card" in state.prompt(0)
    act(state, 0, "do not look")
    assert "Idéfix (Astérix)" in zone(state, game2, "hand/0")           # back in hand
    assert zone(state, game2, "peek/0") == [] and zone(state, game2, "taken/0") == []
    assert sorted(state.current_players()) == [0, 1]                     # the next turn
    assert zone(state, game2, "table") == [next_card]                    # the card he did not see
    assert state.check_invariants() == []


def test_the_idefix_player_who_looks_keeps_or_gives_the_card(game2):
    state, next_card = idefix_against_a_gaul(game2)
    act(state, 0, "look")
    assert zone(state, game2, "peek/0") == [next_card]
    assert labels(state, 0) == ["keep", "give"]
    assert next_card in state.prompt(0)
    act(state, 0, "keep")
    assert zone(state, game2, "taken/0") == [next_card]
    assert state.check_invariants() == []


def test_the_switch_makes_the_idefix_player_look_without_asking(game2):
    state, next_card = idefix_against_a_gaul(game2, always_looks=True)
    assert labels(state, 0) == ["keep", "give"]
    assert zone(state, game2, "peek/0") == [next_card]


def test_a_gauls_label_counts_its_potions_in_the_singular_for_one(game2):
    labels_of_gauls = [c.label for c in game2.catalog.components if "potion" in c.label]
    assert "Astérix 4 (1 potion)" in labels_of_gauls and "Obélix 10 (4 potions)" in labels_of_gauls
    assert not [label for label in labels_of_gauls if "(1 potions)" in label]
