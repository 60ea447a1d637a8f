"""PettingZoo and Gymnasium environments for any ruleset (interpreter/hosts/pettingzoo_env.py and
interpreter/hosts/gymnasium_env.py): the libraries' own checks pass for every ruleset in games/,
and what the environments do agrees with the engine played directly (needs rulelang[rl])."""
from __future__ import annotations

import functools
import random
import re
import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environment needs pip install rulelang[rl]")
pytest.importorskip("gymnasium", reason="the Gymnasium environment needs pip install rulelang[rl]")

import gymnasium
import numpy as np
from conftest import ROOT, game_cases
from gymnasium.utils.env_checker import check_env, data_equivalence
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

import rulelang
from rulelang.interpreter.agents import AgentSpec, AgentSpecError
from rulelang.interpreter.hosts.gymnasium_env import RulesetEnv, Table
from rulelang.interpreter.hosts.pettingzoo_env import aec_env, parallel_env
from rulelang.interpreter.hosts.view_picture import PICTURE_SHAPE
from rulelang.interpreter.state import tensors

CASES = game_cases()   # every ruleset at its smallest and largest player count
SMALLEST = [case for i, case in enumerate(CASES) if i == 0 or case.values[0] != CASES[i - 1].values[0]]
CYCLES = 60   # api_test and seed_test steps: cycles x players (Kuhn poker, tic-tac-toe and
              # Jolly Roger end within them; the long games are cut short by max_decisions too)

# What the libraries' checks say, by design, of every environment here: the observation is a
# dict, and a Gymnasium environment made without gymnasium.make has no spec to make it again in
# other render modes. (No warning of an unbounded space: every entry has its range.)
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "probably should be gymnasium.spaces.box",
                     "Not able to test alternative render modes")


@functools.cache
def load(path, players):
    return rulelang.load(path, players=players)


@pytest.fixture(autouse=True)
def _only_expected_warnings():
    """Each test fails on a warning of the libraries' checks other than the expected ones."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = [str(w.message) for w in caught if not any(e in str(w.message) for e in EXPECTED_WARNINGS)]
    assert not unexpected


def _random_aec_game(env, seed):
    """Play ``env`` to its end from ``seed`` with random legal actions (drawn from the
    masks); the (seat, action) pairs applied."""
    env.reset(seed=seed)
    chooser = random.Random(seed)
    played = []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = chooser.choice(np.flatnonzero(observation["action_mask"]).tolist())
        played.append((int(agent.split("_")[1]), action))
        env.step(action)
    return played


# ---------------------------------------------------------------- the libraries' checks, every ruleset

@pytest.mark.parametrize(("path", "players"), CASES)
def test_pettingzoo_api_and_seed_tests_pass(path, players):
    game = load(path, players)
    api_test(aec_env(game), num_cycles=CYCLES)
    api_test(aec_env(game, max_decisions=7), num_cycles=CYCLES)   # every game cut short: truncation
    seed_test(lambda: aec_env(game), num_cycles=CYCLES)


@pytest.mark.parametrize(("path", "players"), CASES)
def test_pettingzoo_parallel_api_test_passes(path, players):
    game = load(path, players)
    parallel_api_test(parallel_env(game), num_cycles=CYCLES)
    parallel_api_test(parallel_env(game, max_decisions=7), num_cycles=CYCLES)


@pytest.mark.parametrize(("path", "players"), CASES)
def test_gymnasium_check_env_passes(path, players):
    check_env(RulesetEnv(load(path, players)))
    check_env(RulesetEnv(load(path, players), seat=players - 1, render_mode="ansi"))


# ---------------------------------------------------------------- the AEC environment

@pytest.mark.parametrize(("path", "players"), SMALLEST)
def test_a_random_game_through_the_aec_env_ends_as_the_engine_playing_the_same_actions(path, players):
    game = load(path, players)
    env = aec_env(game, max_decisions=100_000)
    played = _random_aec_game(env, seed=3)
    state = game.new_initial_state(seed=3)
    for seat, action in played:
        assert state.current_players()[0] == seat    # the env asked the engine's first seat to act
        state.apply_action(action, player=seat)
    assert state.is_terminal()
    env.reset(seed=3)
    rewards = {agent: 0.0 for agent in env.agents}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        env.step(None if terminated or truncated else played.pop(0)[1])
    assert not played
    assert rewards == {f"player_{seat}": score for seat, score in enumerate(state.returns())}


def test_aec_rewards_are_zero_until_the_end_then_the_returns():
    env = aec_env(load(ROOT / "games" / "tic_tac_toe.rules", 2))
    env.reset(seed=0)
    for action in (0, 3, 1, 4):                                 # a1 b... : no line yet
        env.step(action)
        assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
        assert not any(env.terminations.values())
    env.step(2)                                                 # c1: player_0 completes the row
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert env.last()[1] in (1.0, -1.0)
    for _ in range(2):
        env.step(None)
    assert env.agents == []


def test_the_aec_env_truncates_after_max_decisions_with_no_reward():
    env = aec_env(load(ROOT / "games" / "tobago.rules", 2), max_decisions=5)
    env.reset(seed=1)
    for _ in range(5):
        assert not any(env.truncations.values())
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert env.truncations == {"player_0": True, "player_1": True}
    assert not any(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert not env.observe("player_0")["action_mask"].any()


def test_aec_players_of_a_simultaneous_choice_act_in_turn_without_seeing_each_others_pick():
    game = load(ROOT / "games" / "asterix.rules", 2)
    env = aec_env(game)
    env.reset(seed=4)
    while len(env.engine_state.current_players()) < 2:          # to the first simultaneous choice
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert env.agent_selection == "player_0"
    picks = np.flatnonzero(env.observe("player_0")["action_mask"])
    assert len(picks) >= 2
    seen_by_player_1 = []
    for pick in picks[:2]:
        trial = aec_env(game)
        trial.reset(seed=4)
        for _, action in env.engine_state.history():
            trial.step(action)
        trial.step(int(pick))
        assert trial.agent_selection == "player_1"             # the next one still to choose
        seen_by_player_1.append(trial.observe("player_1"))
    assert data_equivalence(*seen_by_player_1)


def test_aec_illegal_actions_raise_and_change_nothing():
    env = aec_env(load(ROOT / "games" / "tic_tac_toe.rules", 2))
    with pytest.raises(rulelang.IllegalActionError, match="reset"):
        env.observe("player_0")
    with pytest.raises(rulelang.IllegalActionError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(rulelang.IllegalActionError, match="no agent 'player_2'"):
        env.observe("player_2")
    env.step(4)
    before = env.engine_state.to_json()
    for bad in (4, 13, 99, None, "a1", 1.0):
        with pytest.raises(rulelang.IllegalActionError, match="player_1"):
            env.step(bad)
    assert env.engine_state.to_json() == before and env.agent_selection == "player_1"


def test_the_same_seed_gives_the_same_game_and_no_seed_another():
    game = load(ROOT / "games" / "jolly_roger.rules", 3)
    first, second = aec_env(game), aec_env(game)
    assert _random_aec_game(first, seed=11) == _random_aec_game(second, seed=11)
    first.reset(seed=11)
    assert first.engine_state.to_json() == game.new_initial_state(seed=11).to_json()
    first.reset()
    second.reset(seed=11)
    second.reset()
    assert first.engine_state.to_json() == second.engine_state.to_json()   # the next seed follows the last
    assert first.engine_state.to_json() != game.new_initial_state(seed=11).to_json()


def test_observations_are_the_engines_tensors_and_masks():
    game = load(ROOT / "games" / "kuhn_poker.rules", 2)
    env = aec_env(game)
    env.reset(seed=2)
    for agent, seat in (("player_0", 0), ("player_1", 1)):
        seen = env.observe(agent)
        assert seen["observation"].dtype == np.float32 and seen["action_mask"].dtype == np.int8
        assert seen["observation"].tolist() == tensors.observation_tensor(env.engine_state, seat)
        assert seen["action_mask"].tolist() == tensors.legal_action_mask(env.engine_state, seat)
    assert env.action_space("player_0").n == game.num_distinct_actions() == 15
    assert env.observation_space("player_1")["observation"].shape == tensors.observation_shape(game)


def test_render_shows_the_selected_seats_view_as_text():
    game = load(ROOT / "games" / "tic_tac_toe.rules", 2)
    env = aec_env(game, render_mode="ansi")
    env.reset(seed=0)
    assert "you are player 1" in env.render()
    env.step(0)
    assert "you are player 2" in env.render()
    quiet = aec_env(game)
    quiet.reset()
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert quiet.render() is None
    with pytest.raises(rulelang.IllegalActionError, match="render_mode"):
        aec_env(game, render_mode="rgb")


def test_rgb_array_renders_the_view_as_a_picture_of_one_shape():
    pytest.importorskip("matplotlib", reason="rgb_array needs pip install rulelang[plot]")
    kuhn = load(ROOT / "games" / "kuhn_poker.rules", 2)
    env = aec_env(kuhn, render_mode="rgb_array")
    env.reset(seed=7)
    first = env.render()
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    second = env.render()                                # player_1's view: another hand, another picture
    tobago = parallel_env(load(ROOT / "games" / "tobago.rules", 4), render_mode="rgb_array")
    tobago.reset(seed=1)
    public = tobago.render()
    for picture in (first, second, public):
        assert isinstance(picture, np.ndarray) and picture.dtype == np.uint8 and picture.shape == PICTURE_SHAPE
        assert 0 < (picture < 128).mean() < 0.5          # dark text on a light ground
    assert not np.array_equal(first, second)
    render_test(lambda render_mode=None: aec_env(kuhn, render_mode=render_mode))


def test_the_parallel_state_is_the_public_view_as_a_tensor():
    game = load(ROOT / "games" / "kuhn_poker.rules", 2)
    env = parallel_env(game)
    observations, _ = env.reset(seed=7)
    state = env.state()
    assert state.dtype == np.float32 and env.state_space.contains(state)
    assert state.tolist() == tensors.observation_tensor(env.engine_state, rulelang.CHANCE)
    for agent in env.agents:                              # each seat sees its own card; the public view none
        assert not np.array_equal(state, observations[agent]["observation"])


def test_environment_names_follow_the_ruleset():
    assert aec_env(ROOT / "games" / "kuhn_poker.rules").metadata["name"] == "rulelang_kuhn_poker_v0"
    assert parallel_env(str(ROOT / "games" / "jolly_roger.rules"), 3).metadata["name"] == "rulelang_jolly_roger_v0"
    assert aec_env(load(ROOT / "games" / "asterix.rules", 2)).metadata["name"] == "rulelang_asterix_the_card_game_v0"


def test_a_ruleset_path_and_players_make_the_env():
    env = aec_env(ROOT / "games" / "jolly_roger.rules", players=4)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    with pytest.raises(rulelang.IllegalActionError, match="players=3"):
        aec_env(load(ROOT / "games" / "kuhn_poker.rules", 2), players=3)


# ---------------------------------------------------------------- the parallel environment

def _masked_parallel_game(env, seed, limit=10_000):
    """Play ``env`` from ``seed``, every agent to act choosing among its legal actions; the
    observations, rewards and infos of each step."""
    observations, infos = env.reset(seed=seed)
    chooser = random.Random(seed)
    steps = [(observations, infos)]
    while env.agents and len(steps) < limit:
        actions = {agent: chooser.choice(np.flatnonzero(observations[agent]["action_mask"]).tolist())
                   for agent in env.agents if infos[agent]["to_act"]}
        observations, rewards, _, _, infos = env.step(actions)
        steps.append((observations, rewards, infos))
    return steps


@pytest.mark.parametrize(("path", "players"), SMALLEST)
def test_a_parallel_game_ends_as_the_engine_playing_the_same_actions_in_seat_order(path, players):
    game = load(path, players)
    env = parallel_env(game, max_decisions=100_000)
    observations, infos = env.reset(seed=4)
    chooser, replay = random.Random(4), game.new_initial_state(seed=4)
    while env.agents:
        actions = {agent: chooser.choice(np.flatnonzero(observations[agent]["action_mask"]).tolist())
                   for agent in env.agents if infos[agent]["to_act"]}
        for agent in sorted(actions, key=lambda a: int(a.split("_")[1])):
            replay.apply_action(actions[agent], player=int(agent.split("_")[1]))
        observations, rewards, terminations, *_, infos = env.step(actions)
    assert replay.is_terminal() and replay.to_json() == env.engine_state.to_json()
    assert all(terminations.values())
    assert rewards == {f"player_{seat}": score for seat, score in enumerate(replay.returns())}


def test_the_parallel_env_is_deterministic_for_a_seed():
    # pettingzoo's parallel_seed_test samples actions without their masks: illegal ones here
    game = load(ROOT / "games" / "asterix.rules", 2)
    first = _masked_parallel_game(parallel_env(game), seed=5, limit=40)
    assert data_equivalence(first, _masked_parallel_game(parallel_env(game), seed=5, limit=40))


def test_in_a_simultaneous_choice_every_chooser_acts_in_one_parallel_step():
    game = load(ROOT / "games" / "jamaica.rules", 3)
    env = parallel_env(game)
    observations, infos = env.reset(seed=2)
    together = 0
    while env.agents and together < 3:
        to_act = [agent for agent in env.agents if infos[agent]["to_act"]]
        assert all(observations[a]["action_mask"].any() == (a in to_act) for a in env.agents)
        decisions = env.engine_state.decisions
        actions = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0]) for agent in to_act}
        actions.update({agent: 12345 for agent in env.agents if agent not in to_act})   # ignored
        observations, *_, infos = env.step(actions)
        assert env.engine_state.decisions == decisions + len(to_act)
        together += len(to_act) == 3
    assert together == 3


def test_a_parallel_step_missing_or_with_an_illegal_action_changes_nothing():
    env = parallel_env(load(ROOT / "games" / "jamaica.rules", 3))
    observations, infos = env.reset(seed=2)
    while sum(info["to_act"] for info in infos.values()) < 3:
        agent = next(a for a in env.agents if infos[a]["to_act"])
        observations, *_, infos = env.step({agent: int(np.flatnonzero(observations[agent]["action_mask"])[0])})
    before = env.engine_state.to_json()
    legal = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in env.agents}
    with pytest.raises(rulelang.IllegalActionError, match="player_1 is to act"):
        env.step({"player_0": legal["player_0"], "player_2": legal["player_2"]})
    with pytest.raises(rulelang.IllegalActionError, match="player_2: action 0 is not legal"):
        env.step({**legal, "player_2": 0})
    assert env.engine_state.to_json() == before


def test_the_parallel_env_ends_with_the_returns_and_no_agents():
    game = load(ROOT / "games" / "kuhn_poker.rules", 2)
    steps = _masked_parallel_game(parallel_env(game), seed=8)
    _, rewards, _ = steps[-1]
    assert set(rewards) == {"player_0", "player_1"} and sum(rewards.values()) == 0 and rewards["player_0"] != 0
    assert all(set(r.values()) == {0.0} for _, r, _ in steps[1:-1])


# ---------------------------------------------------------------- the Gymnasium environment

def _masked_gym_episode(env, seed):
    """One episode of ``env`` from ``seed`` with random legal actions; its rewards and the
    engine's history of the game."""
    observation, _ = env.reset(seed=seed)
    chooser = random.Random(seed)
    rewards, over = [], False
    while not over:
        action = chooser.choice(np.flatnonzero(observation["action_mask"]).tolist())
        observation, reward, terminated, truncated, _ = env.step(action)
        rewards.append(reward)
        over = terminated or truncated
    return rewards, env.state.history()


@pytest.mark.parametrize(("path", "players"), SMALLEST)
def test_a_gymnasium_episode_is_reproducible_and_scored_as_the_engine_scores_it(path, players):
    game = load(path, players)
    env = RulesetEnv(game, seat=players - 1, max_decisions=100_000)
    rewards, history = _masked_gym_episode(env, seed=6)
    assert env.state.is_terminal()
    assert (rewards, history) == _masked_gym_episode(RulesetEnv(game, seat=players - 1), seed=6)
    replay = game.new_initial_state(seed=6)
    for player, action in history:
        replay.apply_action(action, player=player)
    assert rewards[-1] == replay.returns()[players - 1] and set(rewards[:-1]) <= {0.0}


def test_the_gymnasium_seat_acts_only_on_its_own_decisions():
    game = load(ROOT / "games" / "tic_tac_toe.rules", 2)
    env = RulesetEnv(game, seat=1)
    observation, _ = env.reset(seed=0)
    assert env.state.current_players() == [1] and len(env.state.history()) == 1   # seat 0 has played
    observation, *_ = env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.state.current_players() in ([1], [])
    assert [p for p, _ in env.state.history()][:3] == [0, 1, 0]


def test_an_illegal_gymnasium_action_is_penalized_or_raises():
    game = load(ROOT / "games" / "tic_tac_toe.rules", 2)
    env = RulesetEnv(game, illegal_reward=-5.0)
    env.reset(seed=0)
    before = env.state.to_json()
    observation, reward, terminated, truncated, info = env.step(13)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, False, False, True)
    assert env.state.to_json() == before and observation["action_mask"].sum() == 9
    strict = RulesetEnv(game, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(rulelang.IllegalActionError, match="seat 0: action 13 is not legal"):
        strict.step(13)


def test_gymnasium_opponents_are_agent_specs_seeded_from_the_reset_seed():
    game = load(ROOT / "games" / "jolly_roger.rules", 3)
    greedy = RulesetEnv(game, opponents="greedy,random")
    assert [str(spec) for spec in greedy.specs] == ["greedy", "random"]
    assert RulesetEnv(game, opponents=AgentSpec("greedy")).specs == (AgentSpec("greedy"),) * 2
    assert _masked_gym_episode(greedy, 9) == _masked_gym_episode(RulesetEnv(game, opponents="greedy,random"), 9)
    with pytest.raises(AgentSpecError, match="3 agents given for 2 seats"):
        RulesetEnv(game, opponents="random,random,random")
    with pytest.raises(AgentSpecError, match="1 opponents given for the 2 other seats"):
        RulesetEnv(game, opponents=[AgentSpec()])
    with pytest.raises(rulelang.IllegalActionError, match=r"seat must be one of 0\.\.2"):
        RulesetEnv(game, seat=3)


def test_the_gymnasium_env_truncates_after_max_decisions():
    env = RulesetEnv(load(ROOT / "games" / "tobago.rules", 2), max_decisions=6)
    rewards, _ = _masked_gym_episode(env, seed=1)
    assert env.state.decisions == 6 and not env.state.is_terminal()
    assert set(rewards) == {0.0}
    with pytest.raises(rulelang.IllegalActionError, match="episode is over"):
        env.step(0)


# ---------------------------------------------------------------- gym.make and the spaces

def test_gym_make_makes_every_ruleset_in_games():
    ids = rulelang.register_envs(folder=ROOT / "games")
    assert ids == [f"rulelang/{path.stem}-v0" for path in sorted((ROOT / "games").glob("*.rules"))]
    assert rulelang.register_envs(folder=ROOT / "games") == ids    # again: nothing changes, no warning
    for path, players in (case.values for case in SMALLEST):
        env = gymnasium.make(f"rulelang/{path.stem}-v0", players=players, seat=players - 1, max_decisions=50)
        assert env.spec.id == f"rulelang/{path.stem}-v0"
        assert env.unwrapped.seat == players - 1 and env.unwrapped.game.num_players == players
        observation, _ = env.reset(seed=2)
        assert env.observation_space.contains(observation)
    check_env(gymnasium.make("rulelang/kuhn_poker-v0", seat=1).unwrapped)   # and every render mode, by the spec
    with pytest.raises(rulelang.IllegalActionError, match="not a folder"):
        rulelang.register_envs(folder=ROOT / "games" / "missing")


@pytest.mark.parametrize(("path", "players"), SMALLEST)
def test_the_observation_space_contains_every_observation_of_50_random_games(path, players):
    game = load(path, players)
    table = Table(game)
    space = table.observation_space()["observation"]
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    for seed in range(50):
        table.start(seed)
        chooser = random.Random(seed)
        seen = []
        for _ in range(2000):
            if table.state.is_terminal():   # at the end, every seat's view and the public one
                seen += [tensors.observation_tensor(table.state, viewer)
                         for viewer in [*range(players), rulelang.CHANCE]]
                break
            player = table.state.current_players()[0]   # what the env gives the seat about to act
            seen.append(tensors.observation_tensor(table.state, player))
            table.state.apply_action(chooser.choice(table.state.legal_action_ids(player)), player=player)
        observations = np.asarray(seen).astype(np.float32)           # as Table.tensor gives them
        outside = (observations < space.low) | (observations > space.high)
        assert not outside.any(), np.flatnonzero(outside.any(axis=0))
        assert space.contains(observations[-1])


# ---------------------------------------------------------------- the docs

def _rl_examples():
    text = (ROOT / "docs" / "embedding.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(# needs rulelang\[rl\]\n.*?)```", text, re.S)


def test_the_docs_examples_of_the_environments_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    examples = _rl_examples()
    assert len(examples) >= 3
    for example in examples:
        exec(compile(example, "docs/embedding.md", "exec"), {"__name__": "__doc_example__"})
