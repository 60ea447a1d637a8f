"""A shuffle's knowledge stamp (state/stamps.py): a zone that holds a run of component ids
(a whole deck, or decks made one after the other) has its entries set as one slice; any
other zone each component in turn. Against the loop alone: the same knowledge after every
action, for whole decks, part of one, two decks adjacent or not, and an empty zone."""
from __future__ import annotations

import random

import pytest

import rulelang
from rulelang.interpreter.tables.dealing import NO_RUN

RULES = """\
game "S" { players 2 }
component card { rank: int }
component chip { n: int }
zone pile: card visible count
zone spare: card visible count
zone table: card visible all
zone bag: chip visible count
zone empty: chip visible count
player zone hand: card visible owner
deck first: card in pile = [card(rank: k) for k in 1..12]
deck chips: chip in bag = [chip(n: k) for k in 1..5]
deck second: card in spare = [card(rank: k) for k in 20..25]
deck third: card in table = [card(rank: k) for k in 30..33]
phase main {
  shuffle pile
  shuffle bag
  shuffle empty
  move top(pile) to players[0].hand
  shuffle pile
  choose c in players[0].hand by players[0] prompt "one"
  move c to pile
  move spare to pile
  shuffle pile
  move table to spare
  shuffle spare
  choose d in list(table) + list(spare) by players[1] prompt "two"
  move d to players[1].hand
  shuffle spare
  choose e in players[1].hand by players[1] prompt "three"
  end game
}
"""


def _knowledge(game: rulelang.Game, seed: int, explicit: bool) -> list[list[int]]:
    chooser, state = random.Random(seed), game.new_initial_state(seed=seed, explicit_chance=explicit)
    seen = [state.component_knowledge[:]]
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
        seen.append(state.component_knowledge[:])
    return seen


@pytest.mark.parametrize("explicit", [False, True])
def test_a_shuffle_stamps_the_same_knowledge_as_one_component_at_a_time(explicit):
    game = rulelang.load(RULES)
    catalog = game.catalog
    assert catalog.deck_first[:12] == [0] * 12 and catalog.deck_first[12:17] == [12] * 5
    runs = [_knowledge(game, seed, explicit) for seed in range(4)]
    kept, whole = catalog.deck_first[:], catalog.whole_run[:]
    catalog.deck_first[:] = [len(kept)] * len(kept)   # (no run found: each component in turn)
    catalog.whole_run[:] = [NO_RUN] * len(whole)   # (nor any zone known to hold a whole one: test_whole_runs)
    try:
        assert runs == [_knowledge(game, seed, explicit) for seed in range(4)]
    finally:
        catalog.deck_first[:], catalog.whole_run[:] = kept, whole
    shuffled = {value for run in runs for knowledge in run for value in knowledge if value >> 2}
    assert len(shuffled) >= 5   # (several shuffles stamped)
