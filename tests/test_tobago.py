"""Scenario tests for games/tobago.rules and its island, games/tobago/island.yaml.

The island tests check the layout rulings of RULES.md with the Python board API. The rule
tests start at the first 4x4 placement (explicit chance, so a test picks shuffles), set the
table up by editing ``to_json()`` and loading it back, place the 4x4s, then play the first
turn with chosen decisions and check the outcome.
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

def test_island_size_and_terrains(board):
    assert 60 <= len(land(board)) <= 80
    assert {terrain(s) for s in land(board)} == set(LAND_TERRAINS)
    for s in land(board):                       # sea all around: no land hex on the edge
        assert len(board.neighbors(s)) == 6


def test_each_land_terrain_has_exactly_one_largest_region(board):
    for t in LAND_TERRAINS:
        sizes = [len(r) for r in board.regions("terrain", t)]
        assert sizes[0] > (sizes[1] if len(sizes) > 1 else 0), (t, sizes)


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


@pytest.mark.parametrize("seed", range(5))
def test_treasure_deck_is_stacked_with_the_curses_low(game3, seed):
    state = game3.new_initial_state(seed=seed)
    deck = [game3.catalog.components[i] for i in state.to_json()["zones"]["treasure_deck"]]
    assert len(deck) == 41
    assert all(c.fields["kind"].name == "gold" for c in deck[-12:])       # the top 12
    assert sum(c.fields["kind"].name == "curse" for c in deck[:29]) == 2
    assert Counter(c.fields["value"] for c in deck if c.fields["kind"].name == "gold") == \
        {2: 8, 3: 8, 4: 8, 5: 8, 6: 7}


def test_statues_look_at_the_sea_then_turn(board, game3):
    state = game3.new_initial_state(seed=1)
    statues = [s for s in board.spaces if s.attributes.get("landmark") == "statue"]
    gaze = state.space_values["gaze"]
    spots = sorted(gaze_spot(board, s, s.attributes["faces"]).name for s in statues)
    data = state.to_json()
    cat = game3.catalog
    placed = sorted(board.spaces[data["component_vars"]["at"][i]["space"]].name for i in data["zones"]["amulets_out"])
    assert placed == spots
    assert [gaze[s.index] for s in statues] == [(s.attributes["faces"] + 1) % 6 for s in statues]
    assert all(cat.components[i].type == "amulet" for i in data["zones"]["amulets_out"])


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
        return {"board": "island", "space": self.board.space(name).index}

    def fits(self, cid):
        return [s for s in self.board.spaces if self.data["component_vars"]["fits"][cid][s.index]]

    def hand(self, seat, labels):
        for cid in list(self.zones[f"hand/{seat}"]):
            self.put(cid, "clue_draw")
        for label in labels:
            self.put(self.id(label), f"hand/{seat}")

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


def labels(state):
    return [str(a) for a in state.legal_actions(state.current_players()[0])]


def act(state, label):
    player = state.current_players()[0]
    (action,) = [a for a in state.legal_actions(player) if str(a) == label]
    state.apply_action(action)


def chance(state, label):
    (outcome,) = [a for a, _ in state.chance_outcomes() if str(a) == label][:1]
    state.apply_action(outcome)


def map_sites(state, game, colour):
    m = next(c for c in game.catalog.components if c.label == f"{colour} map")
    return [s.name for s in state.component_values["sites"][m.id]]


# ---------------------------------------------------------------- clues

def test_a_clue_that_would_empty_the_candidates_is_not_offered(board, game3):
    t = Table(game3)
    big = board.largest_region("terrain", "jungle")
    small = next(s for s in land(board) if terrain(s) == "jungle" and s not in big)
    t.sites("red", sorted([big[0], small]))          # markers are out: 2 candidates
    t.hand(0, ["in beach", "in jungle", "not in the largest jungle", "not in lake"])
    state = t.start(["3,1", "4,1", "5,1"])
    assert labels(state) == ["play a clue", "drive"]
    act(state, "play a clue")
    assert sorted(labels(state)) == sorted(["in beach", "in jungle", "not in the largest jungle", "not in lake"])
    # "in beach" would leave no candidate on red, "in jungle" would remove none: not red
    for card, maps in [("in beach", ["blue map", "green map", "yellow map"]),
                       ("in jungle", ["blue map", "green map", "yellow map"]),
                       ("not in the largest jungle", ["red map", "blue map", "green map", "yellow map"])]:
        probe = state.clone()
        act(probe, card)
        assert labels(probe) == maps, card
    probe = state.clone()                        # removing nothing is fine before markers
    act(probe, "not in lake")
    assert labels(probe) == ["blue map", "green map", "yellow map"]
    act(state, "not in the largest jungle")
    act(state, "red map")
    assert map_sites(state, game3, "red") == [small.name]       # located
    assert any("red map treasure is located" in line for line in state.log)
    assert state.check_invariants() == []


def test_a_played_clue_narrows_the_map_and_puts_out_markers(board, game3):
    t = Table(game3)
    t.hand(0, ["in lake", "in beach", "in river", "in mountain"])
    state = t.start(["3,1", "4,1", "5,1"])
    act(state, "play a clue")
    act(state, "in lake")
    act(state, "green map")
    lakes = sorted(s.name for s in land(board) if terrain(s) == "lake")
    assert sorted(map_sites(state, game3, "green")) == lakes
    data = state.to_json()
    markers = [board.spaces[data["component_vars"]["at"][i]["space"]].name for i in data["zones"]["markers_out"]]
    assert sorted(markers) == lakes
    assert len(data["zones"]["hand/0"]) == 4                      # drawn back to 4
    roses = [game3.catalog.components[i].label for i in data["zones"]["roses_out"]]
    assert roses == ["rose of player 1"]


def test_a_blocked_player_may_exchange_his_hand(board, game3):
    t = Table(game3)
    for colour, site in zip(("red", "blue", "green", "yellow"), ("4,9", "3,9", "1,3", "7,5"), strict=True):
        t.sites(colour, [board.space(site)])        # located: no clue can remove one
    old = ["in lake", "in beach", "in river", "in mountain"]
    t.hand(0, old)
    probe = t.start(["5,8", "4,1", "5,1"])
    assert labels(probe) == ["drive"]               # all four located: nothing to exchange for
    t.sites("yellow", [board.space("3,4"), board.space("3,5")])    # two lake hexes: no card splits them
    state = t.start(["5,8", "4,1", "5,1"])
    assert labels(state) == ["drive", "new clue cards"]
    act(state, "new clue cards")
    data = state.to_json()
    new = [game3.catalog.components[i].label for i in data["zones"]["hand/0"]]
    assert len(new) == 4 and not set(new) & set(old)
    assert sorted(game3.catalog.components[i].label for i in data["zones"]["clue_discard"]) == sorted(old)
    assert state.current_players() == [1]                           # that was his action


# ---------------------------------------------------------------- movement

def test_a_leg_stays_in_one_terrain_or_enters_one_hex_of_another(board, game3):
    t = Table(game3)
    start = board.space("5,8")                      # a beach of the largest beach region
    state = t.start([start.name, "4,1", "5,1"])
    act(state, "drive")
    offered = set(labels(state))
    region = set(board.region(start, "terrain")) - {start}
    step_out = {n for n in board.neighbors(start) if terrain(n) not in ("sea", terrain(start))}
    assert offered == {s.name for s in region | step_out}
    assert "stop" not in offered                                   # at least one leg
    far = [s for s in region if board.distance(start, s) >= 3]
    assert far and all(s.name in offered for s in far)            # any distance in one terrain
    crossing = [s for s in land(board) if board.distance(start, s) == 2 and s not in region]
    assert crossing and not any(s.name in offered for s in crossing)   # two terrains in one leg
    act(state, "4,8")                                               # into the scrubland hex
    assert "stop" in labels(state)
    assert all(board.distance(board.space("4,8"), board.space(x)) == 1 for x in labels(state) if x != "stop")
    act(state, "stop")
    assert state.current_players() == [1]


def test_amulets_are_picked_up_where_a_leg_ends_but_not_on_the_amulet_drive(board, game3):
    t = Table(game3)
    a, b = t.zones["amulet_pool"][-2:]
    for cid, name in ((a, "4,9"), (b, "3,9")):
        t.put(cid, "amulets_out")
        t.var("at", cid, t.hex(name))
    state = t.start(["5,8", "4,1", "5,1"])
    act(state, "drive")
    act(state, "4,9")                      # ends on an amulet: picked up
    act(state, "stop")
    data = state.to_json()
    assert data["zones"]["amulets/0"] == [a]
    act(state, "amulet: drive")            # the amulet's drive picks nothing up
    act(state, "3,9")
    assert state.to_json()["zones"]["amulets/0"] == []
    assert b in state.to_json()["zones"]["amulets_out"]
    assert state.current_players() == [0] and "stop" in labels(state)


def test_amulet_removes_a_marker(board, game3):
    t = Table(game3)
    lakes = sorted((s for s in land(board) if terrain(s) == "lake"), key=lambda s: s.index)
    t.sites("blue", lakes)
    t.put(t.zones["amulet_pool"][-1], "amulets/0")
    state = t.start(["3,1", "4,1", "5,1"])
    assert "amulet: remove a marker" in labels(state)
    act(state, "amulet: remove a marker")
    assert labels(state) == [s.name for s in lakes]                 # only blue has markers
    act(state, lakes[0].name)
    assert map_sites(state, game3, "blue") == [s.name for s in lakes[1:]]
    assert state.check_invariants() == []
    assert "amulet: remove a marker" not in labels(state)           # no amulet left
    assert "play a clue" in labels(state) and "end the turn" not in labels(state)


# ---------------------------------------------------------------- raising and sharing

def located_table(game, board, site="4,9", contributors=(1, 2)):
    """Red is located at `site` (beach); each contributor has played one clue on it."""
    t = Table(game)
    s = board.space(site)
    t.sites("red", [s])
    cards = [c.id for c in game.catalog.components if c.type == "clue" and s in t.fits(c.id)]
    for seat, card in zip(contributors, cards, strict=False):
        t.clue_on(seat, "red", game.catalog.components[card].label)
    return t


def test_sharing_goes_from_the_last_rose_back(board, game3):
    t = located_table(game3, board)             # roses: player 2, then player 3
    for label in ("gold 5", "gold 4", "gold 3", "gold 2"):      # the top 4 cards
        t.put(t.id(label, "treasure_deck"), "treasure_deck")
    state = t.start(["5,8", "4,1", "5,1"])
    act(state, "drive")
    act(state, "4,9")                           # player 1 raises red: his rose is last
    assert any("raises the red map treasure" in line for line in state.log)
    # each contributor looked at one card, privately
    for seat in range(3):
        mine = state.observation(seat)["players"][seat]
        assert len(mine["glimpse"]) == 1
        assert all("glimpse" not in state.observation(seat)["players"][other]
                   for other in range(3) if other != seat)
    # 3 roses: 3 cards looked at, 1 more: 4 cards shuffled (3 chance picks)
    assert state.is_chance_node()
    chance(state, "gold 2")
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0].id)
    offer = state.observation(1)["zones"]["offer"]
    assert [c["label"] for c in offer] == ["gold 2"]               # shown to all
    assert state.current_players() == [0]                           # the raiser first
    act(state, "pass")
    assert state.current_players() == [2]                           # then the last clue
    act(state, "pass")
    assert state.current_players() == [1]                           # then the first
    act(state, "take")
    assert any("player 2 takes gold 2" in line for line in state.log)
    hidden = state.observation(0)["players"][1]
    assert hidden.get("gold", {"count": 1}) == {"count": 1}          # won cards are private
    assert [c["label"] for c in state.observation(1)["players"][1]["gold"]] == ["gold 2"]
    assert state.current_players() == [0]                           # next card: from the top again


def test_curse_with_and_without_an_amulet(board, game3):
    for choice in ("spend an amulet", "lose the best gold card"):
        t = located_table(game3, board, contributors=(1,))
        t.put(t.id("curse"), "treasure_deck")
        for label, seat in (("gold 6", 0), ("gold 2", 0), ("gold 5", 1), ("gold 3", 1), ("gold 4", 2)):
            t.put(t.id(label, "treasure_deck"), f"gold/{seat}")
        t.put(t.zones["amulet_pool"][-1], "amulets/0")               # player 1 has an amulet
        state = t.start(["5,8", "4,1", "5,1"])
        act(state, "drive")
        act(state, "4,9")
        chance(state, "curse")
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0].id)
        # the curse stops the sharing: player 1 (raiser) chooses, player 2 has no amulet
        assert state.current_players() == [0]
        assert sorted(labels(state)) == ["lose the best gold card", "spend an amulet"]
        act(state, choice)
        data = state.to_json()
        gold = {seat: sorted(game3.catalog.components[i].label for i in data["zones"][f"gold/{seat}"])
                for seat in range(3)}
        if choice == "spend an amulet":
            assert gold[0] == ["gold 2", "gold 6"] and data["zones"]["amulets/0"] == []
        else:
            assert gold[0] == ["gold 2"] and len(data["zones"]["amulets/0"]) == 1
        assert gold[1] == ["gold 3"]                                  # lost his best, the 5
        assert gold[2] == ["gold 4"]                                  # no rose on the map
        assert state.check_invariants() == []


def test_the_last_taker_restarts_the_map_then_statues_turn(board, game3):
    t = located_table(game3, board, contributors=(1,))
    state = t.start(["5,8", "4,1", "5,1"])
    gaze_before = list(state.space_values["gaze"])
    act(state, "drive")
    act(state, "4,9")
    while state.is_chance_node():
        golds = [a for a, _ in state.chance_outcomes() if str(a) != "curse"]
        state.apply_action(golds[0])
    # 3 gold cards (2 roses + 1): player 1 takes the first, passes the rest;
    # player 2 takes the second; the third goes to nobody: roses are gone.
    act(state, "take")                       # player 1
    assert state.current_players() == [1]
    act(state, "take")                       # player 2, the last taker
    assert state.current_players() == [1]   # must restart red with a clue
    hand = labels(state)
    assert len(hand) == 4
    act(state, hand[0])
    assert any(f'player 2 plays "{hand[0]}" on the red map' in line for line in state.log)
    assert len(map_sites(state, game3, "red")) > 1
    data = state.to_json()
    assert sorted(len(data["zones"][f"gold/{s}"]) for s in range(3)) == [0, 1, 1]
    assert len(data["zones"]["treasure_discard"]) == 1
    # amulets appeared where the statues looked, then the statues turned again
    statues = [s for s in board.spaces if s.attributes.get("landmark") == "statue"]
    assert [state.space_values["gaze"][s.index] for s in statues] == [(gaze_before[s.index] + 1) % 6 for s in statues]
    spots = sorted(gaze_spot(board, s, gaze_before[s.index]).name for s in statues)
    placed = sorted(board.spaces[data["component_vars"]["at"][i]["space"]].name for i in data["zones"]["amulets_out"])
    assert placed == spots
    # the raise ended player 1's move: it is his turn no more
    assert state.current_players() == [1]
    assert state.check_invariants() == []


def test_the_game_ends_after_the_sharing_that_empties_the_treasure_deck(board, game3):
    t = located_table(game3, board, contributors=(1,))
    keep = t.zones["treasure_deck"][-2:]                  # 2 roses: 2 cards looked at, + 1 wanted
    for cid in t.zones["treasure_deck"][:-2]:
        t.put(cid, "treasure_discard")
    state = t.start(["5,8", "4,1", "5,1"])
    act(state, "drive")
    act(state, "4,9")
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0].id)
    while not state.is_terminal():
        act(state, "take" if "take" in labels(state) else labels(state)[0])
    assert any("the treasure deck is empty" in line for line in state.log)
    assert sorted(state.returns()) == sorted([0.0] + [float(game3.catalog.components[i].fields["value"])
                                                      for i in keep])
