"""Property tests over every ruleset in games/ and every player count it allows.

Random games are driven by a hypothesis-drawn game seed and a hypothesis-drawn seed for the
random players' choices. Rulesets added to games/ are picked up automatically.
"""
from __future__ import annotations

import functools
import json
import math
import random
from pathlib import Path

import pytest
from conftest import game_cases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelang
from rulelang.errors import StateDataError
from rulelang.interpreter.state.state import CHANCE

CASES = game_cases()

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def examples(n):
    return settings(max_examples=n, deadline=None, derandomize=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@functools.cache
def load(path: Path, players: int):
    return rulelang.load(str(path), players=players)


def bound(game) -> int:
    assert isinstance(game.max_decisions, int) and game.max_decisions > 0, \
        "every ruleset in games/ declares max_decisions (the bound the property tests check)"
    return game.max_decisions


def check_to_act(state):
    """An unfinished state names who acts, and each of them has a legal action."""
    assert not state.is_terminal()
    players = state.current_players()
    assert players, "an unfinished state must have a player (or chance) to act"
    assert len(set(players)) == len(players)
    for p in players:
        if p == CHANCE:
            assert players == [CHANCE]
            assert state.chance_outcomes()
        else:
            assert state.legal_actions(p), f"player {p} is to act but has no legal action"


def random_step(state, rng):
    """Apply one random legal action; returns (player, action id)."""
    players = state.current_players()
    player = rng.choice(players)
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0].id
    else:
        action = rng.choice(state.legal_action_ids(player))
    state.apply_action(action, player=player)
    return player, action


def play_out(game, seed, choice_seed, explicit_chance=False, visit=None):
    """A random game to its end; ``visit(state, step)`` is called on every state met.

    Checks at every state: invariants, someone to act with a legal action, the decision
    bound. Returns the final state and the (player, action) list.
    """
    limit = bound(game)
    rng = random.Random(choice_seed)
    state = game.new_initial_state(seed=seed, explicit_chance=explicit_chance)
    moves, decisions = [], 0
    while True:
        assert state.check_invariants() == [], f"after {moves}"
        if visit is not None:
            visit(state, len(moves))
        if state.is_terminal():
            break
        check_to_act(state)
        player, action = random_step(state, rng)
        moves.append((player, action))
        if player != CHANCE:
            decisions += 1
            assert decisions <= limit or state.is_terminal(), \
                f"the game is still running after the declared max_decisions {limit}"
    assert decisions <= limit
    assert state.current_players() == []
    returns = state.returns()
    assert len(returns) == game.num_players
    assert all(isinstance(r, float) and math.isfinite(r) for r in returns)
    winners = state.winners()
    assert winners and all(0 <= w < game.num_players for w in winners)
    assert all(returns[w] == max(returns) for w in winners)
    check_declared_scores(game.settings, returns)
    return state, moves


def check_declared_scores(settings, returns):
    """The header's promises on scores (score_sum, score_range) hold for the ended game."""
    if settings.score_sum is not None:
        assert sum(returns) == settings.score_sum, f"the scores {returns} do not sum to score_sum"
    if settings.score_range is not None:
        low, high = settings.score_range
        assert all(low <= r <= high for r in returns), f"a score of {returns} is outside score_range"


def sampled_states(rng, rate, budget=20):
    """Pick states of a game at random, each with probability ``rate`` but at most ``budget``
    in one game (and every final state): a long game costs no more checks than a short one."""
    left = budget

    def pick(state):
        nonlocal left
        if state.is_terminal():
            return True
        if left and rng.random() < rate:
            left -= 1
            return True
        return False
    return pick


def points(rng, count, k=3):
    """Up to k step numbers in 0..count, chosen at random."""
    return set(rng.sample(range(count + 1), min(k, count + 1)))


def zone_key(ref) -> str:
    """The key of a zone in to_json()['zones']: NAME for a shared zone, NAME/OWNER per player."""
    return ref.name if ref.owner is None else f"{ref.name}/{ref.owner.index}"


def hidden_zones(game, viewer: int) -> list[str]:
    """The zones whose contents ``viewer`` may not see, from the declared visibilities."""
    hidden = []
    for ref in game.catalog.zone_refs:
        decl = game.catalog.zones[ref.name]
        visibility = decl.visibility or ("owner" if decl.owner == "player" else "all")
        owned_by_viewer = ref.owner is not None and ref.owner.index == viewer
        if visibility in ("none", "count") or (visibility == "owner" and not owned_by_viewer):
            hidden.append(zone_key(ref))
    return hidden


def perturb_hidden(game, data: dict, viewer: int, rng, swaps: int = 3) -> bool:
    """Change only what ``viewer`` may not see: reorder each hidden zone and swap components
    of one type between two hidden zones (``swaps`` tries). Returns whether anything changed."""
    zones = data["zones"]
    keys = [k for k in hidden_zones(game, viewer) if k in zones]
    before = {k: list(zones[k]) for k in keys}
    for k in keys:
        rng.shuffle(zones[k])
    components = game.catalog.components
    for _ in range(swaps):
        full = [k for k in keys if zones[k]]
        if len(full) < 2:
            break
        a, b = rng.sample(full, 2)
        i = rng.randrange(len(zones[a]))
        same_type = [j for j, cid in enumerate(zones[b]) if components[cid].type == components[zones[a][i]].type]
        if same_type:
            j = rng.choice(same_type)
            zones[a][i], zones[b][j] = zones[b][j], zones[a][i]
    return any(zones[k] != before[k] for k in keys)


def round_trip(game, state):
    return game.state_from_json(json.loads(json.dumps(state.to_json())))


def legal_by_player(state):
    return {p: [(a.id, str(a)) for a in state.legal_actions(p)] for p in state.current_players() if p != CHANCE}


# ---------------------------------------------------------------------------------------------

def test_there_are_games():
    names = {case.values[0].stem for case in CASES}
    assert "tic_tac_toe" in names


@pytest.mark.parametrize("path,players", CASES)
@examples(20)
@given(seed=SEEDS, choice_seed=SEEDS)
def test_invariants_progress_and_bound(path, players, seed, choice_seed):
    play_out(load(path, players), seed, choice_seed)


@pytest.mark.parametrize("path,players", CASES)
@examples(10)
@given(seed=SEEDS, choice_seed=SEEDS)
def test_same_seed_and_actions_give_the_same_state(path, players, seed, choice_seed):
    game = load(path, players)
    rng = random.Random(choice_seed ^ 0x5A3E)
    seen = {}

    def visit(state, step):
        if step == 0 or state.is_terminal() or rng.random() < 0.1:
            seen[step] = state.to_json()
    final, moves = play_out(game, seed, choice_seed, visit=visit)
    # a separately loaded game, so nothing is shared with the first run but the text
    again = rulelang.load(str(path), players=players).new_initial_state(seed=seed)
    assert again.to_json() == seen[0]
    for i, (player, action) in enumerate(moves, start=1):
        again.apply_action(action, player=player)
        if i in seen:
            assert again.to_json() == seen[i], f"replay differs after {i} actions"
    assert again.history() == moves == final.history()
    assert again.returns() == final.returns()


@pytest.mark.parametrize("path,players", CASES)
@examples(10)
@given(seed=SEEDS, choice_seed=SEEDS)
def test_clone_is_independent(path, players, seed, choice_seed):
    game = load(path, players)
    rng = random.Random(choice_seed ^ 0x5EED)
    kept = []
    pick = sampled_states(rng, 0.2)

    def visit(state, step):
        if state.is_terminal() or not pick(state):
            return
        before = state.to_json()
        other = state.clone()
        assert other.to_json() == before
        # playing on the clone leaves the original alone
        random_step(other, rng)
        if not other.is_terminal():
            random_step(other, rng)
        assert state.to_json() == before
        assert other.history()[: len(state.history())] == state.history()
        # and playing on the original (below, to the end) leaves a clone alone
        keep = state.clone()
        kept.append((keep, keep.to_json()))
    play_out(game, seed, choice_seed, visit=visit)
    for keep, data in kept:
        assert keep.to_json() == data


SUBPROCESS_GAME = """
import json, random, sys
import rulelang
game = rulelang.load(sys.argv[1], players=int(sys.argv[2]))
rng = random.Random(5)
state = game.new_initial_state(seed=11)
while not state.is_terminal():
    player = rng.choice(state.current_players())
    state.apply_action(rng.choice(state.legal_action_ids(player)), player=player)
print(json.dumps(state.to_json(), sort_keys=True))
"""


@pytest.mark.parametrize("path,players", CASES)
def test_same_game_in_processes_with_different_hash_seeds(path, players):
    """Bit for bit the same on any run: nothing depends on Python's per-process string hashing."""
    import os
    import subprocess
    import sys
    root = Path(__file__).resolve().parent.parent
    outputs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed,
                   PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
        done = subprocess.run([sys.executable, "-c", SUBPROCESS_GAME, str(path), str(players)], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("path,players", CASES)
@pytest.mark.parametrize("explicit_chance", [False, True], ids=["sampled", "explicit"])
@examples(8)
@given(seed=SEEDS, choice_seed=SEEDS)
def test_json_round_trip(path, players, explicit_chance, seed, choice_seed):
    game = load(path, players)
    rng = random.Random(choice_seed ^ 0x150)
    pick = sampled_states(rng, 0.07, budget=16)

    def visit(state, step):
        # every load checks the whole saved state (schema, ids, invariants): 7% of the steps,
        # at most 16 a game, of 8 games per case round-trip about a hundred states of each ruleset
        if not pick(state):
            return
        loaded = round_trip(game, state)
        assert loaded.to_json() == state.to_json()
        assert loaded.is_terminal() == state.is_terminal()
        assert loaded.current_players() == state.current_players()
        assert legal_by_player(loaded) == legal_by_player(state)
        if state.is_chance_node():
            assert [(a.id, p) for a, p in loaded.chance_outcomes()] == [(a.id, p) for a, p in state.chance_outcomes()]
        assert [loaded.observation(p) for p in range(players)] == [state.observation(p) for p in range(players)]
        if not state.is_terminal():
            # the loaded state goes on exactly like the original
            same = state.clone()
            step_rng = random.Random(step)
            random_step(same, step_rng)
            random_step(loaded, random.Random(step))
            assert loaded.to_json() == same.to_json()
    play_out(game, seed, choice_seed, explicit_chance=explicit_chance, visit=visit)


@pytest.mark.parametrize("path,players", CASES)
@examples(10)
@given(seed=SEEDS, choice_seed=SEEDS)
def test_observation_ignores_hidden_information(path, players, seed, choice_seed):
    observation_check(path, players, seed, choice_seed)


@pytest.mark.parametrize("path,players", CASES)
def test_observation_check_is_not_vacuous(path, players):
    """Where a game hides anything, the check above does compare perturbed states."""
    game = load(path, players)
    if not any(hidden_zones(game, viewer) for viewer in range(players)):
        pytest.skip("nothing in this game is hidden in a zone")
    compared = any(observation_check(path, players, seed, seed) for seed in range(5))  # stops at the first
    assert compared, "no game of five compared a perturbed state"


def observation_check(path, players, seed, choice_seed):
    game = load(path, players)
    rng = random.Random(choice_seed ^ 0x0B5)

    changed = []
    pick = sampled_states(rng, 0.2)

    def visit(state, step):
        if not pick(state):
            return
        for viewer in range(players):
            obs = state.observation(viewer)
            assert json.loads(json.dumps(obs)) == obs, "observation is not plain JSON data"
        viewer = rng.randrange(players)
        saved = json.dumps(state.to_json())
        data = json.loads(saved)
        if not perturb_hidden(game, data, viewer, rng):
            return
        try:
            other = game.state_from_json(data)
        except StateDataError as refused:
            # a swap between two hidden zones may break an invariant of the ruleset (a hand
            # holds only its owner's cards), and the loader refuses such a state: reorder only
            assert "breaks invariant" in str(refused), refused
            data = json.loads(saved)
            if not perturb_hidden(game, data, viewer, rng, swaps=0):
                return
            other = game.state_from_json(data)
        assert other.to_json()["zones"] != state.to_json()["zones"]
        assert other.observation(viewer) == state.observation(viewer), \
            f"player {viewer}'s observation changed when only hidden zones changed"
        changed.append(step)
    play_out(game, seed, choice_seed, visit=visit)
    return changed


@pytest.mark.parametrize("path,players", CASES)
@examples(10)
@given(seed=SEEDS, choice_seed=SEEDS)
def test_explicit_chance_reaches_the_end(path, players, seed, choice_seed):
    game = load(path, players)
    chance_nodes = []

    def visit(state, step):
        if state.is_chance_node():
            assert state.current_players() == [CHANCE]
            outcomes = state.chance_outcomes()
            assert outcomes
            assert all(0 < p <= 1 for _, p in outcomes)
            assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-9)
            assert len({a.id for a, _ in outcomes}) == len(outcomes)
            # a chance node is no player's decision
            assert all(state.legal_actions(p) == [] for p in range(players))
            chance_nodes.append(step)
    _, moves = play_out(game, seed, choice_seed, explicit_chance=True, visit=visit)
    assert len(chance_nodes) == sum(1 for p, _ in moves if p == CHANCE)
