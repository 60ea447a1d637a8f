"""Each construct of the language once, in a small inline ruleset, with its outcome asserted.

Rulesets are text passed to rulelang.load. Results are read through the host API: the
state's JSON (globals, player variables, zones), its log, observations and actions.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from conftest import rules

import rulelang
from rulelang import CHANCE, RulesetError, RulesRuntimeError, StateDataError
from rulelang.loader import lint_file


def load(text, players=None):
    return rulelang.load(rules(text), players=players)


def start(text, players=None, seed=0, explicit_chance=False):
    return load(text, players).new_initial_state(seed=seed, explicit_chance=explicit_chance)


def globals_of(state):
    return state.to_json()["globals"]


def pick(state, label, player=None):
    """Apply the action labelled ``label`` for ``player`` (the one to act by default)."""
    if player is None:
        (player,) = state.current_players()
    actions = state.legal_actions(player)
    matching = [a for a in actions if str(a) == label]
    assert matching, f"{label!r} is not among {[str(a) for a in actions]}"
    state.apply_action(matching[0], player=player)


def labels(state, player=None):
    if player is None:
        (player,) = state.current_players()
    return [str(a) for a in state.legal_actions(player)]


def diagnostics(text, players=None):
    with pytest.raises(RulesetError) as caught:
        load(text, players)
    return caught.value.diagnostics


def ONE(body, decls=""):
    """A one-player ruleset whose single phase runs ``body`` and ends."""
    return f'game "T" {{ players 1 }}\n{decls}\nphase main {{\n{body}\n}}\n'


# ---- variables and assignment ----

def test_let_assign_and_compound_assign():
    state = start(ONE("""
      let x = 3
      x = x * 4
      x += 5
      x -= 2
      total = x
      total += 10
      players[0].points += 7
      players[0].points -= 2
    """, "var total: int = 1\nplayer var points: int = 100"))
    assert state.is_terminal()
    assert globals_of(state)["total"] == 25
    assert state.to_json()["player_vars"]["points"] == [105]


def test_arithmetic_and_strings():
    state = start(ONE("""
      a = 7 / 2
      b = -7 / 2
      c = 7 % 3
      d = 2 + 3 * 4 - 1
      e = "n" + 3 + true
      f = [1, 2] + [3]
      g = [0] * 3
      h = if a > 2 then "big" else "small"
      k = 2..5
    """, """var a: int = 0  var b: int = 0  var c: int = 0  var d: int = 0  var e: string = ""
            var f: list[int] = []  var g: list[int] = []  var h: string = ""  var k: list[int] = []"""))
    assert globals_of(state) == {"a": 3, "b": -4, "c": 1, "d": 13, "e": "n3true", "f": [1, 2, 3],
                                 "g": [0, 0, 0], "h": "big", "k": [2, 3, 4, 5]}


def test_if_elif_else():
    text = """
      game "T" {{ players 1 }}
      var out: string = ""
      phase main {{
        let x = {x}
        if x < 0 {{ out = "negative" }} elif x == 0 {{ out = "zero" }} elif x < 10 {{ out = "small" }}
        else {{ out = "large" }}
      }}
    """
    results = {x: globals_of(start(text.format(x=x)))["out"] for x in ("-3", "0", "4", "50")}
    assert results == {"-3": "negative", "0": "zero", "4": "small", "50": "large"}


# ---- loops ----

def test_for_while_repeat_break_continue():
    state = start(ONE("""
      for i in 1..10 {
        if i % 2 == 0 { continue }
        if i > 7 { break }
        odds = odds + [i]
      }
      let n = 0
      while n < 5 { n += 2 }
      w = n
      let k = 0
      repeat {
        k += 1
        if k == 4 { break }
      }
      r = k
      let u = 1
      repeat until u > 50 { u = u * 3 }
      ru = u
      let skipped = 0
      repeat until skipped >= 3 {
        skipped += 1
        continue
        never = 1
      }
      for a in [1, 2] { for b in [10, 20] { if b == 20 { break } nested += a * b } }
    """, """var odds: list[int] = []  var w: int = 0  var r: int = 0  var ru: int = 0
            var never: int = 0  var nested: int = 0"""))
    assert globals_of(state) == {"odds": [1, 3, 5, 7], "w": 6, "r": 4, "ru": 81, "never": 0, "nested": 30}


def test_while_continue_and_repeat_until_break():
    state = start(ONE("""
      let i = 0
      while i < 6 {
        i += 1
        if i % 3 == 0 { continue }
        kept = kept + [i]
      }
      let j = 0
      repeat until j > 100 {
        j += 1
        if j == 3 { break }
      }
      stopped = j
    """, "var kept: list[int] = []  var stopped: int = 0"))
    assert globals_of(state) == {"kept": [1, 2, 4, 5], "stopped": 3}


def test_break_out_of_a_loop_from_a_menu_option():
    state = start(ONE("""
      repeat {
        choose by players[0] {
          option "more" { n += 1 }
          option "stop" { break }
        }
      }
      n += 100
    """, "var n: int = 0"))
    pick(state, "more")
    pick(state, "more")
    pick(state, "stop")
    assert state.is_terminal()
    assert globals_of(state) == {"n": 102}


def test_loop_over_a_zone_goes_bottom_to_top():
    state = start(ONE("""
      for c in pile { seen = seen + [c.n] }
      t = top(pile).n
      b = bottom(pile).n
      tops = [c.n for c in top(pile, 2)]
    """, """component chip { n: int }
            zone pile: chip visible all
            deck chips: chip in pile = [chip(n: i) for i in 1..4]
            var seen: list[int] = []  var t: int = 0  var b: int = 0  var tops: list[int] = []"""))
    assert globals_of(state) == {"seen": [1, 2, 3, 4], "t": 4, "b": 1, "tops": [4, 3]}


def test_moves_from_the_top_the_middle_and_of_whole_zones():
    # Moving the top takes no search; a whole zone moves bottom first, as one move per
    # component would (onto itself: the same order); events record each component.
    state = rulelang.load(rules(ONE("""
      move top(pile) to other
      move pile[1] to other
      move pile to other
      move other to other
      order = [c.n for c in other]
      move [top(other), bottom(other)] to pile
      left = [c.n for c in other] + [0] + [c.n for c in pile]
    """, """component chip { n: int }
            zone pile: chip visible all
            zone other: chip visible all
            deck chips: chip in pile = [chip(n: i) for i in 1..5]
            var order: list[int] = []  var left: list[int] = []"""))).new_initial_state(seed=0, events=True)
    assert globals_of(state) == {"order": [5, 2, 1, 3, 4], "left": [2, 1, 3, 0, 4, 5]}
    moved = [e["component"]["label"] for e in state.events() if e["type"] == "move"]
    assert moved == ["5", "2", "1", "3", "4", "5", "2", "1", "3", "4", "4", "5"]


# ---- decisions ----

CHOOSE = """
game "T" { players 2 }
var got: int = 0
var fallback: bool = false
phase main {
  choose n in [x for x in 1..5 if x % 2 == 1] by players[1]
  got = n
  choose m in [x for x in 1..5 if x > 10] by players[0] otherwise { fallback = true }
}
"""


def test_choose_and_otherwise():
    state = start(CHOOSE)
    assert state.current_players() == [1]
    assert labels(state) == ["1", "3", "5"]
    assert state.legal_actions(0) == []
    pick(state, "3")
    assert state.is_terminal()
    assert globals_of(state) == {"got": 3, "fallback": True}
    assert state.history()[0][0] == 1


def test_choose_among_strings_written_in_the_ruleset():
    state = start(ONE("""
      choose way in ["left", "right"] by players[0]
      went = way
    """, 'var went: string = ""'))
    assert labels(state) == ["left", "right"]
    pick(state, "right")
    assert globals_of(state)["went"] == "right"


def test_choose_among_computed_strings_is_a_clear_error():
    with pytest.raises(RulesRuntimeError) as caught:
        start(ONE('choose way in ["a" + 1] by players[0]'))
    assert caught.value.diagnostic.code == "E602"
    assert "a1" in caught.value.diagnostic.message


def test_empty_choice_without_otherwise_is_e604():
    with pytest.raises(RulesRuntimeError) as caught:
        start(ONE("choose n in [] by players[0]"))
    assert caught.value.diagnostic.code == "E604"


MENU = """
game "T" { players 1 }
var coins: int = 0
var log_: list[string] = []
phase main {
  repeat {
    choose by players[0] {
      option "take" when coins < 2 { coins += 1  log_ = log_ + ["take"] }
      option "spend" when coins > 0 { coins -= 1  log_ = log_ + ["spend"] }
      option "stop" { end game }
    }
  }
}
"""


def test_menu_options_with_when():
    state = start(MENU)
    assert labels(state) == ["take", "stop"]
    pick(state, "take")
    assert labels(state) == ["take", "spend", "stop"]
    pick(state, "take")
    assert labels(state) == ["spend", "stop"]
    pick(state, "spend")
    pick(state, "stop")
    assert state.is_terminal()
    assert globals_of(state) == {"coins": 1, "log_": ["take", "take", "spend"]}
    # a label keeps its id whichever options are open
    ids = {str(a): a.id for a in start(MENU).legal_actions(0)}
    other = start(MENU)
    pick(other, "take")
    assert {str(a): a.id for a in other.legal_actions(0) if str(a) in ids} == ids


SIMULTANEOUS = """
game "T" { players 2..3 }
var sums: list[int] = []
var seen: list[int] = []
phase main {
  simultaneous p in players choose bid in [player_number(p) * 10 + k for k in 1..3]
  sums = [bid[p] for p in players]
}
"""


def test_simultaneous_choice():
    state = start(SIMULTANEOUS, players=3)
    assert state.current_players() == [0, 1, 2]
    assert labels(state, 0) == ["11", "12", "13"]
    assert labels(state, 2) == ["31", "32", "33"]
    pick(state, "33", player=2)
    assert state.current_players() == [0, 1]
    # a player who has chosen cannot choose again, and nobody sees the secret pick
    assert state.legal_actions(2) == []
    for viewer in (0, 1):
        assert "33" not in json.dumps(state.observation(viewer))
    assert state.observation(0)["already_chosen"] == [2]
    pick(state, "11", player=0)
    pick(state, "22", player=1)
    assert state.is_terminal()
    assert globals_of(state)["sums"] == [11, 22, 33]


def test_simultaneous_choice_keeps_an_outer_variable_of_the_same_name():
    state = start("""
      game "T" { players 2 }
      var got: list[int] = []
      phase main {
        for p in players {
          simultaneous p in players choose x in [player_number(p) * 10, player_number(p) * 10 + 1]
          got = got + [x[p]]
        }
      }
    """)
    for _ in range(2):
        pick(state, "10", player=0)
        pick(state, "21", player=1)
    assert state.is_terminal()
    # the loop's p is the first, then the second player: their own picks
    assert globals_of(state)["got"] == [10, 21]


def test_simultaneous_choice_round_trips_between_picks():
    game = load(SIMULTANEOUS, players=2)
    state = game.new_initial_state()
    pick(state, "12", player=0)
    loaded = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert loaded.current_players() == [1]
    pick(loaded, "21", player=1)
    assert globals_of(loaded)["sums"] == [12, 21]


# ---- chance ----

CHANCE_RULES = """
game "T" { players 1 }
die d = [1, 2, 2, 3]
var rolls: list[int] = []
var picks: list[string] = []
phase main {
  for i in 1..20 {
    let r = roll d
    rolls = rolls + [r]
    let s = random ["x", "y", "y", "y"]
    picks = picks + [s]
  }
}
"""


def test_roll_and_random_are_seeded():
    a = globals_of(start(CHANCE_RULES, seed=1))
    b = globals_of(start(CHANCE_RULES, seed=1))
    c = globals_of(start(CHANCE_RULES, seed=2))
    assert a == b
    assert a != c
    assert set(a["rolls"]) <= {1, 2, 3} and set(a["picks"]) <= {"x", "y"}
    # over many seeds every face comes up, the doubled face about twice as often
    counts = {1: 0, 2: 0, 3: 0}
    for seed in range(50):
        for r in globals_of(start(CHANCE_RULES, seed=seed))["rolls"]:
            counts[r] += 1
    assert all(counts.values())
    assert counts[2] > counts[1] and counts[2] > counts[3]


def test_explicit_chance_roll_and_random():
    state = start(CHANCE_RULES.replace("1..20", "1..2"), explicit_chance=True)
    assert state.current_players() == [CHANCE]
    assert state.is_chance_node()
    outcomes = {str(a): p for a, p in state.chance_outcomes()}
    assert outcomes == {"1": 0.25, "2": 0.5, "3": 0.25}
    pick(state, "3", player=CHANCE)
    outcomes = {str(a): p for a, p in state.chance_outcomes()}
    assert outcomes == {"x": 0.25, "y": 0.75}
    pick(state, "y", player=CHANCE)
    pick(state, "1", player=CHANCE)
    pick(state, "x", player=CHANCE)
    assert state.is_terminal()
    assert globals_of(state) == {"rolls": [3, 1], "picks": ["y", "x"]}
    assert [p for p, _ in state.history()] == [CHANCE] * 4


def test_explicit_chance_over_booleans_matches_sampled_mode():
    text = ONE("let heads = random [true, false, false, false]\nresult = heads", "var result: bool? = none")
    sampled = {globals_of(start(text, seed=s))["result"] for s in range(40)}
    assert sampled == {True, False}
    state = start(text, explicit_chance=True)
    outcomes = {str(a): p for a, p in state.chance_outcomes()}
    assert outcomes == {"true": 0.25, "false": 0.75}
    assert len({a.id for a, _ in state.chance_outcomes()}) == 2
    pick(state, "true", player=CHANCE)
    assert globals_of(state)["result"] is True


SHUFFLE = """
game "T" { players 1 }
component chip { n: int } shown as "chip {n}"
zone pile: chip visible all
deck chips: chip in pile = [chip(n: i) for i in 1..5]
var order: list[int] = []
var shuffled_list: list[int] = [10, 20, 30]
phase main {
  shuffle pile
  order = [c.n for c in pile]
  shuffle shuffled_list
}
"""


def test_shuffle_is_a_seeded_permutation():
    results = [globals_of(start(SHUFFLE, seed=s)) for s in range(12)]
    assert all(sorted(r["order"]) == [1, 2, 3, 4, 5] for r in results)
    assert all(sorted(r["shuffled_list"]) == [10, 20, 30] for r in results)
    assert globals_of(start(SHUFFLE, seed=3)) == results[3]
    assert len({tuple(r["order"]) for r in results}) > 3
    assert len({tuple(r["shuffled_list"]) for r in results}) > 1


def test_explicit_chance_shuffle():
    state = start(SHUFFLE, explicit_chance=True)
    steps = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
        assert len({p for _, p in outcomes}) == 1  # uniform
        sizes = len(outcomes)
        # always take the first outcome offered
        state.apply_action(outcomes[0][0], player=CHANCE)
        steps += 1
        assert sizes >= 2
    assert state.is_terminal()
    assert steps == 4 + 2  # n - 1 steps for the 5-chip pile, then for the 3-item list
    order = globals_of(state)["order"]
    assert sorted(order) == [1, 2, 3, 4, 5]


def test_explicit_chance_shuffle_reaches_every_permutation():
    """Walking every chance outcome of a 3-item shuffle gives the 6 orders, each once."""
    text = SHUFFLE.replace("1..5", "1..3").replace("shuffle shuffled_list", "")
    game = load(text)
    orders = []
    stack = [(game.new_initial_state(explicit_chance=True), 1.0)]
    while stack:
        state, prob = stack.pop()
        if state.is_terminal():
            orders.append((tuple(globals_of(state)["order"]), prob))
            continue
        for action, p in state.chance_outcomes():
            child = state.clone()
            child.apply_action(action, player=CHANCE)
            stack.append((child, prob * p))
    assert sorted(o for o, _ in orders) == sorted({(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2),
                                                   (3, 2, 1)})
    assert all(math.isclose(p, 1 / 6) for _, p in orders)


# ---- zones, components, supplies ----

ZONES = """
game "T" { players 2 }
enum suit { hearts, spades }
component card { suit: suit  rank: int } shown as "{rank} of {suit}"
zone deck: card visible count
zone discard: card visible all
zone vault: card visible none
player zone hand: card visible owner
deck cards: card in deck = [card(suit: s, rank: r) for s in values(suit) for r in 1..3]
var deck_size: int = 0
var hand_sizes: list[int] = []
var top_label: string = ""
phase main {
  for p in players { move top(deck) to p.hand }
  move top(deck, 2) to discard
  move top(deck) to vault
  deck_size = size(deck)
  hand_sizes = [size(p.hand) for p in players]
  top_label = "" + top(discard)
  choose c in players[0].hand by players[0]
}
"""


def test_move_top_size_and_labels():
    state = start(ZONES)
    data = state.to_json()
    zones = data["zones"]
    # cards are built suit by suit, rank by rank: ids 0..5 = hearts 1-3, spades 1-3; the top is the last.
    # top(deck, 2) lists the top card first, and moving a list moves its items one by one.
    assert zones["deck"] == [0]
    assert zones["hand/0"] == [5] and zones["hand/1"] == [4]
    assert zones["discard"] == [3, 2] and zones["vault"] == [1]
    assert data["globals"] == {"deck_size": 1, "hand_sizes": [1, 1], "top_label": "3 of hearts"}
    assert labels(state) == ["3 of spades"]
    assert sum(len(ids) for ids in zones.values()) == 6


def test_visibility_in_observations():
    state = start(ZONES)
    me, other = state.observation(0), state.observation(1)
    assert me["zones"]["deck"] == {"count": 1}
    assert "vault" not in me["zones"]
    assert [c["label"] for c in me["zones"]["discard"]] == ["1 of spades", "3 of hearts"]
    assert [c["label"] for c in me["players"][0]["hand"]] == ["3 of spades"]
    assert me["players"][1]["hand"] == {"count": 1}      # another's hand: its size only
    assert [c["label"] for c in other["players"][1]["hand"]] == ["2 of spades"]
    assert other["players"][0]["hand"] == {"count": 1}
    # hidden from the first player: the deck's 1 of hearts, the vault's 2 of hearts, the other hand
    text = json.dumps(me)
    for hidden in ("1 of hearts", "2 of hearts", "2 of spades"):
        assert hidden not in text
    assert component_ids(me) == {2, 3, 5}
    assert component_ids(other) == {2, 3, 4}


def component_ids(data) -> set:
    """Every component id mentioned anywhere in some JSON data."""
    if isinstance(data, dict):
        found = {data["component"]} if "component" in data else set()
        for value in data.values():
            found |= component_ids(value)
        return found
    if isinstance(data, list):
        return set().union(*(component_ids(x) for x in data)) if data else set()
    return set()


def test_variable_visibility_in_observations():
    state = start("""
      game "T" { players 2 }
      var open: int = 1 visible all
      var secret: int = 2 visible none
      player var mine: int = 3 visible owner
      player var shown: int = 4 visible all
      player var nobody: int = 5 visible none
      supply coins total 10 visible owner
      phase main { gain 2 coins to players[1]  choose x in [1] by players[0] }
    """)
    obs = state.observation(0)
    assert obs["globals"] == {"open": 1}
    assert obs["players"][0] == {"mine": 3, "shown": 4, "coins": 0}
    assert obs["players"][1] == {"shown": 4}
    assert state.observation(1)["players"][1] == {"mine": 3, "shown": 4, "coins": 2}


def test_enum_values_bare_and_qualified():
    state = start(ONE("""
      a = red
      b = colour.green
      same = colour.red == red
      ordered = [c for c in values(colour) if c != blue]
      count_ = size(values(colour))
    """, """enum colour { red, green, blue }
            var a: colour = blue  var b: colour = blue  var same: bool = false
            var ordered: list[colour] = []  var count_: int = 0"""))
    g = globals_of(state)
    assert g["a"] == {"enum": "colour", "value": "red"}
    assert g["b"] == {"enum": "colour", "value": "green"}
    assert g["same"] is True and g["count_"] == 3
    assert [v["value"] for v in g["ordered"]] == ["red", "green"]


def test_players_enum_values_components_and_spaces_are_ordered():
    # Their classes define no comparison (identity equality at C speed): the interpreter
    # orders them itself, for every comparison and aggregate, and lists of them item by item.
    state = start("""
      game "T" { players 3 }
      enum suit { clubs, diamonds, hearts }
      enum colour { red, black }
      board b = square_grid(3, 3)
      component card { s: suit  r: int } shown as "{s}{r}"
      zone deck: card visible all
      deck cards: card in deck = [card(s: x, r: n) for x in values(suit) for n in 1..2]
      var seats: list[int] = []
      var tests: list[bool] = []
      var names: list[string] = []
      var spots: list[int] = []
      phase main {
        seats = [p.index for p in sorted(reversed(players))]
          + [p.index for p in [min(players), max(players), min(players[2], players[1]), max(players[0], players[1])]]
          + [x[0].index * 10 + x[1] for x in sorted([[players[1], 2], [players[1], 1], [players[0], 5]])]
        tests = [players[0] < players[1], players[2] > players[1], players[1] < players[1],
                 players[0] <= players[1], players[2] >= players[1], players[1] <= players[1],
                 hearts < clubs, clubs < hearts, red < hearts, black > clubs, hearts <= hearts, clubs >= diamonds,
                 [hearts, 1] < [hearts, 2], [red, 5] < [clubs, 1], space(b, "a1") < space(b, "b1"),
                 top(deck) > list(deck)[0]]
        names = ["" + c for c in sorted(reversed(list(deck)))]
          + ["" + c for c in [best(c for c in deck by c.s), worst(c for c in deck by [c.s, c]), max(list(deck))]]
          + ["" + c for c in sorted(c for c in deck by c.s desc)]
        spots = [s.index for s in sorted(reversed(spaces(b)))] + [max(spaces(b)).index]
      }
    """, players=3)
    g = globals_of(state)
    assert g["seats"] == [0, 1, 2, 0, 2, 1, 1, 5, 11, 12]
    assert g["tests"] == [True, True, False, True, True, True, False, True, True, True, True, False,
                          True, False, True, True]
    assert g["names"] == ["clubs1", "clubs2", "diamonds1", "diamonds2", "hearts1", "hearts2",
                          "hearts1", "clubs1", "hearts2",
                          "hearts1", "hearts2", "diamonds1", "diamonds2", "clubs1", "clubs2"]
    assert g["spots"] == [*range(9), 8]


def test_enum_values_as_choice_options():
    state = start("""
      game "T" { players 1 }
      enum colour { red, green, blue }
      var chosen: colour? = none
      phase main { choose c in values(colour) by players[0]  chosen = c }
    """)
    assert labels(state) == ["red", "green", "blue"]
    pick(state, "blue")
    assert globals_of(state)["chosen"] == {"enum": "colour", "value": "blue"}


def test_unknown_enum_value_is_an_error():
    problems = diagnostics(ONE("x = colour.purple", "enum colour { red }\nvar x: colour? = none"))
    assert problems[0].code == "E103"


def test_component_fields_and_default_label():
    state = start(ONE("""
      total = sum(c.rank for c in pile)
      names = [c.name for c in pile]
      choose c in pile by players[0]
    """, """component gem { name: string  rank: int }
            zone pile: gem visible all
            deck gems: gem in pile = [gem(name: "ruby", rank: 3), gem(name: "opal", rank: 4)]
            var total: int = 0  var names: list[string] = []"""))
    assert globals_of(state) == {"total": 7, "names": ["ruby", "opal"]}
    assert labels(state) == ["ruby 3", "opal 4"]  # without 'shown as': the fields in order


def test_player_decks_with_me():
    state = start("""
      game "T" { players 3 }
      component token { seat: int  n: int } shown as "seat {seat} #{n}"
      player zone stash: token visible all
      player deck tokens: token in stash = [token(seat: player_number(me), n: i) for i in 1..player_number(me)]
      var sizes: list[int] = []
      var seats_ok: bool = false
      phase main {
        sizes = [size(p.stash) for p in players]
        seats_ok = all(all(t.seat == player_number(p) for t in p.stash) for p in players)
      }
    """, players=3)
    assert globals_of(state) == {"sizes": [1, 2, 3], "seats_ok": True}
    assert [c["label"] for c in state.observation(0)["players"][2]["stash"]] == ["seat 3 #1", "seat 3 #2",
                                                                                "seat 3 #3"]


SUPPLY = """
game "T" { players 2 }
supply coins total 10
var bank_after: list[int] = []
var holdings: list[int] = []
var after_gains: list[int] = []
var after_transfer: list[int] = []
phase main {
  gain 7 coins to players[0]
  gain 7 coins to players[1]
  after_gains = [p.coins for p in players]
  bank_after = bank_after + [bank(coins)]
  pay 5 coins from players[1] to players[0]
  after_transfer = [p.coins for p in players]
  pay 20 coins from players[0]
  bank_after = bank_after + [bank(coins)]
  holdings = [p.coins for p in players]
}
invariant "coins are conserved" = bank(coins) + sum(p.coins for p in players) == 10
"""


def test_gain_and_pay_clamp_and_conserve():
    state = start(SUPPLY)
    g = globals_of(state)
    # gains: 7 to the first, the 3 left to the second; then 3 paid over (all he has); then the first pays it all
    assert g["after_gains"] == [7, 3]      # the bank had only 3 left for the second gain
    assert g["after_transfer"] == [10, 0]  # the second player paid all he had: 3, not 5
    assert g["bank_after"] == [0, 10]
    assert g["holdings"] == [0, 0]
    assert state.to_json()["supplies"] == {"coins": [10, 0, 0]}
    assert state.check_invariants() == []


def test_supply_amounts_step_by_step():
    state = start(SUPPLY.replace("pay 20 coins from players[0]", "choose x in [1] by players[0]"))
    assert state.to_json()["supplies"] == {"coins": [0, 10, 0]}
    assert state.check_invariants() == []
    data = state.to_json()
    data["supplies"]["coins"] = [1, 10, 0]  # one coin too many: a saved state is refused
    with pytest.raises(StateDataError, match="total 10"):
        load(SUPPLY).state_from_json(data)


def test_negative_amount_is_a_runtime_error():
    with pytest.raises(RulesRuntimeError) as caught:
        start(ONE("gain -1 coins to players[0]", "supply coins total 5"))
    assert caught.value.diagnostic.code == "E602"


# ---- procedures, phases ----

def test_procedures_with_return_values():
    state = start(ONE("""
      let a = call fib(10)
      fibs = a
      call bump(3)
      call bump(4)
      let b = call early(5)
      e = b
    """, """var fibs: int = 0  var bumped: int = 0  var e: int = 0
            procedure fib(n: int) {
              if n < 2 { return n }
              let x = call fib(n - 1)
              let y = call fib(n - 2)
              return x + y
            }
            procedure bump(k: int) { bumped += k }
            procedure early(n: int) {
              for i in 1..100 { if i == n { return i * 100 } }
              return 0
            }"""))
    assert globals_of(state) == {"fibs": 55, "bumped": 7, "e": 500}


def test_a_choice_inside_a_procedure_resumes_there():
    game = load("""
      game "T" { players 1 }
      var out: list[int] = []
      procedure ask(base: int) {
        choose k in [1, 2] by players[0]
        return base + k
      }
      phase main {
        let a = call ask(10)
        let b = call ask(20)
        out = [a, b]
      }
    """)
    state = game.new_initial_state()
    pick(state, "2")
    state = game.state_from_json(json.loads(json.dumps(state.to_json())))
    pick(state, "1")
    assert globals_of(state)["out"] == [12, 21]


def test_next_phase_and_end_game():
    state = start("""
      game "T" { players 1 }
      var trail: list[string] = []
      setup { trail = trail + ["setup"] }
      phase one { trail = trail + ["one"]  next three }
      phase two { trail = trail + ["two"] }
      phase three {
        trail = trail + ["three"]
        repeat { trail = trail + ["loop"]  end game }
        trail = trail + ["never"]
      }
    """)
    assert state.is_terminal()
    assert globals_of(state)["trail"] == ["setup", "one", "three", "loop"]


def test_falling_off_a_phase_ends_the_game_and_start_setting():
    state = start("""
      game "T" { players 1  start two }
      var trail: list[string] = []
      phase one { trail = trail + ["one"] }
      phase two { trail = trail + ["two"] }
    """)
    assert state.is_terminal()
    assert globals_of(state)["trail"] == ["two"]


def test_unknown_phase_is_e104():
    assert diagnostics(ONE("next nowhere"))[0].code == "E104"


# ---- aggregates and comprehensions ----

def test_aggregates():
    state = start("""
      game "T" { players 3 }
      player var pts: int = [5, 9, 2][player_number(me) - 1]
      var s: int = 0
      var c: int = 0
      var an: bool = false
      var al: bool = true
      var mn: int = 0
      var mx: int = 0
      var srt: list[int] = []
      var srt_desc: list[int] = []
      var by_desc: list[int] = []
      var best_: int = 0
      var worst_: int = 0
      var first_: int = 0
      var none_first: bool = false
      var pair: list[int] = []
      phase main {
        s = sum(p.pts for p in players)
        c = count(p for p in players if p.pts > 3)
        an = any(p.pts > 8 for p in players)
        al = all(p.pts > 2 for p in players)
        mn = min(p.pts for p in players)
        mx = max([4, 8, 1])
        srt = sorted([3, 1, 2])
        srt_desc = [p.pts for p in sorted(p for p in players by p.pts desc)]
        by_desc = [player_number(p) for p in sorted(p for p in players by p.pts desc)]
        best_ = player_number(best(p for p in players by p.pts))
        worst_ = player_number(worst(p for p in players by p.pts))
        first_ = first(p.pts for p in players if p.pts < 9)
        none_first = first(p for p in players if p.pts > 100) == none
        pair = [min(3, 7), max(3, 7)]
      }
    """, players=3)
    assert globals_of(state) == {
        "s": 16, "c": 2, "an": True, "al": False, "mn": 2, "mx": 8, "srt": [1, 2, 3],
        "srt_desc": [9, 5, 2], "by_desc": [2, 1, 3], "best_": 2, "worst_": 3, "first_": 5,
        "none_first": True, "pair": [3, 7]}


def test_comprehension_with_two_for_clauses():
    state = start(ONE("""
      pairs = [a * 10 + b for a in 1..3 for b in 1..3 if b > a]
      filtered = [a * 10 + b for a in 1..3 if a != 2 for b in [a, a + 1]]
      n = count(a for a in 1..4 for b in 1..4 if a == b)
    """, "var pairs: list[int] = []  var filtered: list[int] = []  var n: int = 0"))
    assert globals_of(state) == {"pairs": [12, 13, 23], "filtered": [11, 12, 33, 34], "n": 4}


def test_builtins():
    state = start("""
      game "T" { players 3 }
      var out: list[int] = []
      var rot: list[int] = []
      phase main {
        out = [index([5, 6, 7], 7), index([5, 6, 7], 9), abs(-4), player_number(next_player(players[2])),
               player_number(next_player(players[0], 2)), size(reversed([1, 2, 3])), reversed([1, 2])[0]]
        rot = [player_number(p) for p in rotate(players, players[1])]
      }
    """, players=3)
    assert globals_of(state) == {"out": [2, -1, 4, 1, 3, 3, 2], "rot": [2, 3, 1]}


def test_board_direction_builtins():
    state = start("""
      game "T" { players 1 }
      board grid = square_grid(3, 3)
      var steps: list[string] = []
      var dirs: list[int?] = []
      phase main {
        let c = space(grid, "b2")
        steps = ["" + step(c, d) for d in 0..3] + ["" + step(space(grid, "a1"), 3), "" + step(c, 4)]
        dirs = [direction(c, n) for n in neighbors(c)] + [direction(c, c), direction(space(grid, "a1"), c)]
      }
    """)
    assert globals_of(state) == {"steps": ["b3", "c2", "b1", "a2", "none", "none"],
                                 "dirs": [2, 3, 1, 0, None, None]}


# ---- scoring ----

def test_score_and_tiebreak():
    text = """
      game "T" {{ players 3 }}
      player var pts: int = [{pts}][player_number(me) - 1]
      player var tb: int = [{tb}][player_number(me) - 1]
      phase main {{ end game }}
      score p = p.pts
      tiebreak p = p.tb
    """
    state = start(text.format(pts="4, 7, 7", tb="0, 1, 2"), players=3)
    assert state.returns() == [4.0, 7.0, 7.0]
    assert state.winners() == [2]
    assert start(text.format(pts="7, 7, 1", tb="3, 3, 9"), players=3).winners() == [0, 1]
    assert start(text.format(pts="1, 2, 3", tb="9, 9, 0"), players=3).winners() == [2]


def test_log_statement():
    state = start(ONE('log "hello " + 3\nlog [1, 2]'))
    assert state.observation(0)["log"] == ["hello 3", "[1, 2]"]


# ---- variants ----

BASE = """
game "Base" { players 2..4  max_decisions 10 }
var bonus: int = 1
var seen: string = "base"
phase main {
  choose n in [1, 2] by players[0]
  seen = seen + " main"
}
score p = bonus
"""


def write_variant(tmp_path, variant_text, base_text=BASE):
    (tmp_path / "base.rules").write_text(rules(base_text))
    path = tmp_path / "variant.rules"
    path.write_text(rules(variant_text))
    return str(path)


def test_variant_extends_and_overrides(tmp_path):
    path = write_variant(tmp_path, """
      extends "base.rules"
      override game "Variant" { players 2 }
      override var bonus: int = 5
      var extra: int = 9
      override phase main {
        seen = seen + " variant"
        extra += bonus
      }
    """)
    game = rulelang.load(path)
    assert game.title == "Variant"
    assert game.num_players == 2
    assert game.max_decisions == 10  # settings merge one by one
    state = game.new_initial_state()
    assert state.is_terminal()
    assert globals_of(state) == {"bonus": 5, "seen": "base variant", "extra": 14}
    assert state.returns() == [5.0, 5.0]
    with pytest.raises(RulesetError) as caught:
        rulelang.load(path, players=3)
    assert caught.value.diagnostics[0].code == "E601"
    # the base itself is untouched
    base = rulelang.load(str(tmp_path / "base.rules"), players=3).new_initial_state()
    assert labels(base) == ["1", "2"]


def test_variant_loaded_from_text_finds_its_base(tmp_path):
    write_variant(tmp_path, 'extends "base.rules"')
    text = rules('extends "base.rules"\noverride var bonus: int = 3')
    game = rulelang.load(text, path=str(tmp_path / "inline.rules"))
    assert globals_of(game.new_initial_state())["bonus"] == 3


def test_override_of_nothing_is_e502(tmp_path):
    path = write_variant(tmp_path, """
      extends "base.rules"
      override var missing: int = 1
    """)
    with pytest.raises(RulesetError) as caught:
        rulelang.load(path)
    assert [d.code for d in caught.value.diagnostics] == ["E502"]
    assert caught.value.diagnostics[0].span.line == 2


def test_override_without_a_base_is_e502():
    assert [d.code for d in diagnostics("override var x: int = 1\n" + BASE)] == ["E502"]


def test_redeclaring_without_override_is_e504(tmp_path):
    path = write_variant(tmp_path, """
      extends "base.rules"
      var bonus: int = 5
    """)
    with pytest.raises(RulesetError) as caught:
        rulelang.load(path)
    assert [d.code for d in caught.value.diagnostics] == ["E504"]
    assert "override" in caught.value.diagnostics[0].message


def test_an_invariant_is_added_or_overridden_by_its_label(tmp_path):
    base = BASE + 'invariant "bonus is small" = bonus < 3\n'
    path = write_variant(tmp_path, """
      extends "base.rules"
      override var bonus: int = 5
      override invariant "bonus is small" = bonus < 9
      invariant "bonus is odd" = bonus % 2 == 1
    """, base)
    state = rulelang.load(path).new_initial_state()
    assert state.check_invariants() == []
    assert [i.label for i in state.game.program.invariants] == ["bonus is small", "bonus is odd"]
    same_label = write_variant(tmp_path, """
      extends "base.rules"
      invariant "bonus is small" = bonus < 9
    """, base)
    with pytest.raises(RulesetError) as caught:
        rulelang.load(same_label)
    assert [(d.code, d.span.line) for d in caught.value.diagnostics] == [("E504", 2)]


def test_missing_base_is_e501(tmp_path):
    path = tmp_path / "v.rules"
    path.write_text('extends "nowhere.rules"\n')
    with pytest.raises(RulesetError) as caught:
        rulelang.load(str(path))
    assert caught.value.diagnostics[0].code == "E501"


def test_extension_cycle_is_e503(tmp_path):
    (tmp_path / "a.rules").write_text('extends "b.rules"\n' + rules(BASE).replace('game "Base"', 'game "A"', 0))
    (tmp_path / "b.rules").write_text('extends "a.rules"\n')
    with pytest.raises(RulesetError) as caught:
        rulelang.load(str(tmp_path / "a.rules"))
    assert caught.value.diagnostics[0].code == "E503"


def _chain_of_bases(folder, bases):
    """v0.rules extends v1.rules ... extends v{bases}.rules, the last a whole ruleset."""
    (folder / f"v{bases}.rules").write_text(rules(BASE))
    for n in range(bases):
        (folder / f"v{n}.rules").write_text(f'# variant {n}\nextends "v{n + 1}.rules"\n')
    return folder / "v0.rules"


def test_a_deep_chain_of_bases_without_a_cycle_loads(tmp_path):
    game = rulelang.load(str(_chain_of_bases(tmp_path, 20)))
    assert game.title == "Base"
    assert lint_file(tmp_path / "v0.rules") == []


def test_a_chain_past_the_limit_is_e506_at_the_extends_that_passes_it(tmp_path):
    from rulelang.check.variants import MAX_BASES
    with pytest.raises(RulesetError) as caught:
        rulelang.load(str(_chain_of_bases(tmp_path, MAX_BASES + 5)))
    (problem,) = caught.value.diagnostics
    assert problem.code == "E506" and str(MAX_BASES) in problem.message
    assert Path(problem.span.file).name == f"v{MAX_BASES}.rules" and problem.span.line == 2
    assert [d.code for d in lint_file(tmp_path / "v0.rules")] == ["E506"]
    assert rulelang.load(str(tmp_path / "v5.rules")).title == "Base"   # 64 bases under it: the limit


# ---- syntax and name errors ----

def test_unclosed_block_points_at_its_brace():
    text = 'game "T" { players 1 }\nphase main {\n  if true {\n    let x = 1\n  \n}\n'
    (problem,) = diagnostics(text)
    assert problem.code == "E003"
    assert (problem.span.line, problem.span.column) == (2, 12)
    assert text.splitlines()[problem.span.line - 1][problem.span.column - 1] == "{"


def test_misspelled_keyword_has_a_hint():
    (problem,) = diagnostics('game "T" { players 1 }\nphase main {\n  chose x in [1, 2] by players[0]\n}\n')
    assert problem.code == "E002"
    assert (problem.span.line, problem.span.column) == (3, 3)
    assert problem.hint and "choose" in problem.hint


def test_misspelled_declaration_keyword_has_a_hint():
    (problem,) = diagnostics('game "T" { players 1 }\nphse main { end game }\n')
    assert problem.code == "E002"
    assert problem.hint and "phase" in problem.hint


def test_unknown_name_has_a_hint():
    (problem,) = diagnostics(ONE("totl = 1", "var total: int = 0"))
    assert problem.code in ("E101", "E203")
    assert problem.hint and "total" in problem.hint
    assert problem.span.line == 4


def test_unknown_setting_is_e202():
    (problem,) = diagnostics('game "T" { players 1  max_decision 5 }\nphase main { end game }')
    assert problem.code == "E202"
    assert "max_decisions" in problem.hint


def test_break_outside_a_loop_is_e204():
    assert diagnostics(ONE("break"))[0].code == "E204"


def test_no_phase_is_e304():
    assert diagnostics('game "T" { players 1 }')[0].code == "E304"


def test_deep_nesting_is_a_diagnostic_not_a_crash():
    text = ONE("x = " + "(" * 500 + "1" + ")" * 500, "var x: int = 0")
    assert diagnostics(text)[0].code == "E005"


# Values of kinds that Python cannot combine: each is an error of the rules (E602), never
# reported as a failure of rulelang itself (E900).
KIND_CLASHES = {
    "sum of mixed kinds": ('let xs = [1, "a"]\nlet s = sum(xs)', ""),
    "sum over a generator": ('let s = sum(x for x in [1, "a"])', ""),
    "min of two": ("let s = min(players[0], 3)", ""),
    "max of a list": ("let s = max([players[0], 3])", ""),
    "sorted": ("let s = sorted([players[0], 3])", ""),
    "sorted by key": ('let s = sorted(x for x in [1, 2] by [1, "a"][x - 1])', ""),
    "best by key": ('let s = best(x for x in [1, 2] by [1, "a"][x - 1])', ""),
    "negated string": ('let x = "a"\nlet y = -x', ""),
    "player < number": ("let x = players[0] < 3", ""),
    "unknown space": ('let s = space(b, "zz")', "board b = square_grid(3, 3)"),
    "huge string": ('let s = "ab" * 100000000', ""),
    "player number of a number": ("let xs = [3]\nlet n = player_number(xs[0])", ""),
}


@pytest.mark.parametrize("name", sorted(KIND_CLASHES))
def test_values_python_cannot_combine_are_errors_of_the_rules(name):
    body, decls = KIND_CLASHES[name]
    with pytest.raises(RulesRuntimeError) as caught:
        start(ONE(body, decls))
    assert caught.value.diagnostic.code == "E602"
    assert caught.value.diagnostic.span is not None


def test_runtime_type_error_has_a_location():
    with pytest.raises(RulesRuntimeError) as caught:
        start(ONE('\nx = 1 + "a" - 2', "var x: int = 0"))
    diagnostic = caught.value.diagnostic
    assert diagnostic.code == "E602"
    assert diagnostic.span is not None and diagnostic.span.line == 5


def test_a_let_in_a_block_hides_an_outer_name_until_the_block_ends():
    state = start(ONE('''
        let t = 1
        if true {
          let t = 5
          t += 1
          log t
          log [t * 10 for t in 1..2]
          log t
        }
        log t
        if true { let fresh = 7 }
        log fresh
        let t = 9
        log t
    '''))
    assert state.observation(0)["log"] == ["6", "[10, 20]", "6", "1", "7", "9"]


def test_a_let_of_a_parameter_and_a_let_from_a_call_hide_too():
    state = start('''
game "S" { players 1 }
procedure bump(n: int) {
  let n = n + 100
  return n
}
phase p {
  let r = 0
  if true {
    let r = call bump(1)
    log r
  }
  log r
  end game
}
''')
    assert state.observation(0)["log"] == ["101", "0"]


def test_an_item_of_a_list_can_be_assigned():
    state = start('''
game "S" { players 2 }
var piles: list[int] = [3, 4, 5]
player var rows: list[list[int]] = [[1, 2], [3, 4]]
phase p {
  piles[1] -= 2
  piles[-1] += 10
  piles[0] = 7
  log piles
  let grid = [[0, 0], [0, 0]]
  grid[1][0] = 5
  log grid
  players[0].rows[1][1] += 100
  log players[0].rows
  log players[1].rows
  end game
}
''')
    assert state.observation(0)["log"] == ["[7, 2, 15]", "[[0, 0], [5, 0]]", "[[1, 2], [3, 104]]", "[[1, 2], [3, 4]]"]


def test_an_item_out_of_range_is_a_runtime_error_and_a_non_list_target_is_e203():
    with pytest.raises(RulesRuntimeError) as caught:
        start(ONE("let xs = [1]\nxs[3] = 2"))
    assert caught.value.diagnostic.code == "E602" and "out of range" in caught.value.diagnostic.message
    assert [d.code for d in diagnostics(ONE('"abc"[0] = "x"'))] == ["E203"]


SIX_CARDS = '''
component card { rank: int } shown as "card {rank}"
player zone hand: card visible owner
zone pile: card visible all
deck cards: card in pile = [card(rank: r) for r in 1..6]
'''

PROMPTS = '''
game "P" { players 2 }
''' + SIX_CARDS + '''var rnd: int = 3
die d6 = 1..6
phase p {
  for q in players { move top(pile) to q.hand  move top(pile) to q.hand }
  let p = players[0]
  choose c in p.hand by p prompt "{p}: play a card (round {rnd})"
  choose by p prompt "keep the {c.rank}?" { option "yes" { } option "no" { } }
  simultaneous q in players choose x in q.hand prompt "{q}, pick a card"
  choose d in p.hand by p
  let r = roll d6
  choose n in 0..rnd by players[1]
  end game
}
'''


def test_a_choice_says_what_it_asks():
    state = start(PROMPTS, explicit_chance=True)
    asked = []
    while not state.is_terminal():
        players = state.current_players()
        asked.append([state.prompt(p) for p in players])
        if players[0] != CHANCE:
            assert state.prompt(players[0]) == state.observation(players[0])["prompt"]
        action = (state.chance_outcomes()[0][0] if state.is_chance_node()
                  else state.legal_actions(players[0])[0])
        state.apply_action(action, player=players[0])
    assert asked == [["player 1: play a card (round 3)"], ["keep the 6?"],
                     ["player 1, pick a card", "player 2, pick a card"], ["player 2, pick a card"],
                     ["choose d in p.hand"], ["roll d6"], ["choose n in 0..rnd"]]


COUNTING_PROMPTS = '''
game "Counting prompts" { players 2 }
var turn: int = 0
phase play {
  repeat {
    for p in players {
      turn = turn + 1
      choose c in 1..2 by p prompt "{p}, turn {turn}"
      choose by p prompt "{p}: keep {c} at turn {turn}?" { option "yes" { } option "no" { } }
      simultaneous q in players choose x in 1..turn prompt "{q}, a number up to {turn}"
    }
    if turn >= 4 { end game }
  }
}
'''


@pytest.mark.parametrize("text", [PROMPTS, COUNTING_PROMPTS], ids=["prompts", "counting"])
def test_a_clone_keeps_its_own_prompts_when_the_state_it_came_from_moves_on(text):
    state, kept = start(text), []
    while not state.is_terminal():
        players = state.current_players()
        kept.append((state.clone(), players, [state.prompt(p) for p in players]))
        action = (state.chance_outcomes()[0][0] if state.is_chance_node()
                  else state.legal_actions(players[0])[-1])
        state.apply_action(action, player=players[0])
    assert [[clone.prompt(p) for p in players] for clone, players, _ in kept] == [asked for _, _, asked in kept]


def test_a_player_not_asked_gets_no_prompt_and_sees_none_in_the_observation():
    state = start(PROMPTS)
    assert state.prompt(1) is None
    assert "prompt" not in state.observation(1)


def test_prompt_placeholders_are_checked_names():
    found = diagnostics(PROMPTS.replace("(round {rnd})", "(round {rnds})"))
    assert [(d.code, d.span.line) for d in found] == [("E101", 12)]
    bad = diagnostics(PROMPTS.replace("(round {rnd})", "(round {rnd + 1})"))
    assert [(d.code, d.span.line) for d in bad] == [("E002", 12)]


PRIVATE = '''
game "L" { players 3 }
''' + SIX_CARDS + '''phase p {
  for q in players { move top(pile) to q.hand }
  log "dealt"
  reveal top(players[1].hand) to players[0]
  log "psst" to [players[0], players[2]]
  log "done"
  end game
}
'''


def test_private_lines_reach_only_their_players():
    state = start(PRIVATE)
    revealed = f"you see {state.observation(1)['players'][1]['hand'][0]['label']}"   # what player 2 holds
    assert state.observation(0)["log"] == ["dealt", revealed, "psst", "done"]
    assert state.observation(1)["log"] == ["dealt", "done"]
    assert state.observation(2)["log"] == ["dealt", "psst", "done"]
    assert state.observation(CHANCE)["log"] == state.log == ["dealt", "done"]
    restored = state.game.state_from_json(state.to_json())
    assert [restored.observation(p)["log"] for p in range(3)] == [state.observation(p)["log"] for p in range(3)]


def test_a_private_line_for_no_real_player_is_refused_in_saved_data():
    state = start(PRIVATE)
    data = state.to_json()
    data["private_log"][0][1] = [7]
    with pytest.raises(StateDataError) as caught:
        state.game.state_from_json(data)
    assert "$.private_log[0][1]" in str(caught.value)
    data = state.to_json()
    data["private_log"][0][0] = 9
    with pytest.raises(StateDataError):
        state.game.state_from_json(data)


def test_log_to_needs_players():
    with pytest.raises(RulesRuntimeError) as caught:
        start(ONE('log "x" to [3]'))
    assert "'to' needs a player" in caught.value.diagnostic.message
    with pytest.raises(RulesRuntimeError):
        start(ONE('log "x" to 3'))
