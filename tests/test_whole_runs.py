"""A zone that holds every component of its type, where they are one run of ids
(``Catalog.whole_run``, tables/dealing.py ``whole_runs``), has its shuffle's stamp written as
one slice with no test of where the run's components are (state/stamps.py), and a deal from
it (``dealing.one_knowledge``) tests only what they know. Against the test of the run
(``whole_run`` emptied) and against each component in turn (no run found either): the same
knowledge, zones, saved states, work and events after every action, with chance drawn and
explicit, for a type of two adjacent decks (whole, then part of it), a type of two decks apart,
a zone of any type, players' zones of one type, and Jolly Roger."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import logged_events

import rulelang
from rulelang.interpreter.state import stamps
from rulelang.interpreter.tables.dealing import NO_RUN, whole_runs

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "W" { players 2 }
component card { rank: int }
component chip { n: int }
component gem { n: int }
zone pile: card visible count
zone spare: card visible all
zone bag: chip visible count
zone box: gem visible count
zone heap: component visible count
player zone hand: card visible owner
player zone purse: chip visible owner
deck low: card in pile = [card(rank: k) for k in 1..6]
deck high: card in pile = [card(rank: k) for k in 7..10]
deck gems: gem in box = [gem(n: k) for k in 1..3]
deck chips: chip in bag = [chip(n: k) for k in 1..5]
deck more: gem in heap = [gem(n: k) for k in 4..5]
phase main {
  repeat {
    shuffle pile
    shuffle bag
    shuffle box
    shuffle heap
    if size(pile) >= 4 {
      for i in 1..2 { for p in players { move top(pile) to p.hand } }
    }
    shuffle players[0].hand
    if size(players[0].hand) > 0 {
      choose c in players[0].hand by players[0] prompt "a card"
      move c to spare
    }
    choose k in [1, 2, 3, 4, 5] by players[1] prompt "how"
    if k == 1 { move spare to pile }
    if k == 2 {
      move spare to pile
      for p in players { move p.hand to pile }
    }
    if k == 3 {
      move top(bag) to players[0].purse
      shuffle bag
      shuffle players[0].purse
      move players[0].purse to bag
    }
    if k == 4 and size(heap) > 0 { move top(heap) to box }
    if k == 5 and size(box) > 0 { move top(box) to heap }
    choose g in [1, 2, 3, 4] by players[0] prompt "go on?"
    if g == 4 { end game }
  }
}
"""


def _played(game: rulelang.Game, seed: int, explicit: bool) -> list[tuple[object, ...]]:
    """The knowledge, zones, saved state and work after each action of a random game."""
    chooser = random.Random(seed)
    state = game.new_initial_state(seed=seed, explicit_chance=explicit)
    seen: list[tuple[object, ...]] = []
    for _ in range(400):
        seen.append((state.component_knowledge[:], state.component_zone[:], state.to_json(), state.work))
        if state.is_terminal():
            break
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
    return seen


def _games(game: rulelang.Game) -> tuple[object, ...]:
    return ([_played(game, seed, False) for seed in range(6)], [_played(game, seed, True) for seed in range(3)],
            [logged_events(game, seed) for seed in range(2)])


def _without_runs(game: rulelang.Game) -> None:
    """No zone known to hold a whole run: the run tested where it is."""
    game.catalog.whole_run[:] = [NO_RUN] * len(game.catalog.whole_run)


def _one_at_a_time(game: rulelang.Game) -> None:
    """No run found at all: each component's knowledge written in turn."""
    _without_runs(game)
    game.catalog.deck_first[:] = [len(game.catalog.components)] * len(game.catalog.components)


def test_the_runs_of_each_zone():
    catalog = rulelang.load(RULES).catalog
    slot = catalog.zone_slot
    assert catalog.whole_run[slot["pile"]] == catalog.whole_run[slot["spare"]] == (0, 10)   # (two decks, adjacent)
    assert catalog.whole_run[slot["hand"]] == catalog.whole_run[slot["hand"] + 1] == (0, 10)
    assert catalog.whole_run[slot["bag"]] == catalog.whole_run[slot["purse"] + 1] == (13, 18)
    assert catalog.whole_run[slot["box"]] == NO_RUN   # (gems 10-12 and 18-19: a gap)
    assert catalog.whole_run[slot["heap"]] == NO_RUN   # (any type)
    assert whole_runs([], []) == []


def test_a_whole_run_is_stamped_without_reading_where_its_components_are():
    game = rulelang.load(RULES)
    state = game.new_initial_state(seed=1)
    slot = game.catalog.zone_slot

    class Watched(list[int]):
        def __getitem__(self, index):   # (a slice is the run's test)
            read.append(index)
            return list.__getitem__(self, index)

    read: list[object] = []
    state.component_zone = Watched(state.component_zone)
    stamps.shuffled_knowledge(state, slot["bag"])   # (all 5 chips there)
    assert read == []
    assert len(set(state.component_knowledge[13:18])) == 1
    stamps.shuffled_knowledge(state, slot["box"])   # (gems of a type that is no run)
    assert read and all(isinstance(index, slice) for index in read)


@pytest.mark.parametrize("how", [_without_runs, _one_at_a_time])
def test_stamps_and_deals_write_what_the_general_paths_write(how):
    fast = rulelang.load(RULES)
    played = _games(fast)
    stamped = {value for run in played[0] for step in run for value in step[0] if value >> 2}
    assert len(stamped) >= 20   # (many shuffles stamped)
    whole = [step for run in played[0] for step in run if step[1].count(fast.catalog.zone_slot["pile"]) == 10]
    assert whole and len(whole) < sum(len(run) for run in played[0])   # (the pile whole before its shuffle, and not)
    slow = rulelang.load(RULES)
    how(slow)
    assert _games(slow) == played


@pytest.mark.parametrize("players", [3, 4])
def test_jolly_roger_stamps_and_deals_the_same(players):
    path = GAMES / "jolly_roger.rules"
    played = _games(rulelang.load(path, players=players))
    slow = rulelang.load(path, players=players)
    _one_at_a_time(slow)
    assert _games(slow) == played
