"""The terminal view of one seat (rulelang.interpreter.hosts.terminal_view): panels drawn from the
observation, the catalog info and the boards' data, for every ruleset in games/."""
from __future__ import annotations

import functools
import json
import random
import re

import pytest
from conftest import GAMES_DIR, game_cases, play_randomly
from rich.console import Console

import rulelang
from rulelang.boards import board_from_data, hex_grid
from rulelang.interpreter.hosts.seat_view import seat_order
from rulelang.interpreter.hosts.terminal_view import (
    SeatView,
    draw_hex_map,
    draw_square_grid,
    draw_track,
    initials,
    plain_text,
    render_text,
    render_view,
)

WIDTH = 120


@functools.cache
def load(name, players=None):
    """A ruleset of games/ (a Game is immutable: the tests share them)."""
    return rulelang.load(GAMES_DIR / f"{name}.rules", players=players)


def text_of(game, state, player, width=WIDTH):
    """The view as the text a terminal shows, through rich's recording console."""
    console = Console(record=True, width=width, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(render_view(game, state, player))
    console.file.close()
    return console.export_text()


def panel(text, title):
    """The lines of the panel whose title starts with ``title``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"\W+{re.escape(title)}", line))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(("╰", "+-")))
    return lines[start + 1:end]


@pytest.mark.parametrize(("path", "players"), game_cases())
def test_every_ruleset_renders_through_a_random_game(path, players):
    """At the start, mid-game (for every seat) and at the end of a seeded random game."""
    game = rulelang.load(path, players=players)
    view = SeatView(game)
    state = game.new_initial_state(seed=3)
    rng = random.Random(3)
    for steps, seats in ((0, [0]), (12, range(players)), (10_000, [players - 1])):
        play_randomly(state, rng, steps)
        for seat in seats:
            lines = plain_text(view.render(state, seat), WIDTH).splitlines()
            assert game.title in lines[0] and f"you are player {seat + 1}" in lines[0]
            assert all(len(line) <= WIDTH for line in lines)
    assert state.is_terminal()
    assert "game over" in lines[0]


def test_a_square_grid_shows_row_1_at_the_bottom():
    game = load("tic_tac_toe")
    state = game.new_initial_state()
    state.apply_action(0)                                  # the first player marks a1
    text = text_of(game, state, 1)
    rows = [line for line in text.splitlines() if re.search(r"│ [123] │", line)]
    assert [re.search(r"│ ([123]) │", row).group(1) for row in rows] == ["3", "2", "1"]
    bottom = [cell.strip() for cell in rows[-1].split("│")[3:6]]
    assert bottom == ["P1", ".", "."]                       # a1 is the bottom-left cell
    assert all("P1" not in row for row in rows[:-1])


def test_the_columns_of_a_square_grid_are_named_left_to_right():
    game = load("tic_tac_toe")
    state = game.new_initial_state()
    state.apply_action(2)                                  # c1
    text = text_of(game, state, 1)
    header = next(line for line in text.splitlines() if re.search(r"│\s+a\s+│\s+b\s+│\s+c\s+│", line))
    assert header
    bottom = next(line for line in text.splitlines() if "│ 1 │" in line)
    assert [cell.strip() for cell in bottom.split("│")[3:6]] == [".", ".", "P1"]


def test_the_hidden_hand_of_another_player_shows_only_its_size():
    game = load("kuhn_poker", 2)
    state = game.new_initial_state(seed=1)                 # queen to player 1, king to player 2
    labels = {c["id"]: c["label"] for c in game.catalog_info()["components"]}
    mine, theirs = state.to_json()["zones"]["hand/0"], state.to_json()["zones"]["hand/1"]
    text = text_of(game, state, 0)
    assert labels[mine[0]] in text
    assert labels[theirs[0]] not in text
    assert labels[state.to_json()["zones"]["deck"][0]] not in text     # the deck is seen by nobody
    zones = panel(text, "zones")
    assert any(re.search(r"player 2\s+hidden\s+hand 1", line) for line in zones)


def test_the_public_view_shows_each_seat_once_and_no_seat_as_yours():
    game = load("kuhn_poker", 2)
    state = game.new_initial_state(seed=7)
    text = render_text(game, state, rulelang.CHANCE)
    zones = panel(text, "zones")
    assert [line.split()[2:4] for line in zones] == [["1", "hidden"], ["2", "hidden"]]   # one hand per seat
    assert "you" not in text and text.startswith("Kuhn poker - the public view")
    for seat in (0, 1):                                      # a seat's view: its own hand first, as "you"
        rows = panel(render_text(game, state, seat), "zones")
        assert len(rows) == 2 and rows[0].split()[1] == "you"


def test_the_seats_in_view_order():
    assert seat_order(2, 4) == [2, 0, 1, 3]
    assert seat_order(rulelang.CHANCE, 3) == [0, 1, 2]     # -1 is no seat: never the last one
    assert seat_order(5, 3) == [0, 1, 2]


def test_jolly_roger_hands_of_the_others_stay_hidden():
    game = load("jolly_roger", 3)
    state = play_randomly(game.new_initial_state(seed=9), random.Random(9), 6)
    labels = {c["id"]: c["label"] for c in game.catalog_info()["components"]}
    seen = json.dumps(state.observation(0), ensure_ascii=False)
    hidden = [labels[i] for seat in (1, 2) for i in state.to_json()["zones"][f"hand/{seat}"]]
    unseen = [label for label in hidden if f'"{label}"' not in seen and re.search("[a-z]", label)]
    assert unseen, "every card of the others' hands is also in sight: pick another seed"
    text = text_of(game, state, 0)
    for label in unseen:                                   # "red 1" is not "red 10"
        assert not re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text), label
    assert sum("hand " in line and "hidden" in line for line in panel(text, "zones")) == 2
    for i in state.to_json()["zones"]["hand/0"]:          # while the seat's own cards are there
        assert re.search(rf"(?<!\w){re.escape(labels[i])}(?!\w)", text), labels[i]


def test_goods_on_components_appear_in_the_supplies_panel():
    game = load("jamaica", 3)
    # Seed 12: a game with goods loaded after 30 actions.
    state = play_randomly(game.new_initial_state(seed=12), random.Random(12), 30)
    obs = state.observation(0)
    loaded = [(card["label"], card["tokens"]) for view in obs["players"] for zone in view.values()
              if isinstance(zone, list) for card in zone if isinstance(card, dict) and card.get("tokens")]
    assert loaded, "no goods loaded after 30 actions"
    text = text_of(game, state, 0)
    # (a zone's row wraps where the panel ends, inside a component's name too: its words
    # read on, the panels' borders and the line ends left out)
    flowing = " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())
    supplies = panel(text, "supplies")
    header = supplies[0].split()[1:-1]                     # the supplies' names, after "holder"
    for label, tokens in loaded:
        row = next(line for line in supplies if f" {label} " in line)
        counts = row.split(label)[1].split("│")[0].split()
        assert len(counts) == len(tokens)
        assert sorted(map(int, counts)) == sorted(tokens.values())
        for name, count in tokens.items():
            assert name in header
            assert f"{label} [{count} {name}]" in flowing     # and on the component in its zone


def test_the_prompt_and_the_numbered_options_appear():
    game = load("jamaica", 3)
    state = play_randomly(game.new_initial_state(seed=2), random.Random(2), 12)
    while 0 not in state.current_players():
        play_randomly(state, random.Random(5), 1)
    text = text_of(game, state, 0)
    question = panel(text, "your choice")
    assert state.prompt(0) in question[0]
    options = state.legal_actions(0)
    for number, action in enumerate(options, 1):
        assert re.search(rf"│\s+{number}\.\s+{re.escape(str(action))}", "\n".join(question)), action
    assert f"{len(options)} options" in text


def test_a_space_option_says_what_the_space_is():
    game = load("tobago", 2)
    state = game.new_initial_state(seed=1)
    while not any(a.id < 144 for a in state.legal_actions(state.current_players()[0])):
        play_randomly(state, random.Random(1), 1)
    seat = state.current_players()[0]
    text = text_of(game, state, seat)
    first = state.legal_actions(seat)[0]
    terrain = game.catalog.boards["island"].space(str(first)).attributes["terrain"]
    assert re.search(rf"1\.\s+{re.escape(str(first))} \(terrain {terrain}", text)


def test_a_seat_not_to_act_sees_whom_it_waits_for():
    game = load("tic_tac_toe")
    state = game.new_initial_state()
    text = text_of(game, state, 1)
    assert "waiting for player 1" in "\n".join(panel(text, "question"))


def test_the_log_shows_the_last_lines_the_seat_may_see():
    game = load("jamaica", 3)
    state = play_randomly(game.new_initial_state(seed=6), random.Random(6), 25)
    log = state.observation(1)["log"]
    assert len(log) > 3
    text = plain_text(render_view(game, state, 1, log_lines=3), WIDTH)
    lines = panel(text, "log")
    assert [line.strip("│ ") for line in lines] == [entry.strip() for entry in log[-3:]]


def test_a_track_numbers_its_spaces_and_shows_forks_loops_and_pieces():
    board = board_from_data("loop", {"kind": "graph", "spaces": [
        {"id": "start", "next": "b", "kind": "home"},
        {"id": "b", "next": ["c", "d"], "kind": "sea"},
        {"id": "c", "next": "e"}, {"id": "d", "next": "e"},
        {"id": "e", "next": "start", "kind": "port"}]})
    lines = plain_text(draw_track(board, {"d": ["P2"], "e": ["P1", "flag"]}), 40).splitlines()
    assert "kind" in lines[0]
    rows = {line.split()[1]: line for line in lines[1:]}
    assert rows["start"].split()[0] == "1" and rows["e"].split()[0] == "5"
    assert "-> c/d" in rows["b"]                            # a fork
    assert "-> e" in rows["c"]                              # c does not lead to the next in order (d)
    assert "->" not in rows["d"] and "P2" in rows["d"]      # d does
    assert "-> start" in rows["e"] and "P1, flag" in rows["e"]   # the loop closes
    assert "->" not in rows["start"]


def test_the_ship_of_each_player_is_on_its_space_of_the_track():
    game = load("jamaica", 3)
    state = play_randomly(game.new_initial_state(seed=8), random.Random(8), 20)
    view = SeatView(game)
    obs = state.observation(0)
    marks = view.board_marks(obs)
    for seat, data in enumerate(obs["players"]):
        assert f"P{seat + 1}" in marks[("track", data["at"]["space"])]
    board = game.catalog.boards["track"]
    lines = plain_text(draw_track(board, {s: m for (_, s), m in marks.items()}), 50).splitlines()
    at = obs["players"][0]["at"]["space"]
    assert "P1" in next(line for line in lines[1:] if line.split()[1] == at)


def test_a_hex_map_offsets_its_rows_and_shows_terrain_initials_and_coordinates():
    board = hex_grid("h", [{"q": q, "r": r, "terrain": t}
                           for q, r, t in [(0, 0, "sea"), (1, 0, "sand"), (0, 1, "forest"), (1, 1, "sea")]])
    lines = plain_text(draw_hex_map(board, {"1,1": ["P1"]}), 120).splitlines()
    assert lines[0].rstrip() == "  0   1"                   # q above the top row
    assert lines[1].rstrip() == "0 S   A"                   # r, then sea, sand (A: S is taken)
    assert lines[2].rstrip() == "1   F   S*"                # half a hex to the right; *: a footnote
    assert lines[3].rstrip() == "    0   1"                 # q below the bottom row
    assert "terrain: S sea, A sand, F forest" in lines[4]
    assert lines[6].strip() == "1,1 (sea) P1"


def test_a_hex_keeps_its_footnote_when_other_hexes_gain_one():
    """Footnotes are named by their space and kept in board order: not renumbered."""
    board = hex_grid("h", [(q, r) for r in range(3) for q in range(3)])
    alone = plain_text(draw_hex_map(board, {"2,2": ["P1"]}), 120).splitlines()
    more = plain_text(draw_hex_map(board, {"0,0": ["P2"], "1,1": ["X"], "2,2": ["P1"]}), 120).splitlines()
    assert alone[-1] == more[-1] == "2,2 () P1"
    assert more[-3:-1] == ["0,0 () P2", "1,1 () X"]
    assert alone[3].rstrip() == more[3].rstrip() == "2     .   .   .*"   # the hex 2,2 itself


def test_tobago_island_is_drawn_with_its_hexes():
    game = load("tobago", 2)
    state = game.new_initial_state(seed=2)
    text = text_of(game, state, 0)
    board = panel(text, "board island")
    rows = sorted({s.attributes["r"] for s in game.catalog.boards["island"].spaces})
    drawn = [re.sub(r"^ *\d+ ", "", line.strip("│")) for line in board if re.fullmatch(r"│ *\d+ [ A-Za-z*]+│", line)]
    assert len(drawn) == len(rows)
    indents = [len(line) - len(line.lstrip()) for line in drawn]
    assert indents[0] < indents[1] and indents[0] == indents[2]    # each row half a hex from the last
    terrains = {s.attributes["terrain"] for s in game.catalog.boards["island"].spaces}
    legend = next(line for line in board if "terrain: " in line)
    assert all(terrain in legend for terrain in terrains)
    car = state.observation(0)["players"][0]["car"]
    if car is not None:
        assert any(line.strip("│ ").startswith(f"{car['space']} (") and "P1" in line for line in board)
    assert re.fullmatch(r"│ +0 +1 +2 .*│", board[0])   # the q of the top row


def test_initials_are_distinct():
    assert initials(["sea", "scrub", "sand", "s"]) == {"sea": "S", "scrub": "C", "sand": "A", "s": "B"}


def test_the_plain_text_fits_its_width_and_can_be_ascii():
    game = load("tic_tac_toe")
    state = game.new_initial_state()
    state.apply_action(4)
    text = render_text(game, state, 1, width=50, ascii_only=True)
    assert text.isascii()
    assert max(map(len, text.splitlines())) <= 50
    assert "│ 2 │" not in text and "| 2 |" in text
    wide = render_text(game, state, 1, width=90)
    assert max(map(len, wide.splitlines())) == 90


def test_the_view_uses_no_hidden_data_of_the_state():
    """Everything comes from the observation, the decision and static data: the same view
    from two states that differ only in what the seat cannot see."""
    game = load("kuhn_poker", 2)
    a = game.new_initial_state(seed=1)
    b = next(s for s in (a.resample_from_infostate(0, seed) for seed in range(50))
             if s.to_json()["zones"]["hand/1"] != a.to_json()["zones"]["hand/1"])
    assert a.to_json()["zones"]["hand/0"] == b.to_json()["zones"]["hand/0"]
    assert text_of(game, a, 0) == text_of(game, b, 0)


def test_at_a_chance_node_the_seat_waits_for_chance():
    game = load("jolly_roger", 3)
    state = game.new_initial_state(seed=1, explicit_chance=True)
    assert state.is_chance_node()
    assert "waiting for chance" in "\n".join(panel(text_of(game, state, 0), "question"))


def test_many_options_are_numbered_in_columns():
    game = rulelang.load('''
game "Many" { players 2 }
player var n: int = 0
phase p {
  choose k in 0..40 by players[0] prompt "how many"
  players[0].n = k
}
''')
    text = text_of(game, game.new_initial_state(), 0, width=80)
    question = "\n".join(panel(text, "your choice"))
    assert "how many" in question and "41 options" in text
    assert all(re.search(rf"(?<!\d){n + 1}\. {n}(?!\d)", question) for n in range(41))
    assert len(panel(text, "your choice")) < 12


def test_a_square_grid_shows_attributes_where_nothing_lies():
    board = board_from_data("field", {"kind": "square", "width": 2, "height": 2,
                                      "attributes": {"soil": [["rock", "mud"], ["mud", "mud"]]}})
    text = plain_text(draw_square_grid(board, {"b1": ["P2"]}), 40)
    rows = [line for line in text.splitlines() if re.match(r"│\s*[12] │", line)]
    assert [cell.strip() for cell in rows[0].split("│")[2:4]] == ["rock", "mud"]    # row 2, the north edge
    assert [cell.strip() for cell in rows[1].split("│")[2:4]] == ["mud", "P2"]


def test_a_component_option_shows_the_tokens_on_it():
    game = load("jamaica", 3)
    state = game.new_initial_state(seed=12)
    rng = random.Random(12)
    view = SeatView(game)
    spaces = sum(len(b.spaces) for b in game.catalog.boards.values())
    for _ in range(400):
        seat = state.current_players()[0]
        cards = {card["component"]: card for data in state.observation(seat)["players"] for zone in data.values()
                 if isinstance(zone, list) for card in zone if isinstance(card, dict) and card.get("tokens")}
        loaded = [a for a in state.legal_actions(seat) if a.id - spaces in cards]
        if loaded:
            break
        state.apply_action(rng.choice(state.legal_actions(seat)), player=seat)
    assert loaded, "no option named a component with tokens on it"
    question = "\n".join(panel(plain_text(view.render(state, seat), WIDTH), "your choice"))
    for action in loaded:
        tokens = cards[action.id - spaces]["tokens"]
        shown = ", ".join(f"{n} {name}" for name, n in tokens.items())
        assert f"{action} [{shown}]" in question


def test_a_simultaneous_choice_says_who_has_chosen():
    game = load("asterix", 2)
    state = game.new_initial_state(seed=1)
    rng = random.Random(1)
    while state.current_players() != [0, 1]:
        assert not state.is_terminal()
        play_randomly(state, rng, 1)
    state.apply_action(state.legal_actions(1)[0], player=1)
    text = text_of(game, state, 0)
    assert "already chosen: player 2" in "\n".join(panel(text, "your choice (simultaneous)"))


def test_texts_of_the_ruleset_are_never_read_as_markup():
    game = rulelang.load('''
game "a [/] [bold]b" { players 2 }
component chip { name: string } shown as "{name}"
deck chips: chip in pile = [chip(name: "[red]x[/red]"), chip(name: "[/]")]
zone pile: chip visible all
player var note: string = "[italic]n"
phase main {
  log "[/] logged"
  choose c in pile by players[0] prompt "[bold]pick[/bold]"
}
''')
    text = text_of(game, game.new_initial_state(), 0)
    for shown in ("a [/] [bold]b", "[red]x[/red]", "[italic]n", "[/] logged", "[bold]pick[/bold]", "1.  [red]x[/red]",
                  "2.  [/]"):
        assert shown in text, shown
