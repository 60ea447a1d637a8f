"""'shuffle ZONE' shuffles the zone's own list in place (compiler/chance.py): the same draws,
hence the same order and the same generator after it, as a shuffle of a copy of the zone."""
from __future__ import annotations

import pytest
from conftest import rules

import rulelang

SHUFFLED = """
game "S" { players 2 }
component card { rank: int } shown as "card {rank}"
zone pile: card visible count
deck cards: card in pile = [card(rank: r) for r in 1..COUNT]
var ranks: list[int] = [] visible all
phase main {
  SHUFFLE
  end game
}
"""

ZONE = "shuffle pile\n  ranks = [c.rank for c in pile]"
COPY = "let l = [c for c in pile]\n  shuffle l\n  ranks = [c.rank for c in l]"


def shuffled(how: str, count: int, seed: int) -> rulelang.State:
    text = SHUFFLED.replace("SHUFFLE", how).replace("COUNT", str(count))
    return rulelang.load(rules(text)).new_initial_state(seed=seed, events=True)


@pytest.mark.parametrize("count", [1, 2, 3, 5, 32, 70])
def test_a_zone_shuffled_in_place_is_in_the_order_of_a_shuffled_copy(count: int) -> None:
    for seed in range(5):
        zone, copy = shuffled(ZONE, count, seed), shuffled(COPY, count, seed)
        ranks = zone.to_json()["globals"]["ranks"]
        assert ranks == copy.to_json()["globals"]["ranks"]
        assert sorted(ranks) == list(range(1, count + 1))
        assert zone.rng == copy.rng != shuffled("ranks = []", count, seed).rng or count == 1
        assert [e["type"] for e in zone.events()].count("shuffle") == 1


def test_a_shuffled_zone_is_known_only_to_those_who_see_it() -> None:
    state = shuffled(ZONE, 8, 0)
    assert all(state.component_knowledge[c] >> state.game.num_players > 0 for c in range(8))
    assert state.observation(0)["zones"]["pile"] == state.observation(1)["zones"]["pile"]
