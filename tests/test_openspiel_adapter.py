"""The OpenSpiel adapter: OpenSpiel's own algorithms on rulesets (needs open-spiel)."""
from __future__ import annotations

from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from rulelang.interpreter.openspiel_adapter import register  # noqa: E402

GAMES = Path(__file__).resolve().parent.parent / "games"


def test_openspiel_finds_the_58_histories_of_kuhn_poker():
    from open_spiel.python.algorithms import get_all_states
    game = pyspiel.load_game(register(GAMES / "kuhn_poker.rules", players=2, short_name="rl_kuhn_states"))
    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                           include_chance_states=True)
    assert len(states) == 58          # 4 chance nodes, 24 decisions, 30 ends
    assert sum(s.is_terminal() for s in states.values()) == 30


def test_openspiel_cfr_plus_finds_the_kuhn_poker_value():
    from open_spiel.python.algorithms import cfr, expected_game_score
    game = pyspiel.load_game(register(GAMES / "kuhn_poker.rules", players=2, short_name="rl_kuhn"))
    solver = cfr.CFRPlusSolver(game)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    values = expected_game_score.policy_value(game.new_initial_state(), [solver.average_policy()] * 2)
    assert values[0] == pytest.approx(-1 / 18, abs=3e-3)


def test_random_games_through_the_openspiel_api_end_with_returns():
    import random
    game = pyspiel.load_game(register(GAMES / "jolly_roger.rules", players=3, short_name="rl_jr"))
    chooser = random.Random(0)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                assert sum(probs) == pytest.approx(1.0)
                state.apply_action(chooser.choices(outcomes, probs)[0])
            else:
                legal = state.legal_actions()
                assert legal and all(0 <= a < game.num_distinct_actions() for a in legal)
                state.apply_action(chooser.choice(legal))
        assert len(state.returns()) == 3 and max(state.returns()) > 0
