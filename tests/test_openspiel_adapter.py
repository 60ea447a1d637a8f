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


# ---------------------------------------------------------------- copies, pickles, serialization

from conftest import game_cases  # noqa: E402


@pytest.mark.parametrize(("path", "players"), game_cases())
def test_random_sim_test_with_serialization_passes(path, players):
    game = pyspiel.load_game(register(path, players=players, short_name=f"rl_sim_{path.stem}_{players}"))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _midgame(game, moves=3):
    import random
    chooser = random.Random(1)
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(chooser.choice(state.legal_actions()))
    return state


def test_games_and_states_deepcopy_pickle_and_serialize():
    import copy
    import pickle
    game = pyspiel.load_game(register(GAMES / "jolly_roger.rules", players=3, short_name="rl_jr_copy"))
    state = _midgame(game, 6)
    for copied in (copy.deepcopy(state), copy.copy(state), pickle.loads(pickle.dumps(state)), state.clone()):
        assert str(copied) == str(state) and copied.history() == state.history()
        assert copied.legal_actions() == state.legal_actions()
        copied.apply_action(copied.legal_actions()[0])     # independent of the original
        assert str(copied) != str(state)
    new_game, new_state = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(new_game) == str(game) and str(new_state) == str(state)
    assert new_state.information_state_string(0) == state.information_state_string(0)
    assert str(pickle.loads(pickle.dumps(game))) == str(game) and copy.deepcopy(game) is game


def test_a_pickled_state_loads_in_a_fresh_process(tmp_path):
    import pickle
    import subprocess
    import sys
    game = pyspiel.load_game(register(GAMES / "tic_tac_toe.rules", players=2, short_name="rl_ttt_proc"))
    state = _midgame(game, 2)
    (tmp_path / "state.pickle").write_bytes(pickle.dumps(state))
    code = ("import pickle, sys; s = pickle.load(open(sys.argv[1], 'rb')); "
            "print(s.get_game(), s.history(), s.legal_actions())")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "state.pickle")],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"{game} {state.history()} {state.legal_actions()}"


def test_registering_again_returns_the_name_and_a_clash_is_refused():
    name = register(GAMES / "tic_tac_toe.rules", players=2, short_name="rl_ttt_again")
    assert register(GAMES / "tic_tac_toe.rules", players=2, short_name="rl_ttt_again") == name
    with pytest.raises(ValueError, match="registered already"):
        register(GAMES / "tic_tac_toe.rules", players=2, short_name="rl_ttt_again", max_number=5)


def test_zero_sum_registration_lets_exploitability_run_on_kuhn_poker():
    from open_spiel.python.algorithms import cfr, exploitability
    general = pyspiel.load_game(register(GAMES / "kuhn_poker.rules", players=2, short_name="rl_kuhn_gs"))
    assert general.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    game = pyspiel.load_game(register(GAMES / "kuhn_poker.rules", players=2, short_name="rl_kuhn_zs",
                                      zero_sum=True))
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    solver = cfr.CFRPlusSolver(game)
    for _ in range(150):
        solver.evaluate_and_update_policy()
    assert exploitability.exploitability(game, solver.average_policy()) < 0.01
