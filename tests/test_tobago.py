"""Scenario tests for games/tobago.rules and its island, games/tobago/island.yaml.

The rules' clauses are checked by the scenarios of games/tobago.tests. What stays here is
what that format cannot say: the island's layout rulings of RULES.md, checked with the
Python board API; the 52 clue cards against an independent computation from the board; the
stacking of the treasure deck over several seeds; and the privacy of observations, from a
table set up by editing ``to_json()`` and loading it back.
"""
from __future__ import annotations

import itertools
from collections import Counter

import pytest
from conftest import GAMES_DIR

import rulelang
from rulelang.boards import load_board_file

RULES = GAMES_DIR / "tobago.rules"
ISLAND = GAMES_DIR / "tobago" / "island.yaml"
LAND_TERRAINS = ("jungle", "mountain", "beach", "scrubland", "river", "lake")


@pytest.fixture(scope="module")
def board():
    return load_board_file("island", ISLAND)


@pytest.fixture(scope="module")
def game3():
    return rulelang.load(RULES, players=3)


def terrain(s):
    return s.attributes["terrain"]


def land(board):
    return [s for s in board.spaces if terrain(s) != "sea"]


def gaze_spot(board, statue, direction):
    """The last land hex along a statue's gaze before the sea."""
    spot, ahead = statue, board.step(statue, direction)
    while ahead is not None and terrain(ahead) != "sea":
        spot, ahead = ahead, board.step(ahead, direction)
    assert ahead is not None, "every line of sight must meet the sea"
    return spot


# ---------------------------------------------------------------- the island (RULES.md)

# Kept in Python: board geometry checked on the data file, not a rule clause.
def test_island_size_and_terrains(board):
    assert 60 <= len(land(board)) <= 80
    assert {terrain(s) for s in land(board)} == set(LAND_TERRAINS)
    for s in land(board):                       # sea all around: no land hex on the edge
        assert len(board.neighbors(s)) == 6


# Kept in Python: board geometry (region sizes) checked on the data file.
def test_each_land_terrain_has_exactly_one_largest_region(board):
    for t in LAND_TERRAINS:
        sizes = [len(r) for r in board.regions("terrain", t)]
        assert sizes[0] > (sizes[1] if len(sizes) > 1 else 0), (t, sizes)


# Kept in Python: board geometry (landmark distances, lines of sight) checked on the data file.
def test_landmarks(board):
    marks = {k: [s for s in board.spaces if s.attributes.get("landmark") == k] for k in ("hut", "palm", "statue")}
    assert {k: len(v) for k, v in marks.items()} == {"hut": 4, "palm": 3, "statue": 3}
    for spaces in marks.values():
        for a, b in itertools.combinations(spaces, 2):
            assert board.distance(a, b) >= 4, (a, b)
        assert all(terrain(s) != "sea" for s in spaces)
    for s in marks["statue"]:
        assert all(terrain(n) != "sea" for n in board.neighbors(s)), f"statue {s} is next to the sea"
        assert s.attributes["faces"] in range(6)
        for d in range(6):
            assert gaze_spot(board, s, d) != s
    assert all("faces" not in s.attributes or s.attributes.get("landmark") == "statue" for s in board.spaces)


# ---------------------------------------------------------------- components

def independent_fits(board, form, scope, target):
    """T2 read directly from the board API: where a clue is true."""
    if scope == "largest_area":
        named = set(board.largest_region("terrain", target))
    elif scope == "terrain_type":
        named = {s for s in board.spaces if terrain(s) == target}
    else:
        named = {s for s in board.spaces if s.attributes.get("landmark") == target}
    reach = {"inside": 0, "next_to": 1, "in_sight": 2}[form.removeprefix("not_")]
    def true(s):
        if reach == 0:
            return s in named
        return s not in named and any(n in named for n in board.within(s, reach))
    return [s for s in land(board) if true(s) != form.startswith("not_")]


# Kept in Python: all 52 cards against an independent computation with the board API.
def test_clue_cards_are_computed_from_the_map(board, game3):
    cat = game3.catalog
    state = game3.new_initial_state(seed=3)
    clues = [c for c in cat.components if c.type == "clue"]
    assert len(clues) == 52
    forms = Counter(c.fields["form"].name for c in clues)
    assert set(forms) == {"inside", "not_inside", "next_to", "not_next_to", "in_sight", "not_in_sight"}
    assert {c.fields["scope"].name for c in clues} == {"terrain_type", "largest_area", "landmark_type"}
    assert len({c.label for c in clues}) == 52
    for c in clues:
        fits = [s for s in board.spaces if state.component_values["fits"][c.id][s.index]]
        expected = independent_fits(board, c.fields["form"].name, c.fields["scope"].name, c.fields["target"])
        assert [s.name for s in fits] == [s.name for s in expected], c.label
        assert fits, f"{c.label} fits no land hex"


# Kept in Python: deck stacking over several seeds (a scenario runs one seed).
@pytest.mark.parametrize("seed", range(5))
def test_treasure_deck_is_stacked_with_the_curses_low(game3, seed):
    state = game3.new_initial_state(seed=seed)
    deck = [game3.catalog.components[i] for i in state.to_json()["zones"]["treasure_deck"]]
    assert len(deck) == 41
    assert all(c.fields["kind"].name == "gold" for c in deck[-12:])       # the top 12
    assert sum(c.fields["kind"].name == "curse" for c in deck[:29]) == 2
    assert Counter(c.fields["value"] for c in deck if c.fields["kind"].name == "gold") == \
        {2: 8, 3: 8, 4: 8, 5: 8, 6: 7}


# Ported to games/tobago.tests (scenarios named T2-T14): the clue forms and plays, markers,
# the blocked-hand exchange, driving, amulets, raising, sharing, curses, the restart, the
# statues after a sharing and the end. What stays here is what the format cannot say: the
# island's geometry, the 52 cards against an independent computation and the deck stacking
# over several seeds (above), and what each player's observation hides (below).

# ---------------------------------------------------------------- a table to set up

class Table:
    """A 3-player game at the first 4x4 placement; edit, then ``start`` the first turn."""

    def __init__(self, game, seed=0):
        self.game, self.cat = game, game.catalog
        self.board = self.cat.boards["island"]
        state = game.new_initial_state(seed=seed, explicit_chance=True)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0].id)
        self.data = state.to_json()
        for cid in list(self.zones["amulets_out"]):          # an empty island
            self.put(cid, "amulet_pool")
            self.var("at", cid, None)

    @property
    def zones(self):
        return self.data["zones"]

    def ids(self, label, zone=None):
        found = [c.id for c in self.cat.components if c.label == label]
        return [i for i in found if zone is None or i in self.zones[zone]]

    def id(self, label, zone=None):
        return self.ids(label, zone)[0]

    def put(self, cid, zone):
        """Move component ``cid`` to the top of a zone (NAME or NAME/SEAT)."""
        for ids in self.zones.values():
            if cid in ids:
                ids.remove(cid)
        self.zones[zone].append(cid)

    def var(self, name, cid, value):
        self.data["component_vars"][name][cid] = value

    def hex(self, name):
        return {"board": "island", "space": self.board.space(name).name}

    def fits(self, cid):
        return [s for s in self.board.spaces if self.data["component_vars"]["fits"][cid][s.index]]

    def sites(self, colour, spaces):
        """A map's candidates, with its markers placed as the rules keep them."""
        m = self.id(f"{colour} map")
        self.var("sites", m, [self.hex(s.name) for s in spaces])
        for cid in list(self.zones["markers_out"]):
            if self.cat.components[cid].label == f"{colour} marker":
                self.put(cid, "marker_box")
                self.var("at", cid, None)
        if len(spaces) < 17:
            for s, cid in zip(spaces, self.ids(f"{colour} marker", "marker_box"), strict=False):
                self.put(cid, "markers_out")
                self.var("at", cid, self.hex(s.name))
        return m

    def clue_on(self, seat, colour, label):
        """An earlier clue of a player on a map: the card and one of his roses."""
        m = self.id(f"{colour} map")
        card = self.id(label)
        self.put(card, "clues_played")
        self.var("on_map", card, {"component": m})
        rose = self.zones[f"roses/{seat}"][-1]
        self.put(rose, "roses_out")
        self.var("on_map", rose, {"component": m})

    def start(self, cars):
        state = self.game.state_from_json(self.data)
        for name in cars:
            act(state, name)
        assert state.check_invariants() == []
        return state


def act(state, label):
    player = state.current_players()[0]
    (action,) = [a for a in state.legal_actions(player) if str(a) == label]
    state.apply_action(action)


def chance(state, label):
    (outcome,) = [a for a, _ in state.chance_outcomes() if str(a) == label][:1]
    state.apply_action(outcome)


def located_table(game, board, site="4,9", contributors=(1, 2)):
    """Red is located at `site` (beach); each contributor has played one clue on it."""
    t = Table(game)
    s = board.space(site)
    t.sites("red", [s])
    cards = [c.id for c in game.catalog.components if c.type == "clue" and s in t.fits(c.id)]
    for seat, card in zip(contributors, cards, strict=False):
        t.clue_on(seat, "red", game.catalog.components[card].label)
    return t


# Kept in Python: scenarios cannot check observations (what another player sees).
def test_peeked_cards_and_won_gold_are_private(board, game3):
    """T7: each contributor looks secretly at his cards (`glimpse`, owner only); the card on
    offer is public; a won gold card is hidden from the others until the end (T14)."""
    t = located_table(game3, board)             # roses: player 2, then player 3
    for label in ("gold 5", "gold 4", "gold 3", "gold 2"):      # the top 4 cards
        t.put(t.id(label, "treasure_deck"), "treasure_deck")
    state = t.start(["5,8", "4,1", "5,1"])
    act(state, "drive")
    act(state, "4,9")
    act(state, "red map")                       # player 1 raises red: his rose is last
    for seat in range(3):
        mine = state.observation(seat)["players"][seat]
        assert len(mine["glimpse"]) == 1
        assert all("glimpse" not in state.observation(seat)["players"][other]
                   for other in range(3) if other != seat)
    chance(state, "gold 2")
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0].id)
    offer = state.observation(1)["zones"]["offer"]
    assert [c["label"] for c in offer] == ["gold 2"]               # shown to all
    act(state, "pass")
    act(state, "pass")
    act(state, "take")                                              # player 2 takes it
    hidden = state.observation(0)["players"][1]
    assert hidden.get("gold", {"count": 1}) == {"count": 1}          # won cards are private
    assert [c["label"] for c in state.observation(1)["players"][1]["gold"]] == ["gold 2"]
