"""Agents (interpreter/agents/): the spec syntax, what greedy and IS-MCTS choose, that they
are deterministic for a seed, that they never read what their seat cannot see, and that they
play every ruleset of games/ without failing. Budgets are small: the strength goals are
measured by benchmarks/agents.py, not here."""
from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.diagnostics import REGISTRY
from rulelang.errors import RulelangError
from rulelang.interpreter.agents import (
    Agent,
    AgentSpec,
    AgentSpecError,
    GreedyAgent,
    MctsAgent,
    Node,
    RandomAgent,
    parse_agents,
    rewards_of,
    standing,
)
from rulelang.interpreter.state.infostate import Sampler, canonical_state
from rulelang.interpreter.state.state import State

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
AGENTS_DOC = ROOT / "docs" / "agents.md"

PICK = """
game "Pick" { players 2 }
player var total: int = 0
function small(p: player) -> int = 0 - p.total
function pair(p: player, q: player) -> int = 0
function flag(p: player) -> bool = true
phase play {
  for p in players { choose n in 0..3 by p  p.total += n }
}
score p = p.total
"""


def tic_tac_toe() -> rulelang.Game:
    return rulelang.load(GAMES / "tic_tac_toe.rules")


CELLS = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")   # action ids 0-8


def after(game: rulelang.Game, *cells: str) -> State:
    """A tic-tac-toe game after the moves ``cells``, the players taking turns."""
    state = game.new_initial_state()
    for cell in cells:
        state.apply_action(CELLS.index(cell))
    return state


def label(agent: Agent, state: State, player: int) -> str:
    """The label of the action ``agent`` chooses for ``player``."""
    return str(agent.choose(state, player))


def played(game: rulelang.Game, seed: int, moves: int) -> State:
    """A state after up to ``moves`` random actions, never a finished game."""
    chooser = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    for _ in range(moves):
        player = state.current_players()[0]
        following = state.clone()
        following.apply_action(chooser.choice(following.legal_action_ids(player)), player=player)
        if following.is_terminal():
            break
        state = following
    return state


# ---------------------------------------------------------------- specs

def test_parse_one_spec_for_every_seat_or_one_per_seat() -> None:
    assert parse_agents("random", 3) == (AgentSpec("random"),) * 3
    specs = parse_agents("mcts:400, random,greedy", 3)
    assert specs == (AgentSpec("mcts", iterations=400), AgentSpec("random"), AgentSpec("greedy"))
    assert [str(s) for s in specs] == ["mcts:400", "random", "greedy"]


@pytest.mark.parametrize("text", ["greedy:small", "mcts:200", "mcts:0.5s", "mcts:2s", "mcts:400:c=1.4",
                                  "mcts:50:depth=20", "mcts:50:c=0:depth=3", "mcts:200:rave=1000",
                                  "mcts:200:decisive=1", "mcts:0.5s:rave=300:decisive=2"])
def test_specs_read_back_from_their_text_and_pickle(text: str) -> None:
    [spec] = parse_agents(text, 1)
    assert parse_agents(str(spec), 1) == (spec,)
    assert pickle.loads(pickle.dumps(spec)) == spec


def test_spec_settings() -> None:
    [timed] = parse_agents("mcts:0.5s:c=1.4", 1)
    assert (timed.iterations, timed.seconds, timed.exploration) == (None, 0.5, 1.4)
    [capped] = parse_agents("mcts:30:depth=4", 1)
    assert (capped.iterations, capped.seconds, capped.depth, capped.rave) == (30, None, 4, 0.0)
    assert parse_agents("mcts:200:rave=300", 1)[0].rave == 300
    assert parse_agents("mcts:200", 1)[0].decisive == 0
    assert parse_agents("mcts:200:decisive=1", 1)[0].decisive == 1
    [both] = parse_agents("mcts:200:decisive=2:depth=9", 1)
    assert (both.decisive, both.depth) == (2, 9)
    assert str(parse_agents("mcts:200:decisive=0", 1)[0]) == "mcts:200"
    assert parse_agents("greedy:small", 1)[0].heuristic == "small"


@pytest.mark.parametrize(("text", "message"), [
    ("mcts:200,random", "2 agents given for 3 seats"),
    ("alphazero", "unknown agent 'alphazero': the kinds are random, greedy, mcts"),
    ("", "unknown agent ''"),
    ("random:3", "random takes no settings"),
    ("greedy:", "agent 'greedy:': nothing after ':'"),
    ("mcts:", "agent 'mcts:': nothing after ':'"),
    ("greedy:no way", "'no way' is not a name"),
    ("mcts", "give mcts a budget per decision"),
    ("mcts:0", "'0' is not a budget"),
    ("mcts:-5", "'-5' is not a budget"),
    ("mcts:many", "'many' is not a budget"),
    ("mcts:0s", "'0s' is not a time budget"),
    ("mcts:nans", "'nans' is not a time budget"),
    ("mcts:infs", "'infs' is not a time budget"),
    ("mcts:100:c=-1", "c must be a number, 0 or more, not '-1'"),
    ("mcts:100:c=x", "c must be a number"),
    ("mcts:100:depth=0", "depth must be a whole number above 0"),
    ("mcts:100:rave=-3", "rave must be a number, 0 or more, not '-3'"),
    ("mcts:100:temperature=2", "unknown option 'temperature=2'"),
    ("mcts:100:decisive=3", "decisive must be 0, 1 or 2, not '3'"),
    ("mcts:100:decisive=yes", "decisive must be 0, 1 or 2, not 'yes'"),
    ("mcts:100:decisive=1:decisive=1", "decisive is given twice"),
    ("mcts:100:c", "unknown option 'c'"),
    ("mcts:100:c=1:c=2", "c is given twice"),
])
def test_bad_specs_say_why(text: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=re.escape(message)):
        parse_agents(text, 3)


def test_greedy_function_is_checked_against_the_game() -> None:
    game = rulelang.load(PICK)
    AgentSpec("greedy", heuristic="small").check(game)
    cases = {"missing": "the ruleset declares no function 'missing' (functions: flag, pair, small)",
             "pair": "function 'pair' takes (p: player, q: player), not (p: player)",
             "flag": "function 'flag' returns bool, not int"}
    for name, message in cases.items():
        with pytest.raises(AgentSpecError, match=re.escape(message)):
            AgentSpec("greedy", heuristic=name).build(game, 0)


def test_a_spec_made_by_hand_is_checked_when_built() -> None:
    game = tic_tac_toe()
    with pytest.raises(AgentSpecError, match="unknown agent kind 'minimax'"):
        AgentSpec("minimax").build(game, 0)
    state = after(game, "b2")
    assert AgentSpec("mcts").build(game, 0).choose(state, 1) in state.legal_actions(1)   # 200 iterations


def test_a_bad_spec_is_a_rulelang_error_with_code_e608() -> None:
    """A host catches a bad line-up as any rulelang error (its diagnostic: E608
    bad-agent-spec) or, as before, as a ValueError; the text is the diagnostic's."""
    with pytest.raises(AgentSpecError) as caught:
        parse_agents("mcts:fast", 2)
    error = caught.value
    assert isinstance(error, RulelangError) and isinstance(error, ValueError)
    assert error.diagnostic.code == "E608" and REGISTRY["E608"].name == "bad-agent-spec"
    assert error.diagnostic.message.startswith("agent 'mcts:fast': 'fast' is not a budget")
    assert str(error) == f"E608 {error.diagnostic.message}"
    assert str(pickle.loads(pickle.dumps(error))) == str(error)   # as a worker process sends it


def test_a_spec_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):  # the family, for callers that catch ValueError
        parse_agents("mcts:x", 2)


# ---------------------------------------------------------------- greedy

def test_greedy_takes_a_winning_move() -> None:
    game = tic_tac_toe()
    state = after(game, "a1", "a2", "b1", "b2")
    for seed in range(5):
        assert label(GreedyAgent(seed), state, 0) == "c1"


def test_greedy_uses_the_declared_function() -> None:
    game = rulelang.load(PICK)
    state = game.new_initial_state()
    assert label(AgentSpec("greedy").build(game, 1), state, 0) == "3"         # the score: most
    assert label(AgentSpec("greedy", heuristic="small").build(game, 1), state, 0) == "0"   # 0 - total


def test_greedy_breaks_ties_at_random() -> None:
    game = tic_tac_toe()
    state = game.new_initial_state()                                   # nine moves, all worth 0
    assert len({label(GreedyAgent(seed), state, 0) for seed in range(20)}) > 3


# ---------------------------------------------------------------- IS-MCTS

@pytest.mark.parametrize("text", ["mcts:200", "mcts:200:rave=1000", "mcts:100:c=1.4", "mcts:200:decisive=2"])
def test_mcts_takes_the_win_and_blocks(text: str) -> None:
    game = tic_tac_toe()
    win = after(game, "a1", "a2", "b1", "b2")
    block = after(game, "a1", "b2", "b1")
    [spec] = parse_agents(text, 1)
    for seed in range(3):
        assert label(spec.build(game, seed), win, 0) == "c1"
        assert label(spec.build(game, seed), block, 1) == "c1"


def rollout_steps(agent: MctsAgent, state: State) -> tuple[list[tuple[int, int]], list[float]]:
    """The (player, action id) steps of one rollout of ``agent`` from a copy of ``state``, and
    its rewards."""
    steps: list[tuple[int, int]] = []
    rewards = agent._rollout(state.clone(), steps)
    return steps, rewards


def test_a_rollout_with_decisive_moves_takes_an_immediate_win() -> None:
    game = tic_tac_toe()
    win = after(game, "a1", "a2", "b1", "b2")                         # X to play: c1 wins
    for seed in range(10):
        for level in (1, 2):
            steps, rewards = rollout_steps(MctsAgent(seed, decisive=level), win)
            assert steps == [(0, CELLS.index("c1"))] and rewards == [1.0, 0.0]
    plain = {rollout_steps(MctsAgent(seed), win)[0][0] for seed in range(10)}
    assert len(plain) > 1                                               # random rollouts miss it


def test_a_rollout_with_anti_decisive_moves_blocks_an_immediate_loss() -> None:
    game = tic_tac_toe()
    block = after(game, "a1", "b2", "b1")                              # O to play, X threatens c1
    for seed in range(10):
        steps, _ = rollout_steps(MctsAgent(seed, decisive=2), block)
        assert steps[0] == (1, CELLS.index("c1"))
    decisive_only = {rollout_steps(MctsAgent(seed, decisive=1), block)[0][0] for seed in range(10)}
    assert len(decisive_only) > 1                                       # level 1 does not block


def test_a_rollout_with_decisive_moves_is_deterministic_for_a_seed() -> None:
    game = tic_tac_toe()
    state = after(game, "b2")
    for level in (1, 2):
        assert rollout_steps(MctsAgent(5, decisive=level), state) == rollout_steps(MctsAgent(5, decisive=level), state)
        chosen = {label(AgentSpec("mcts", iterations=60, decisive=level).build(game, 7), state, 1) for _ in range(2)}
        assert len(chosen) == 1
    game = rulelang.load(GAMES / "jolly_roger.rules", players=3)
    state = played(game, 1, 13)
    player = state.current_players()[0]
    spec = AgentSpec("mcts", iterations=10, depth=15, decisive=2)
    assert label(spec.build(game, 3), state, player) == label(spec.build(game, 3), state, player)


def test_decisive_look_ahead_counts_a_rule_that_fails_as_no_win() -> None:
    game = rulelang.load(DIVIDE)
    state = game.new_initial_state()
    [one] = [action.id for action in state.legal_actions(0) if str(action) == "1"]
    for level in (1, 2):
        assert label(MctsAgent(0, decisive=level), state, 0) == "1"
        for seed in range(5):                                          # the failing move is never "won"
            steps, rewards = rollout_steps(MctsAgent(seed, decisive=level), state)
            assert steps == [(0, one)] and rewards == [1.0]


def test_a_time_budget_gives_a_legal_action() -> None:
    game = tic_tac_toe()
    state = after(game, "b2")
    assert AgentSpec("mcts", seconds=0.01).build(game, 0).choose(state, 1) in state.legal_actions(1)


def test_mcts_is_deterministic_for_a_seed() -> None:
    game = rulelang.load(GAMES / "jolly_roger.rules", players=3)
    states = [played(game, seed, 4 + 9 * seed) for seed in range(2)]
    for state in states:
        player = state.current_players()[0]
        first = [label(AgentSpec("mcts", iterations=15).build(game, 7), state, player) for _ in range(2)]
        assert first[0] == first[1]


DIVIDE = """
game "Divide" { players 1 }
var n: int = 0
phase p {
  choose k in 0..1 by players[0]
  n = 10 / k
}
score p = n
"""


def test_mcts_steers_clear_of_a_rule_that_fails() -> None:
    game = rulelang.load(DIVIDE)
    state = game.new_initial_state()
    assert label(MctsAgent(0, exploration=0.4), state, 0) == "1"
    assert label(GreedyAgent(0), state, 0) == "1"


def test_mcts_rollouts_stop_at_the_bound_on_decisions() -> None:
    game = rulelang.load("""
game "Endless" { players 2  max_decisions 6 }
player var points: int = 0
phase p {
  repeat { for q in players { choose n in 0..1 by q  q.points += n } }
}
score p = p.points
""")
    state = game.new_initial_state()
    assert label(AgentSpec("mcts", iterations=60).build(game, 3), state, 0) == "1"


def test_rewards_are_shares_of_the_win() -> None:
    game = tic_tac_toe()
    drawn = game.new_initial_state()
    for cell in (0, 1, 2, 4, 3, 5, 7, 6, 8):                            # a1 b1 c1 b2 a2 c2 b3 a3 c3
        drawn.apply_action(cell)
    assert drawn.is_terminal() and rewards_of(drawn) == [0.5, 0.5]
    won = after(game, "a1", "a2", "b1", "b2")
    won.apply_action(2)
    assert rewards_of(won) == [1.0, 0.0]


def test_simultaneous_choices_each_player_in_turn() -> None:
    game = rulelang.load(GAMES / "asterix.rules", players=3)
    state = game.new_initial_state(seed=2)
    while len(state.current_players()) < 2:
        player = state.current_players()[0]
        state.apply_action(RandomAgent(0).choose(state, player), player=player)
    last = state.current_players()[-1]                                 # not the first to act
    for spec in (AgentSpec("mcts", iterations=8, depth=10), AgentSpec("greedy")):
        action = spec.build(game, 1).choose(state, last)
        assert action in state.legal_actions(last)
        state.clone().apply_action(action, player=last)


def test_mcts_with_explicit_chance() -> None:
    game = rulelang.load(GAMES / "jolly_roger.rules", players=3)
    state = game.new_initial_state(seed=4, explicit_chance=True)
    chooser, decided = random.Random(0), 0
    agent = AgentSpec("mcts", iterations=6, depth=10).build(game, 2)
    while decided < 2:
        player = state.current_players()[0]
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(chooser.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        state.apply_action(agent.choose(state, player), player=player)
        decided += 1


# ---------------------------------------------------------------- what a seat may see

@pytest.mark.parametrize(("ruleset", "players", "moves"),
                         [("kuhn_poker", 2, 0), ("kuhn_poker", 2, 1), ("jolly_roger", 3, 6),
                          ("jolly_roger", 3, 20), ("asterix", 3, 3)])
def test_choices_do_not_change_when_hidden_things_are_dealt_again(ruleset: str, players: int, moves: int) -> None:
    game = rulelang.load(GAMES / f"{ruleset}.rules", players=players)
    state = played(game, 11, moves)
    player = state.current_players()[0]
    samples = (state.resample_from_infostate(player, seed) for seed in range(12))
    others = [other for other in samples if other.to_json()["zones"] != state.to_json()["zones"]][:3]
    assert others                                                       # really dealt again
    for spec in (AgentSpec("mcts", iterations=12, depth=20), AgentSpec("greedy")):
        for seed in range(2):
            chosen = label(spec.build(game, seed), state, player)
            assert all(label(spec.build(game, seed), other, player) == chosen for other in others)


def test_the_canonical_state_is_the_same_for_every_deal_the_seat_cannot_tell_apart() -> None:
    game = rulelang.load(GAMES / "jolly_roger.rules", players=3)
    state = played(game, 5, 12)
    player = state.current_players()[0]
    canonical = canonical_state(state, player).to_json()
    other = state.resample_from_infostate(player, 99)
    assert other.to_json() != state.to_json()
    assert canonical_state(other, player).to_json() == canonical
    assert canonical_state(state, player).observation(player) == state.observation(player)


@pytest.mark.parametrize(("ruleset", "players"), [("jolly_roger", 3), ("kuhn_poker", 2)])
def test_the_agents_sampler_draws_what_resample_from_infostate_draws(ruleset: str, players: int) -> None:
    game = rulelang.load(GAMES / f"{ruleset}.rules", players=players)
    state = played(game, 3, 7)
    player = state.current_players()[0]
    sampler = Sampler(state, player)
    assert sampler.hidden
    for seed in range(3):
        assert sampler.sample(seed).to_json() == sampler.root.resample_from_infostate(player, seed).to_json()


# ---------------------------------------------------------------- every ruleset

@pytest.mark.parametrize("path", sorted(GAMES.glob("*.rules")), ids=lambda p: p.stem)
def test_agents_play_every_ruleset(path: Path) -> None:
    game = rulelang.load(path, players=3 if path.stem in ("jolly_roger", "jamaica", "asterix", "tobago") else None)
    state = game.new_initial_state(seed=1)
    specs = [AgentSpec("mcts", iterations=2, depth=4), AgentSpec("greedy"), AgentSpec("random")]
    for decision in range(3):
        if state.is_terminal():
            break
        player = state.current_players()[0]
        choices = [spec.build(game, decision).choose(state, player) for spec in specs]
        assert all(choice in state.legal_actions(player) for choice in choices)
        state.apply_action(choices[decision % 3], player=player)


# ---------------------------------------------------------------- the docs

def runnable_blocks(path: Path) -> list[str]:
    blocks = re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.DOTALL)
    return [block for block in blocks if block.startswith("# runnable")]


def test_docs_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    blocks = runnable_blocks(AGENTS_DOC)
    assert blocks
    for block in blocks:
        exec(compile(block, str(AGENTS_DOC), "exec"), {})


def test_the_final_choice_prefers_a_proved_win_and_avoids_a_proved_loss() -> None:
    """At the root, a proved loss ranks below an action never tried, whatever its visits;
    a proved win ranks above every action, however few its visits."""
    def child(visits: int, result: list[float] | None = None) -> Node:
        node = Node(0)
        node.visits, node.result = visits, result
        return node

    lost, open_, won, drawn = child(150, [0.0, 1.0]), child(40), child(3, [1.0, 0.0]), child(60, [0.5, 0.5])
    ranked = sorted([("lost", lost), ("open", open_), ("won", won), ("drawn", drawn), ("untried", None)],
                    key=lambda item: standing(item[1], 0), reverse=True)
    assert [name for name, _ in ranked] == ["won", "drawn", "open", "untried", "lost"]


def test_a_greedy_pick_that_leaves_others_to_pick_chooses_as_trying_each_would(monkeypatch: pytest.MonkeyPatch) -> None:
    # A pick of a simultaneous choice that another seat has yet to make changes no table: the
    # score (or a heuristic) is the same after each, so greedy picks at random without a
    # sample, drawing as trying them would. An evaluation that may read more (here, one greedy
    # does not know) tries them all: the same games.
    game = rulelang.load(GAMES / "jamaica.rules", players=4)
    from rulelang.interpreter.agents import simple

    made: list[int] = []

    def counted(state: State, viewer: int) -> Sampler:
        made.append(viewer)
        return Sampler(state, viewer)

    monkeypatch.setattr(simple, "Sampler", counted)

    def played(trying: bool, seed: int) -> tuple[list[tuple[int, int]], int]:
        evaluation = (lambda s, p: simple.score_of(s, p)) if trying else simple.score_of
        agents: list[Agent] = [GreedyAgent(seed, evaluation), RandomAgent(seed), GreedyAgent(seed + 1, evaluation),
                               RandomAgent(seed + 1)]
        state = game.new_initial_state(seed=seed)
        made.clear()
        picks = 0
        while not state.is_terminal() and state.decisions < 120:
            player = state.current_players()[0]
            decision = state.pending
            assert decision is not None
            picks += player in (0, 2) and decision.kind == "simultaneous" and len(decision.players) > 1 \
                and len(state.legal_actions(player)) > 1
            state.apply_action(agents[player].choose(state, player), player=player)
        assert picks
        return state.history(), len(made) + picks * (not trying)

    for seed in (4, 5):
        quick, quick_count = played(False, seed)
        full, full_count = played(True, seed)
        assert quick == full
        assert quick_count == full_count   # the picks made without a sample are the only ones
