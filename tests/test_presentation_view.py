"""The presentation (``present { ... }``) as the hosts read it: the seat's view data carries
it (display names, colours, card faces, space labels, tokens on their spaces, the variables
shown), the terminal shows display names and faces and hides what is not shown, and a
ruleset without it looks as before."""
from __future__ import annotations

import json

import rulelang
from rulelang.interpreter.hosts.present_view import presented_view_data, with_tokens
from rulelang.interpreter.hosts.seat_view import SeatData, view_data
from rulelang.interpreter.hosts.terminal_view import render_text

PLAIN = """
game "presented" { players 2 }
enum colour { red, blue }
component card { colour: colour  rank: int  place: space } shown as "{colour} {rank}"
board grid = square_grid(2, 1)
zone table: card visible all
zone box: card visible all
deck cards: card in table = [card(colour: c, rank: r, place: space(grid, "b1")) for c in values(colour) for r in 1..2]
var round: int = 0
var round_limit: int = 100
var trump: colour = red
player var strength: int = 0
player var gold: int = 3
phase main {
  choose c in list(table) by players[0] prompt "take a card"
  move c to box
  round += 1
  if round >= round_limit { end game }
}
"""

PRESENTED = PLAIN + """
present {
  colour.red { name "Hearts"  colour "#c62828"  symbol "H" }
  colour.blue { name "Spades"  colour "navy" }
  card { name "playing card"  title "{colour}"  corner "{rank}"  colour colour  on place  within table }
  grid { label "{name}"  corner "{x}" }
  round { name "turn" }
  table { name "on the table" }
  show round, trump, gold
}
"""


def _view(text: str) -> dict[str, object]:
    game = rulelang.load(text, players=2)
    state = game.new_initial_state(seed=1)
    return presented_view_data(SeatData(game), state, 0)


def _presentation(text: str) -> dict[str, object]:
    found = _view(text)["presentation"]
    assert isinstance(found, dict)
    return found


def test_the_view_carries_display_names_colours_and_faces() -> None:
    shown = _presentation(PRESENTED)
    assert shown["declared"] is True
    assert shown["enums"] == {"colour": {"red": {"name": "Hearts", "colour": "#c62828", "symbol": "H"},
                                         "blue": {"name": "Spades", "colour": "navy"}}}
    assert shown["cards"]["0"] == {"kind": "card", "colour": "#c62828", "title": "Hearts", "corner": "1",
                                   "text": "Hearts | 1"}
    assert shown["cards"]["3"]["colour"] == "navy"
    json.dumps(shown)


def test_the_view_carries_space_labels_and_tokens_where_they_lie() -> None:
    shown = _presentation(PRESENTED)
    assert shown["spaces"] == {"grid": {"a1": {"label": "a1", "corner": "0"}, "b1": {"label": "b1", "corner": "1"}}}
    tokens = shown["tokens"]["grid"]["b1"]
    assert [t["component"] for t in tokens] == [0, 1, 2, 3]
    assert tokens[0]["title"] == "Hearts"


def test_tokens_are_drawn_only_within_their_zone() -> None:
    game = rulelang.load(PRESENTED, players=2)
    state = game.new_initial_state(seed=1)
    state.apply_action(state.legal_actions(0)[0], player=0)     # the first card leaves the table
    shown = presented_view_data(SeatData(game), state, 0)["presentation"]
    assert [t["component"] for t in shown["tokens"]["grid"]["b1"]] == [1, 2, 3]


def test_only_the_variables_named_by_show_are_shown() -> None:
    shown = _presentation(PRESENTED)
    assert shown["shown_variables"] == {"global": ["round", "trump"], "player": ["gold"], "space": [],
                                        "component": [], "supply": []}


def test_a_ruleset_without_presentation_shows_everything_as_before() -> None:
    shown = _presentation(PLAIN)
    assert shown["declared"] is False
    assert shown["cards"] == {} and shown["spaces"] == {} and shown["tokens"] == {}
    assert shown["shown_variables"]["global"] == ["round", "round_limit", "trump"]
    game = rulelang.load(PLAIN, players=2)
    state = game.new_initial_state(seed=1)
    plain = view_data(SeatData(game), state, 0)
    assert {k: v for k, v in _view(PLAIN).items() if k != "presentation"} == plain


def test_the_terminal_shows_display_names_faces_and_hides_what_is_not_shown() -> None:
    game = rulelang.load(PRESENTED, players=2)
    text = render_text(game, game.new_initial_state(seed=1), 0, width=120)
    assert "turn 0" in text and "trump Hearts" in text
    assert "round_limit" not in text and "strength" not in text
    assert "Hearts | 1" in text and "on the table" in text and "table " not in text.replace("on the table", "")
    assert "H" in text.split("board grid")[1].split("zones")[0]      # the symbols of the tokens on b1


def test_the_terminal_without_presentation_is_unchanged() -> None:
    game = rulelang.load(PLAIN, players=2)
    text = render_text(game, game.new_initial_state(seed=1), 0, width=120)
    assert "round_limit 100" in text and "strength 0" in text and "trump red" in text
    assert "red 1" in text


COLOURED = """
game "coloured" { players 2 }
board track = load_board("track.yaml")
board grid = square_grid(2, 1)
var round: int = 0
phase main {
  round += 1
  end game
}
present {
  track { label "{price}" }
  track { colour ground }
  track.water { colour "#8ec5ea"  name "open water" }
  track.rock { colour "slategrey" }
  grid { label "{name}" }
}
"""

TRACK = """kind: graph
spaces:
  - {id: start, next: shore, ground: meadow, price: 0}
  - {id: shore, next: ridge, ground: water, price: 2}
  - {id: ridge, next: start, ground: rock, price: 5}
"""


def test_the_view_carries_the_colouring_attribute_and_the_looks_of_its_values(tmp_path) -> None:
    (tmp_path / "track.yaml").write_text(TRACK, encoding="utf-8")
    (tmp_path / "coloured.rules").write_text(COLOURED, encoding="utf-8")
    game = rulelang.load(str(tmp_path / "coloured.rules"), players=2)
    shown = presented_view_data(SeatData(game), game.new_initial_state(seed=1), 0)["presentation"]
    assert shown["boards"] == {"track": {"attribute": "ground",
                                         "values": {"water": {"colour": "#8ec5ea", "name": "open water"},
                                                    "rock": {"colour": "slategrey"}}}}
    assert shown["spaces"]["track"]["shore"] == {"label": "2"}   # two entries for one board: both kept
    json.dumps(shown)


def test_a_board_without_colours_declared_is_left_to_the_page() -> None:
    assert _presentation(PRESENTED)["boards"] == {}
    assert _presentation(PLAIN)["boards"] == {}


PLACED = """
game "placed" { players 2 }
component piece { name: string } shown as "{name}"
board grid = square_grid(2, 1)
zone out: piece visible all
zone box: piece visible all
deck pieces: piece in box = [piece(name: "pawn"), piece(name: "rook")]
component var at: space? = none
setup {
  for c in box { c.at = space(grid, "b1") }
  move top(box) to out
}
phase main {
  choose c in list(out) by players[0]
  end game
}
present {
  piece { symbol "P"  on at  within out }
}
"""


def test_a_component_drawn_as_a_token_is_not_also_a_mark_on_its_space() -> None:
    game = rulelang.load(PLACED, players=2)
    state = game.new_initial_state(seed=1)
    seat = SeatData(game)
    view = presented_view_data(seat, state, 0)
    drawn = view["presentation"]["tokens"]["grid"]["b1"]
    assert [t["label"] for t in drawn] == ["rook"]            # in 'out': a token
    assert view["marks"] == {"grid": {"b1": ["pawn"]}}         # in 'box', not drawn: a mark
    obs = state.observation(0)
    assert with_tokens(seat, seat.board_marks(obs), obs) == {("grid", "b1"): ["pawn", "P"]}   # the terminal's


def test_a_thing_named_by_two_entries_takes_the_properties_of_both_the_later_where_both_say() -> None:
    red = 'colour.red { name "Hearts"  colour "#c62828"  symbol "H" }'
    card = 'card { name "playing card"  title "{colour}"  corner "{rank}"  colour colour  on place  within table }'
    split = PRESENTED.replace(red, 'colour.red { name "Cups"  colour "#c62828" }\n'
                                   '  colour.red { name "Hearts"  symbol "H" }')
    split = split.replace(card, 'card { name "card"  title "{colour}"  colour colour  on place  within table }\n'
                                '  card { name "playing card"  corner "{rank}" }')
    assert split.count("colour.red {") == 2 and split.count("  card {") == 2
    assert _presentation(split) == _presentation(PRESENTED)
