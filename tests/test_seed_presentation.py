"""The seed games' presentations: what their ``present`` blocks give the seat's view and the
terminal (display names, card faces, Jamaica's tolls and points on the track and treasure
tokens on their lairs, Tobago's landmarks, settings and sort keys left out)."""
from __future__ import annotations

import re

import pytest

import rulelang
from rulelang.interpreter.hosts.present_view import presented_view_data
from rulelang.interpreter.hosts.seat_view import SeatData
from rulelang.interpreter.hosts.terminal_view import render_text

SEED_GAMES = ["jamaica", "jamaica_2p", "jolly_roger", "asterix", "tobago"]


def _start(name: str) -> tuple[rulelang.interpreter.game.Game, dict[str, object]]:
    game = rulelang.load(f"games/{name}.rules")
    state = game.new_initial_state(seed=5)
    return game, presented_view_data(SeatData(game), state, 0)["presentation"]


@pytest.mark.parametrize("name", SEED_GAMES)
def test_each_seed_game_declares_a_presentation_that_hides_its_settings(name: str) -> None:
    game, shown = _start(name)
    assert shown["declared"] is True
    text = render_text(game, game.new_initial_state(seed=5), 0, width=160)
    for setting in ("round_limit", "printed_points_only", "lair_optional", "strength", "only_largest_set",
                    "idefix_always_looks", "turn_limit", "always_raise", "blocked_hand_exchange"):
        assert setting not in text


def test_jamaica_draws_tolls_and_points_on_the_track_and_tokens_on_the_lairs() -> None:
    game, shown = _start("jamaica")
    spaces = shown["spaces"]["track"]
    assert spaces["01"] == {"label": "sea 1", "corner": "-5"}
    assert spaces["03"] == {"corner": "-5"}                    # a lair: no toll
    assert spaces["port_royal"] == {"corner": "15"}
    lairs = [s.name for s in game.catalog.boards["track"].spaces if s.attributes.get("type") == "lair"]
    tokens = shown["tokens"]["track"]
    assert sorted(tokens) == sorted(lairs) and all(t[0]["symbol"] == "✕" for t in tokens.values())


def test_jamaica_cards_have_faces_and_colours() -> None:
    _, shown = _start("jamaica")
    faces = [card for card in shown["cards"].values() if card["kind"] == "action_card"]
    assert faces and all(card["text"].count(" | ") == 1 and card["colour"].startswith("#") for card in faces)
    assert all(card["title"] == card["text"].split(" | ")[0] and " / " in card["body"] for card in faces)


def test_tobago_labels_its_landmarks() -> None:
    game, shown = _start("tobago")
    labels = shown["spaces"]["island"]
    landmarks = {s.name: s.attributes["landmark"] for s in game.catalog.boards["island"].spaces
                 if "landmark" in s.attributes}
    assert {space: texts["label"] for space, texts in labels.items()} == landmarks


def test_jolly_roger_shows_display_names_in_the_terminal() -> None:
    game = rulelang.load("games/jolly_roger.rules")
    state = game.new_initial_state(seed=5)
    while not state.observation(0)["players"][0].get("hand"):
        state.apply_action(state.legal_actions(state.current_players()[0])[0], player=state.current_players()[0])
    text = render_text(game, state, 0, width=160)
    assert "line (front first)" in text and "open chest holds" in text
    assert "players (* to act)" not in text     # no player variable is shown: no panel of them


def _supplies_panel(name: str) -> str:
    game = rulelang.load(f"games/{name}.rules")
    text = render_text(game, game.new_initial_state(seed=5), 0, width=160)
    return text.split("supplies")[1].split("─ game")[0]


def test_a_supply_players_never_hold_is_not_shown_for_them_but_on_its_components() -> None:
    panel = _supplies_panel("jamaica")                  # doubloons, food, gunpowder lie in holds
    assert "player 1 hold 1" in panel and not re.search(r"player 1\s+0", panel)
    assert re.search(r"player 1\s+0", _supplies_panel("jolly_roger"))   # gold is shown


# The colours the page gave these spaces from its own table of words before the rulesets
# declared them: declaring them kept the page's look.
JAMAICA_COLOURS = {"home": "#f4a6a6", "port": "#f3d28a", "sea": "#8ec5ea", "lair": "#c49ad9"}
TOBAGO_COLOURS = {"sea": "#8ec5ea", "lake": "#4f9fd8", "river": "#a9dcef", "jungle": "#3f8b48",
                  "mountain": "#9c8a73", "beach": "#f1dc9a", "scrubland": "#b5c46e"}


@pytest.mark.parametrize("name,board,attribute,colours", [
    ("jamaica", "track", "type", JAMAICA_COLOURS), ("jamaica_2p", "track", "type", JAMAICA_COLOURS),
    ("tobago", "island", "terrain", TOBAGO_COLOURS)])
def test_the_boards_declare_the_colours_of_their_spaces(name: str, board: str, attribute: str,
                                                        colours: dict[str, str]) -> None:
    game, shown = _start(name)
    declared = shown["boards"][board]
    assert declared["attribute"] == attribute
    assert {value: look["colour"] for value, look in declared["values"].items()} == colours
    values = {s.attributes[attribute] for s in game.catalog.boards[board].spaces}
    assert values == set(colours)       # every space has a declared colour
