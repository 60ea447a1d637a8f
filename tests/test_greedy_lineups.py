"""Seeded line-ups with greedy and IS-MCTS seats play the very games they played at 9c06b26
(before the greedy agent, the sampler and clones were made cheaper for issue 24; Jolly Roger's
since merged options changed its action lists, below): the same
lengths, winners and histories, game for game, as ``rulelang simulate --seed 0`` numbers them."""
from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

import rulelang
from rulelang.interpreter.agents import derive_seed, parse_agents
from rulelang.interpreter.model.values import CHANCE
from rulelang.interpreter.sim.play import play_step

GAMES = Path(__file__).resolve().parent.parent / "games"

# (decisions, winners, the first 16 hex digits of sha256(repr(history))) of games 0, 1, ...
# of a run seeded with 0, recorded at 9c06b26. The digests were recorded again when the
# narration's strings were added to the rulesets (issue 27): a string of a ruleset takes an
# action id before the integers, so the ids of integer actions (dice, amounts, places) moved
# up; the games are the same, action for action by label, with the same lengths and winners.
# Both lists were recorded again (by ``games_of`` below) when a shuffle of 5 to 256 items
# became a sort by keys (issue 24, s41-rng): the shuffled decks differ, so the games do; with
# ``rng.shuffle_by_draws`` in ``rng.shuffle``'s place they were still the games recorded before.
# Recorded again when a seed's generator state became the seed's state mixed (rng.seed_state:
# neighbouring seeds had drawn each other's draws one step late): every game's draws differ.
# Recorded again when a keyed shuffle's keys became SHAKE128's bytes with each top bit cleared
# (issue 24, s42-rng: 48 random bits a key, 6 of each byte, where 44 were masked out): every deck differs.
JAMAICA_GREEDY = [
    (214, [2], "b3218b32ec079af0"), (240, [3], "49965f1d7fcd4665"), (261, [0], "6571da23b88232a0"),
    (238, [3], "0460b09ad493606f"), (150, [0], "f94a54dbed0c23fd"), (208, [2], "da3bbcdf2f3adca7"),
    (162, [1], "1af94bc920886fac"), (276, [3], "8f39a3ce96948d9a"),
]
# Jolly Roger's games were 9c06b26's, (80, [0], "66a949ab50f1340f") and (81, [0], "724308133e6928da"),
# until interchangeable cards became one action (issue 26, merged options: a hand holding two
# "8" cards offers one), which changes what the random and greedy seats pick from: recorded
# again there (1084c17), unchanged by the speed work since, and again for the narration (above).
JOLLY_ROGER_MCTS_GREEDY = [(80, [0], "e6e59d5a36adb138"), (79, [0], "ae8e674e7b9b0b85")]


def games_of(ruleset: str, players: int, lineup: str, count: int) -> list[tuple[int, list[int], str]]:
    """Games 0..count-1 of a run seeded with 0, played as ``play_game`` plays them."""
    game = rulelang.load(GAMES / f"{ruleset}.rules", players=players)
    specs = parse_agents(lineup, players)
    results = []
    for index in range(count):
        agents = [spec.build(game, derive_seed(0, index, seat)) for seat, spec in enumerate(specs)]
        chance = random.Random(derive_seed(0, index, CHANCE))
        state = game.new_initial_state(seed=derive_seed(0, index))
        while not state.is_terminal():
            play_step(state, agents, chance)
        digest = hashlib.sha256(repr(state.history()).encode()).hexdigest()[:16]
        results.append((state.decisions, state.winners(), digest))
    return results


@pytest.mark.parametrize(("ruleset", "players", "lineup", "expected"), [
    ("jamaica", 4, "greedy,random,random,random", JAMAICA_GREEDY),
    ("jolly_roger", 3, "mcts:20,greedy,random", JOLLY_ROGER_MCTS_GREEDY),
], ids=["jamaica-greedy", "jolly_roger-mcts-greedy"])
def test_seeded_line_ups_play_the_games_they_played_before(ruleset: str, players: int, lineup: str,
                                                          expected: list[tuple[int, list[int], str]]) -> None:
    assert games_of(ruleset, players, lineup, len(expected)) == expected
