"""How fast a greedy seat plays: games a second and instructions a greedy decision, for a
line-up (by default Jamaica, 4 players, ``greedy,random,random,random``), optionally against
another revision of the repository in the same run.

    python benchmarks/greedy.py [--against REV] [--games N] [--rounds R] [--valgrind A,B]
                                [--agents LINEUP] [--players P] [RULESET]

Game i is the one ``rulelang simulate --seed 0`` plays as game i (seat k's agent seeded with
``derive_seed(0, i, k)``, the game with ``derive_seed(0, i)``), played through the host API
in a fresh process, one game after another: the same games on every revision whose agents
choose alike.

- By the clock: ``--games`` games (default 20) in each of ``--rounds`` rounds (default 3), the
  revisions taking turns so that the machine's load falls on both alike; the best round's
  games a second. Loading is not counted.
- With ``--valgrind A,B``: instructions counted by ``valgrind --tool=cachegrind`` (as
  benchmarks/instructions.py does) for games 0..A-1, then 0..B-1; the difference over the
  greedy seats' decisions in games A..B-1 is what a greedy decision costs, the game around it
  included (the random seats' decisions and the rules' runs). Instructions do not move with
  the machine's load.

The "greedy" seats are all those that are not random: with ``--agents mcts:20,random,random``
the figures are an IS-MCTS seat's. Each line also says the games' mean length and the games
those seats won, which must be the same on both revisions when the agents choose alike. A
benchmark, not a test.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from instructions import human  # noqa: E402
from revisions import checked_out  # noqa: E402

# Played in the child process; it uses only the stable host API, so that it runs on any revision.
PLAYER = """
import gc, json, sys, time
import rulelang
from rulelang.interpreter.agents import derive_seed, parse_agents
path, players, lineup, first, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
game = rulelang.load(path, players=players)
specs = parse_agents(lineup, players)
greedy = {k for k, spec in enumerate(specs) if spec.kind != "random"}
gc.collect()
decisions = greedy_decisions = 0
lengths, greedy_wins = [], 0
start = time.perf_counter()
for index in range(first, count):
    agents = [spec.build(game, derive_seed(0, index, seat)) for seat, spec in enumerate(specs)]
    state = game.new_initial_state(seed=derive_seed(0, index))
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(agents[player].choose(state, player), player=player)
        greedy_decisions += player in greedy
    lengths.append(state.decisions)
    greedy_wins += bool(set(state.winners()) & greedy)
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "greedy_decisions": greedy_decisions, "lengths": lengths,
                  "greedy_wins": greedy_wins}))
"""


@dataclass(frozen=True)
class Run:
    """What one child process played: its time, the greedy seats' decisions, the games' lengths
    and wins, and its instructions (0 when not counted)."""

    seconds: float
    greedy_decisions: int
    lengths: list[int]
    greedy_wins: int
    instructions: int = 0

    def summary(self) -> str:
        """The games' mean length and the greedy seats' wins: equal where the agents choose alike."""
        games = len(self.lengths)
        return f"{games} games, mean length {sum(self.lengths) / max(games, 1):.1f}, greedy won {self.greedy_wins}"


def run(tree: Path, ruleset: Path, players: int, lineup: str, first: int, count: int, counted: bool) -> Run:
    """Games ``first``..``count``-1 played from ``tree`` in a fresh process (under valgrind if
    ``counted``)."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree),
           "XDG_CACHE_HOME": str(tree / "build" / "benchmark-cache")}   # (its own: see by_instructions)
    command = [sys.executable, "-c", PLAYER, str(ruleset), str(players), lineup, str(first), str(count)]
    if counted:
        command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *command]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tree, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{ruleset.name} in {tree}: the run failed\n{done.stderr[-2000:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    return Run(data["seconds"], data["greedy_decisions"], data["lengths"], data["greedy_wins"],
               int(refs.group(1).replace(",", "")) if refs else 0)


def per_greedy_decision(low: Run, high: Run) -> float:
    """Instructions of the games ``high`` played beyond ``low``'s, a greedy decision."""
    return (high.instructions - low.instructions) / max(high.greedy_decisions - low.greedy_decisions, 1)


def same_tree(tree: Path, ruleset: Path) -> Path:
    """``ruleset`` as it is in ``tree`` (a file of this repository), else as given."""
    return tree / ruleset.relative_to(ROOT) if ruleset.is_relative_to(ROOT) else ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", nargs="?", type=Path, default=ROOT / "games" / "jamaica.rules")
    parser.add_argument("--against", metavar="REV", help="also play a git revision, in a temporary worktree")
    parser.add_argument("--agents", default="greedy,random,random,random", help="the line-up, as simulate takes it")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20, help="games a round, by the clock (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds by the clock (default 3; 0: none)")
    parser.add_argument("--valgrind", metavar="A,B", help="count instructions of games 0..A-1 and 0..B-1")
    args = parser.parse_args()
    ruleset = args.ruleset.resolve()
    with checked_out(args.against) if args.against else nullcontext() as other:
        trees = [("here", ROOT)] + ([(args.against, other)] if other is not None else [])
        if args.rounds > 0:
            by_clock(trees, ruleset, args)
        if args.valgrind:
            by_instructions(trees, ruleset, args)


def by_clock(trees: list[tuple[str, Path]], ruleset: Path, args: argparse.Namespace) -> None:
    """The best round's games a second of each tree, the trees taking turns."""
    best: dict[str, Run] = {}
    for _ in range(args.rounds):
        for name, tree in trees:
            played = run(tree, same_tree(tree, ruleset), args.players, args.agents, 0, args.games, False)
            if name not in best or played.seconds < best[name].seconds:
                best[name] = played
    for name, _ in trees:
        played = best[name]
        print(f"{name}: {len(played.lengths) / played.seconds:.2f} games a second, "
              f"{played.seconds / max(played.greedy_decisions, 1) * 1e3:.2f} ms a greedy decision ({played.summary()})")
    if len(trees) == 2:
        (here, _), (there, _) = trees
        print(f"games a second: {best[there].seconds / best[here].seconds:.2f}x {there}")


def by_instructions(trees: list[tuple[str, Path]], ruleset: Path, args: argparse.Namespace) -> None:
    """Instructions a greedy decision of each tree, counted by valgrind."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    first, second = (int(n) for n in args.valgrind.split(","))
    if not 0 <= first < second:
        raise SystemExit("--valgrind A,B needs 0 <= A < B")
    counts = {}
    for name, tree in trees:
        same = same_tree(tree, ruleset)
        # The tree's cache folder filled first (the grammar's tables, the ruleset's AST), so that
        # both counted runs find it warm, whatever other jobs keep in the user's cache.
        run(tree, same, args.players, args.agents, 0, 0, False)
        low = run(tree, same, args.players, args.agents, 0, first, True)
        high = run(tree, same, args.players, args.agents, 0, second, True)
        counts[name] = per_greedy_decision(low, high)
        games = (high.instructions - low.instructions) / (second - first)
        print(f"{name}: {human(counts[name])} instructions a greedy decision, {human(games)} a game "
              f"(games {first}..{second - 1}; {high.summary()})", flush=True)
    if len(trees) == 2:
        (here, _), (there, _) = trees
        print(f"instructions a greedy decision: {counts[there] / counts[here]:.2f}x fewer than {there}")


if __name__ == "__main__":
    main()
