"""Scenario tests for games/jamaica.rules and games/jamaica_2p.rules: one per rule clause.

Each test starts at the first round's dice roll (explicit chance, so the test rolls the
dice), sets the table up by editing ``to_json()`` and loading it back, then plays the
round with chosen dice, cards and decisions and checks the outcome.
"""
from __future__ import annotations

import pytest
from conftest import GAMES_DIR

import rulelang

BASE = GAMES_DIR / "jamaica.rules"
GHOST = GAMES_DIR / "jamaica_2p.rules"
SUPPLIES = ("doubloons", "food", "gunpowder")


@pytest.fixture(scope="module")
def game3():
    return rulelang.load(BASE, players=3)


@pytest.fixture(scope="module")
def game2():
    return rulelang.load(GHOST, players=2)


class Table:
    """A game at the first round's dice roll, with helpers to set it up and play it."""

    def __init__(self, game):
        self.game = game
        self.cat = game.catalog
        state = game.new_initial_state(seed=0, explicit_chance=True)
        while state.is_chance_node() and state.global_values["round"] == 0:
            state.apply_action(state.chance_outcomes()[0][0].id)  # setup: first outcome
        self.state = state
        self.data = state.to_json()
        for seat in range(len(self.cat.players)):  # empty every hold: tests set goods
            for hold in self.holds(seat):
                for supply in SUPPLIES:
                    self.goods(hold, supply, 0)
        for seat in range(game.num_players):          # bystanders play a harmless card
            self.hand(seat, idle(seat))

    # ---- lookups ----
    def component(self, label):
        (found,) = [c for c in self.cat.components if c.label == label]
        return found

    def space(self, name):
        return self.cat.boards["track"].space(name)

    def holds(self, seat):
        return [c for c in self.cat.components if c.label.startswith(f"player {seat + 1} hold ")]

    def hold(self, seat, number):
        return self.component(f"player {seat + 1} hold {number}")

    # ---- editing (before start()) ----
    def at(self, seat, name, lap=0):
        self.data["player_vars"]["at"][seat] = {"board": "track", "space": self.space(name).index}
        self.data["player_vars"]["lap"][seat] = lap

    def goods(self, holder, supply, n):
        """Put exactly n tokens of supply on a component; the bank makes up the difference."""
        counts = self.data["supplies"][supply]
        slot = self.cat.holder_base + holder.id
        counts[0] += counts[slot] - n
        counts[slot] = n
        assert counts[0] >= 0

    def put(self, label, zone):
        """Move the component with this label to the zone named NAME or NAME/SEAT."""
        cid = self.component(label).id
        zones = self.data["zones"]
        if cid in zones["treasure_pile"] and zones["treasure_box"]:
            # keep one card in the pile per token on a lair: one from the box replaces it
            zones["treasure_pile"][zones["treasure_pile"].index(cid)] = zones["treasure_box"].pop()
        for ids in zones.values():
            if cid in ids:
                ids.remove(cid)
        zones[zone].append(cid)

    def take_token(self, lair):
        """The lair's treasure token is gone (and with it one card from the pile)."""
        self.put(f"treasure token on {lair}", "tokens_taken")
        self.data["zones"]["treasure_box"].append(self.data["zones"]["treasure_pile"].pop())

    def hand(self, seat, *labels):
        """The seat's hand becomes these cards (its old hand goes back to its deck)."""
        for cid in list(self.data["zones"][f"hand/{seat}"]):
            self.data["zones"][f"hand/{seat}"].remove(cid)
            self.data["zones"][f"draw/{seat}"].append(cid)
        for label in labels:
            self.put(label, f"hand/{seat}")

    def start(self):
        self.state = self.game.state_from_json(self.data)
        assert self.state.check_invariants() == []
        return self

    # ---- playing ----
    def roll(self, *faces):
        for face in faces:
            assert self.state.is_chance_node(), self.state.current_players()
            (outcome,) = [a for a, _ in self.state.chance_outcomes() if str(a) == str(face)]
            self.state.apply_action(outcome.id)

    def options(self, player=None):
        players = self.state.current_players() if player is None else [player]
        return [str(a) for p in players for a in self.state.legal_actions(p)]

    def choose(self, label, player=None):
        players = self.state.current_players() if player is None else [player]
        for p in players:
            for action in self.state.legal_actions(p):
                if str(action) == str(label):
                    self.state.apply_action(action.id, player=p)
                    assert self.state.check_invariants() == []
                    return
        raise AssertionError(f"{label!r} is not legal; legal: {self.options(player)}")

    def round(self, morning, evening, cards):
        """Roll the dice (captain: player 1, who puts `morning` on morning), play the cards."""
        self.roll(morning, evening)
        if morning != evening:
            self.choose(morning)
        for seat, card in cards.items():
            self.choose(card, player=seat)

    # ---- reading ----
    def where(self, seat):
        return self.state.player_values["at"][seat].name

    def count(self, holder, supply):
        return self.state.supply_counts[supply][self.cat.holder_base + holder.id]

    def total(self, seat, supply):
        return sum(self.count(h, supply) for h in self.holds(seat))

    def zone(self, name, seat=None):
        ref = next(r for r in self.cat.zone_refs
                   if r.name == name and (r.owner is None if seat is None else r.owner.index == seat))
        return [c.label for c in self.state.zones[ref.slot]]

    def logged(self, text):
        return any(text in line for line in self.state.log)


IDLE = "{} 8: gold / gold"  # a bystander's card: loads doubloons into an empty hold


def idle(seat):
    return IDLE.format(["red", "blue", "green"][seat])


# ---- loading ----

def test_loading_fills_an_empty_hold(game3):
    t = Table(game3)
    t.goods(t.hold(0, 1), "food", 3)
    t.hand(0, "red 10: food / gunpowder")
    t.start().round(4, 2, {0: "red 10: food / gunpowder", 1: idle(1), 2: idle(2)})
    assert t.count(t.hold(0, 1), "food") == 3        # never added to a non-empty hold
    assert t.count(t.hold(0, 2), "food") == 4
    assert t.count(t.hold(0, 3), "gunpowder") == 2


def test_full_holds_empty_one_of_another_kind_first(game3):
    t = Table(game3)
    for number, (supply, n) in enumerate([("food", 3), ("doubloons", 3), ("gunpowder", 2),
                                          ("doubloons", 1), ("food", 1)], start=1):
        t.goods(t.hold(0, number), supply, n)
    t.hand(0, "red 8: gold / gold")
    t.start().round(5, 2, {0: "red 8: gold / gold", 1: idle(1), 2: idle(2)})
    # only holds of another kind may be emptied
    assert t.options() == ["player 1 hold 1", "player 1 hold 3", "player 1 hold 5"]
    t.choose("player 1 hold 3")
    assert t.count(t.hold(0, 3), "gunpowder") == 0 and t.count(t.hold(0, 3), "doubloons") == 5
    t.choose("player 1 hold 1")                       # the evening load
    assert t.count(t.hold(0, 1), "food") == 0 and t.count(t.hold(0, 1), "doubloons") == 2


def test_nothing_is_loaded_when_every_hold_holds_that_kind(game3):
    t = Table(game3)
    for number in range(1, 6):
        t.goods(t.hold(0, number), "doubloons", 1)
    t.hand(0, "red 8: gold / gold")
    t.start().round(5, 2, {0: "red 8: gold / gold", 1: idle(1), 2: idle(2)})
    assert t.total(0, "doubloons") == 5
    assert t.logged("player 1 cannot load doubloons")


# ---- movement ----

def test_the_mover_chooses_at_a_fork(game3):
    t = Table(game3)
    t.at(0, "05")
    t.goods(t.hold(0, 1), "doubloons", 10)
    t.hand(0, "red 7: gold / forward")
    t.start().round(2, 3, {0: "red 7: gold / forward", 1: idle(1), 2: idle(2)})
    assert t.options() == ["north_1", "south_1"] and t.state.current_players() == [0]
    t.choose("south_1")
    assert t.where(0) == "south_1"
    assert t.total(0, "doubloons") == 2 + 10 - 4      # loaded 2, paid the port's 4


def test_backward_from_the_start_still_needs_the_whole_lap(game3):
    t = Table(game3)
    t.goods(t.hold(0, 1), "food", 9)
    t.goods(t.hold(0, 2), "doubloons", 9)
    t.hand(0, "red 3: backward / forward")
    t.start().round(2, 3, {0: "red 3: backward / forward", 1: idle(1), 2: idle(2)})
    # backward 2 from Port Royal: the final stretch, behind the lap; forward 3: past Port
    # Royal (not finished) to the first space
    assert t.where(0) == "01" and t.state.player_values["lap"][0] == 0 and not t.state.player_values["home"][0]
    assert t.logged("player 1 plays red 3") and not t.logged("back in Port Royal")


def test_costs_port_in_doubloons_sea_in_food_lair_free(game3):
    t = Table(game3)
    t.goods(t.hold(0, 1), "food", 5)
    t.goods(t.hold(0, 2), "doubloons", 5)
    t.hand(0, "red 1: forward / forward")
    t.start().round(1, 1, {0: "red 1: forward / forward", 1: idle(1), 2: idle(2)})
    # 01 (sea, 1 food), then 02 (port, 2 doubloons)
    assert t.where(0) == "02" and t.total(0, "food") == 4 and t.total(0, "doubloons") == 3


# ---- shortage ----

def test_shortage_pays_what_it_can_and_falls_back_onto_an_occupied_space(game3):
    t = Table(game3)
    t.at(0, "12")
    t.at(1, "10")                                     # a lair, two spaces back
    t.goods(t.hold(0, 1), "doubloons", 3)             # 12 is a 4-doubloon port
    t.goods(t.hold(0, 2), "food", 1)                  # 13 is a 1-food sea: affordable
    t.hand(0, "red 4: forward / food")
    t.start().round(2, 1, {0: "red 4: forward / food", 1: idle(1), 2: idle(2)})
    # 14 is a lair: free; the ship is there now. Next, make it fall back:
    assert t.where(0) == "14"
    t2 = Table(game3)
    t2.at(0, "11")
    t2.at(1, "10")
    t2.goods(t2.hold(0, 1), "food", 2)                # 12 costs 4 doubloons: short
    t2.hand(0, "red 4: forward / food")
    t2.start().round(1, 2, {0: "red 4: forward / food", 1: idle(1), 2: idle(2)})
    # pays nothing (no doubloons), falls back past 11 (3 food: short) to the lair 10,
    # where player 2 is: a fight
    assert t2.where(0) == "10"
    assert t2.logged("player 1 attacks player 2 at 10")
    assert t2.state.is_chance_node()                  # the attacker's combat roll


# ---- combat ----

def fight_table(game, attacker_extra=None, defender_extra=None):
    """Player 1 (at 09) sails 1 forward onto 10, a lair (its treasure gone) where player 2 waits."""
    t = Table(game)
    t.take_token("10")
    t.at(0, "09")
    t.at(1, "10")
    t.goods(t.hold(0, 1), "food", 2)
    t.goods(t.hold(1, 1), "food", 4)
    t.goods(t.hold(1, 2), "doubloons", 6)
    for label in attacker_extra or []:
        t.put(label, "face_up/0")
    for label in defender_extra or []:
        t.put(label, "face_up/1")
    t.hand(0, "red 5: food / forward")
    return t


def test_attacker_star_wins_outright_and_the_defender_does_not_roll(game3):
    t = fight_table(game3).start()
    t.round(3, 1, {0: "red 5: food / forward", 1: idle(1), 2: idle(2)})
    t.roll("star")
    assert t.options() == ["take a hold's contents"]  # player 2 has no treasure
    assert not t.logged("player 2 rolls")
    t.choose("take a hold's contents")
    t.choose("player 2 hold 2")
    assert t.total(0, "doubloons") == 6
    assert t.total(1, "doubloons") == 3 + 1           # then player 2 plays his own card


def test_higher_total_wins_and_a_tie_does_nothing(game3):
    t = fight_table(game3).start()
    t.round(3, 1, {0: "red 5: food / forward", 1: idle(1), 2: idle(2)})
    t.roll(6, 6)
    assert t.logged("a draw: nothing happens")
    assert t.where(0) == "10" and t.count(t.hold(1, 2), "doubloons") == 6


def test_gunpowder_is_committed_and_spent(game3):
    t = fight_table(game3)
    t.goods(t.hold(0, 3), "gunpowder", 5)
    t.start().round(3, 1, {0: "red 5: food / forward", 1: idle(1), 2: idle(2)})
    assert t.options() == [str(n) for n in range(6)]
    t.choose(3)
    t.roll(4)                                        # 3 + 4 = 7
    t.roll(6)                                        # player 2 has no gunpowder: 6
    assert t.total(0, "gunpowder") == 2
    assert t.logged("fire power: player 1 7, player 2 6")


def test_lady_beth_adds_two(game3):
    t = fight_table(game3, defender_extra=["Lady Beth"]).start()
    t.round(3, 1, {0: "red 5: food / forward", 1: idle(1), 2: idle(2)})
    t.roll(8, 8)
    assert t.logged("fire power: player 1 8, player 2 10")
    assert t.logged("player 2 wins the fight")


def test_sarans_sabre_rerolls_a_star(game3):
    t = fight_table(game3, defender_extra=["Saran's Sabre"]).start()
    t.round(3, 1, {0: "red 5: food / forward", 1: idle(1), 2: idle(2)})
    t.roll("star")
    assert t.state.current_players() == [1]          # the Sabre's owner decides
    t.choose("re-roll with Saran's Sabre")
    t.roll(2)                                        # the re-roll stands
    t.roll(10)                                       # the defender rolls: no second re-roll offer
    assert t.logged("player 2 wins the fight")
    assert t.options() == ["take a hold's contents"]


def test_several_ships_the_attacker_picks_one_and_never_at_port_royal(game3):
    t = fight_table(game3)
    t.at(2, "10")
    t.start().round(3, 1, {0: "red 5: food / forward", 1: idle(1), 2: idle(2)})
    assert t.options() == ["player 2", "player 3"]
    t2 = Table(game3)
    t2.at(0, "36")
    t2.at(1, "port_royal", lap=0)
    t2.goods(t2.hold(0, 1), "doubloons", 8)
    t2.hand(0, "red 2: forward / backward")
    t2.start().round(2, 1, {0: "red 2: forward / backward", 1: idle(1), 2: idle(2)})
    # forward 2 from 36: Port Royal ends the lap (home), no fight with player 2 there
    assert t2.state.player_values["home"][0] and not t2.logged("attacks")


def test_stealing_the_sixth_hold_takes_its_contents(game3):
    t = fight_table(game3, defender_extra=["6th Hold"])
    t.goods(t.component("6th Hold"), "gunpowder", 4)
    t.start().round(3, 1, {0: "red 5: food / forward", 1: idle(1), 2: idle(2)})
    t.roll(10)
    t.choose(0)                                      # player 2 commits none of the 6th Hold's gunpowder
    t.roll(2)
    t.choose("take a face-up treasure")
    t.choose("6th Hold")
    assert t.zone("face_up", 0) == ["6th Hold"]
    assert t.count(t.component("6th Hold"), "gunpowder") == 4
    assert t.total(1, "gunpowder") == 0


def test_a_face_down_treasure_is_taken_blind(game3):
    t = fight_table(game3)
    t.put("riches +7", "face_down/1")
    t.put("curse -4", "face_down/1")
    t.start().round(3, 1, {0: "red 5: food / forward", 1: idle(1), 2: idle(2)})
    t.roll(10, 2)
    t.choose("take a face-down treasure")
    assert t.options() == ["1", "2"]                 # positions, not cards
    t.choose(2)
    assert t.zone("face_down", 0) == ["curse -4"]


def test_the_winner_may_give_a_curse(game3):
    t = fight_table(game3)
    t.put("curse -3", "face_down/0")
    t.start().round(3, 1, {0: "red 5: food / forward", 1: idle(1), 2: idle(2)})
    t.roll(10, 2)
    t.choose("give a curse")
    t.choose("curse -3")
    assert t.zone("face_down", 1) == ["curse -3"] and t.zone("face_down", 0) == []


# ---- treasures and cards ----

def test_a_lair_gives_its_token_and_a_treasure_card(game3):
    t = Table(game3)
    t.at(0, "02")
    t.goods(t.hold(0, 1), "food", 2)
    top = t.data["zones"]["treasure_pile"][-1]
    t.hand(0, "red 5: food / forward")
    t.start().round(2, 1, {0: "red 5: food / forward", 1: idle(1), 2: idle(2)})
    assert t.where(0) == "03"
    assert "treasure token on 03" in t.zone("tokens_taken")
    card = game3.catalog.components[top].label
    assert card in t.zone("face_up", 0) + t.zone("face_down", 0)


def test_morgans_map_draws_back_to_four_and_the_discard_is_reshuffled(game3):
    t = Table(game3)
    t.put("Morgan's Map", "face_up/0")
    t.goods(t.hold(0, 1), "food", 5)
    t.hand(0, "red 11: gunpowder / food")
    # player 1's deck is empty: his discard becomes a new deck
    for cid in list(t.data["zones"]["draw/0"]):
        t.data["zones"]["draw/0"].remove(cid)
        t.data["zones"]["discard/0"].append(cid)
    t.start().round(2, 1, {0: "red 11: gunpowder / food", 1: idle(1), 2: idle(2)})
    while t.state.is_chance_node():                  # the reshuffle
        t.roll(t.state.chance_outcomes()[0][0])
    assert len(t.zone("hand", 0)) == 4 and len(t.zone("hand", 1)) == 3
    assert t.state.global_values["captain"].index == 1           # the compass passes left


# ---- the end ----

def test_the_arriving_ship_skips_its_evening_and_the_round_finishes(game3):
    t = Table(game3)
    t.at(0, "35")
    t.at(1, "34")
    t.goods(t.hold(0, 1), "doubloons", 4)
    t.goods(t.hold(1, 1), "doubloons", 20)
    t.goods(t.hold(1, 2), "food", 9)
    t.hand(0, "red 2: forward / backward")
    t.hand(1, "blue 1: forward / forward")
    t.start().round(2, 1, {0: "red 2: forward / backward", 1: "blue 1: forward / forward", 2: idle(2)})
    assert t.logged("player 1 is home and skips the evening")
    # player 2 still plays: morning 34 -> 35 -> 36 (pays its 4 doubloons), evening home
    assert t.state.is_terminal() and t.state.player_values["home"][1]
    assert t.state.returns()[0] == 15 + 4
    assert t.state.returns()[1] == 15 + 20 - 4


def test_a_tie_goes_to_the_ship_closest_to_port_royal(game3):
    t = Table(game3)
    t.data["terminal"] = True
    t.data["frames"] = []
    t.at(0, "30")                                    # 4 points
    t.at(1, "31")                                    # 5 points
    t.at(2, "02")                                    # -5
    t.goods(t.hold(0, 1), "doubloons", 6)
    t.goods(t.hold(1, 1), "doubloons", 5)
    t.goods(t.hold(2, 1), "doubloons", 15)
    t.start()
    assert t.state.returns() == [10.0, 10.0, 10.0]
    assert t.state.winners() == [1]


def test_a_ship_behind_its_lap_scores_minus_five(game3):
    t = Table(game3)
    t.data["terminal"] = True
    t.data["frames"] = []
    t.at(0, "36", lap=-1)
    t.at(1, "36")
    t.put("riches +5", "revealed/1")
    t.start()
    assert t.state.returns()[:2] == [-5.0, 15.0]


# ---- the ghost ship (two players) ----

GHOST_SEAT = 2


def test_ghost_setup(game2):
    t = Table(game2)
    state = t.state                                  # before the holds were emptied
    assert [state.supply_counts["doubloons"][t.cat.holder_base + h.id] for h in t.holds(GHOST_SEAT)][:2] == [5, 3]
    assert t.zone("face_up", GHOST_SEAT) == ["Lady Beth"]
    assert len(t.zone("treasure_box")) == 2


def test_the_ghost_sails_back_when_it_leads(game2):
    t = Table(game2)
    t.at(GHOST_SEAT, "29")
    t.at(0, "10")
    t.at(1, "12")
    t.start().round(3, 2, {0: idle(0), 1: idle(1)})
    assert t.where(GHOST_SEAT) == "24"              # back 3; then it still leads: back 2
    assert t.logged("ghost ship backward 3") and t.logged("ghost ship backward 2")


def test_the_ghost_sails_forward_when_last_and_the_captain_picks_at_forks(game2):
    t = Table(game2)
    t.at(GHOST_SEAT, "05")
    t.at(0, "10")
    t.at(1, "12")
    t.start().round(3, 2, {0: idle(0), 1: idle(1)})
    assert t.state.current_players() == [0]          # the captain (player 1) at the fork
    assert t.options() == ["north_1", "south_1"]
    t.choose("north_1")
    assert t.where(GHOST_SEAT) == "north_3"


def test_in_the_middle_the_captain_chooses_its_heading(game2):
    t = Table(game2)
    t.at(GHOST_SEAT, "11")
    t.at(0, "10")
    t.at(1, "12")
    t.start().round(3, 2, {0: idle(0), 1: idle(1)})
    assert t.options() == ["ghost forward", "ghost backward"]


def test_the_ghost_pays_nothing_and_keeps_only_doubloons(game2):
    t = Table(game2)
    t.at(GHOST_SEAT, "07")
    t.at(0, "09")
    t.at(1, "20")
    t.goods(t.hold(GHOST_SEAT, 1), "doubloons", 5)
    t.start().round(2, 1, {0: idle(0), 1: idle(1)})
    # the ghost is last: forward 2 from 07 (the captain picks south) onto south_2, a
    # 3-food sea; still last: forward 1 onto south_3, a 3-doubloon port. No food, no toll.
    t.choose("south_1")
    assert t.where(GHOST_SEAT) == "south_3"
    assert t.total(GHOST_SEAT, "doubloons") == 5 and not t.logged("falls back")


def test_ghost_wins_a_fight_the_other_player_chooses_and_goods_go_to_the_bank(game2):
    t = Table(game2)
    t.at(GHOST_SEAT, "09")
    t.at(0, "10")
    t.at(1, "20")
    t.goods(t.hold(0, 1), "food", 4)
    t.goods(t.hold(0, 2), "doubloons", 3)
    t.start().round(1, 6, {0: idle(0), 1: idle(1)})
    # player 1 loads 1 doubloon, player 2 too; the ghost is last: forward 1 onto player 1
    assert t.logged("player 3 attacks player 1 at 10")
    t.roll(6)                                        # ghost: 6 + Lady Beth 2
    t.roll(4)                                        # player 1: 4
    assert t.state.current_players() == [1]          # player 2 decides for the ghost
    assert "give a curse" not in t.options()
    t.choose("take a hold's contents")
    bank_food = t.state.supply_counts["food"][0]
    t.choose("player 1 hold 1")
    assert t.state.supply_counts["food"][0] == bank_food + 4   # food is thrown overboard
    assert t.total(GHOST_SEAT, "food") == 0


def test_ghost_takes_doubloons_into_its_holds(game2):
    t = Table(game2)
    t.at(GHOST_SEAT, "09")
    t.at(0, "10")
    t.at(1, "20")
    t.goods(t.hold(0, 2), "doubloons", 3)
    t.start().round(1, 6, {0: idle(0), 1: idle(1)})
    t.roll("star")
    t.choose("take a hold's contents")
    t.choose("player 1 hold 2")
    assert t.total(GHOST_SEAT, "doubloons") == 3


def test_lady_beth_cannot_be_taken_from_the_ghost(game2):
    t = Table(game2)
    t.at(GHOST_SEAT, "10")
    t.at(0, "09")
    t.at(1, "20")
    t.goods(t.hold(0, 1), "food", 2)
    t.put("riches +3", "face_down/2")
    t.hand(0, "red 5: food / forward")
    t.start().round(3, 1, {0: "red 5: food / forward", 1: idle(1)})
    t.roll(10, 2)
    assert t.options() == ["take a face-down treasure"]
