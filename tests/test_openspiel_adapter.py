"""The OpenSpiel adapter: OpenSpiel's own algorithms on rulesets (needs open-spiel)."""
from __future__ import annotations

from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from rulelang.interpreter.hosts.openspiel_adapter import register  # noqa: E402

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
    # with tensors on: random_sim_test reads both tensors of every player in every state
    assert game.get_type().provides_observation_tensor and game.get_type().provides_information_state_tensor
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


def test_kuhn_poker_is_zero_sum_by_its_header_and_exploitability_runs_on_it(tmp_path):
    from open_spiel.python.algorithms import cfr, exploitability
    game = pyspiel.load_game(register(GAMES / "kuhn_poker.rules", players=2, short_name="rl_kuhn_zs"))
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM     # score_sum 0
    general = pyspiel.load_game(register(GAMES / "kuhn_poker.rules", players=2, short_name="rl_kuhn_gs",
                                         zero_sum=False))
    assert general.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    # a host may still promise it for a ruleset that does not declare it
    undeclared = tmp_path / "kuhn.rules"
    undeclared.write_text((GAMES / "kuhn_poker.rules").read_text(encoding="utf-8").replace("score_sum 0", ""),
                          encoding="utf-8")
    assert pyspiel.load_game(register(undeclared, short_name="rl_kuhn_undeclared")).get_type().utility == \
        pyspiel.GameType.Utility.GENERAL_SUM
    promised = pyspiel.load_game(register(undeclared, short_name="rl_kuhn_promised", zero_sum=True))
    assert promised.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    solver = cfr.CFRPlusSolver(game)
    for _ in range(150):
        solver.evaluate_and_update_policy()
    assert exploitability.exploitability(game, solver.average_policy()) < 0.01


# ---------------------------------------------------------------- tensors

def test_tensors_through_openspiel_are_the_engines_and_keep_their_shape():
    from open_spiel.python.observation import make_observation

    from rulelang.interpreter.state import tensors
    game = pyspiel.load_game(register(GAMES / "kuhn_poker.rules", players=2, short_name="rl_kuhn_tensors"))
    engine = game.new_initial_state().inner.game
    assert game.get_type().provides_observation_tensor and game.get_type().provides_information_state_tensor
    assert game.observation_tensor_shape() == list(tensors.observation_shape(engine))
    assert game.information_state_tensor_shape() == list(tensors.information_state_shape(engine))
    assert game.num_distinct_actions() == engine.num_distinct_actions() == 15
    state = _midgame(game, 3)                      # two cards dealt, the first bet made
    for player in (0, 1):
        assert state.observation_tensor(player) == pytest.approx(tensors.observation_tensor(state.inner, player))
        assert state.information_state_tensor(player) == pytest.approx(
            tensors.information_state_tensor(state.inner, player))
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    observation.set_from(state, 0)
    assert list(observation.tensor) == pytest.approx(state.observation_tensor(0))
    assert list(observation.dict["viewer"]) == [1.0, 0.0] and "zone hand/1" in observation.dict


def test_an_openspiel_state_hides_from_a_player_what_he_cannot_see():
    game = pyspiel.load_game(register(GAMES / "kuhn_poker.rules", players=2, short_name="rl_kuhn_hidden"))
    deals = []
    for outcome in (1, 2):                          # the first player gets card 0; the second 1 or 2
        state = game.new_initial_state()
        state.apply_action(game.new_initial_state().chance_outcomes()[0][0])
        state.apply_action([a for a, _ in state.chance_outcomes()][outcome - 1])
        deals.append(state)
    assert deals[0].inner.to_json()["zones"] != deals[1].inner.to_json()["zones"]
    assert deals[0].information_state_tensor(0) == deals[1].information_state_tensor(0)
    assert deals[0].observation_tensor(1) != deals[1].observation_tensor(1)


def test_max_number_sizes_the_openspiel_action_space_and_too_small_a_one_is_a_clear_error(tmp_path):
    import rulelang
    path = tmp_path / "count.rules"
    path.write_text('game "Count" { players 1 }\nvar top: int = 40\nplayer var said: int = 0\n'
                    'phase p {\n  choose n in 0..top by players[0]\n  players[0].said = n\n}\n'
                    'score p = p.said\n', encoding="utf-8")
    roomy = pyspiel.load_game(register(path, players=1, short_name="rl_count_roomy"))
    base = roomy.new_initial_state().inner.game.catalog.int_base
    assert roomy.num_distinct_actions() == base + 101        # the default bound: 0..100
    pyspiel.random_sim_test(roomy, num_sims=2, serialize=False, verbose=False)
    tight = pyspiel.load_game(register(path, players=1, short_name="rl_count_tight", max_number=30))
    assert tight.num_distinct_actions() == base + 31
    with pytest.raises(rulelang.IllegalActionError, match=r"the number 40 .* pass a larger max_number"):
        tight.new_initial_state().legal_actions()
