"""Instructions a playout and a decision for every ruleset, counted by valgrind, through the
host API (``legal_actions(p)``, then ``apply_action(action, player=p)``), optionally against
another revision of the repository in the same run.

    python benchmarks/instructions.py [--against REV] [--players N] [--playouts A,B] [RULESET...]

Instructions, unlike seconds, do not move with the machine's load: the same tree, inputs and
environment give the same count. Each ruleset is played twice in a fresh process under
``valgrind --tool=cachegrind --cache-sim=no`` with ``PYTHONHASHSEED=0``: A playouts (seeds
0..A-1), then B playouts (seeds 0..B-1). Loading, start-up and the first A playouts (warm-up)
cancel out of the difference, so ``(I_B - I_A) / (B - A)`` is what a warm playout costs and
``(I_B - I_A) / (decisions_B - decisions_A)`` what a decision costs, host calls included. The
runs of one tree share a cache folder of their own (``XDG_CACHE_HOME``), filled by one run
before them, so what other jobs keep in the user's cache cannot make one run colder.

``--against REV`` checks REV out into a temporary git worktree and counts the same games there
(same seeds, same random choices), then prints the ratio. A benchmark, not a test; needs
valgrind (``apt-get install valgrind``).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from revisions import checked_out

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PLAYERS = 4

# Played in the child process; it uses only the stable host API, so that it runs on any revision.
PLAYER = """
import gc, random, sys
import rulelang
path, players, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = rulelang.load(path, players=players)
gc.collect()  # every counted run starts its playouts from the same collected heap
chooser = random.Random(0)
decisions = 0
for seed in range(count):
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        for player in state.current_players():
            if state.is_terminal() or player not in state.current_players():
                continue
            state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
            decisions += 1
    state.returns()
print("decisions", decisions)
"""


@dataclass(frozen=True)
class Count:
    """What one tree costs on one ruleset: instructions a warm playout and a warm decision."""

    playout: float
    decision: float


def count_run(tree: Path, ruleset: Path, players: int, playouts: int, cache: str) -> tuple[int, int]:
    """(instructions, decisions) of one process that loads ``ruleset`` from ``tree`` and plays
    ``playouts`` random games under valgrind, with ``cache`` as its cache folder."""
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           *_player(ruleset, players, playouts)],
                          capture_output=True, text=True, env=_environment(tree, cache), cwd=tree, check=False)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    decisions = re.search(r"^decisions (\d+)$", done.stdout, re.M)
    if done.returncode != 0 or refs is None or decisions is None:
        raise SystemExit(f"{ruleset.name} in {tree}: the counted run failed\n{done.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), int(decisions.group(1))


def count(tree: Path, ruleset: Path, players: int, first: int, second: int) -> Count:
    """Instructions a warm playout and a warm decision: the difference of two counted runs.
    Both runs get a cache folder of their own, filled by one run before them (the grammar's
    tables, the ruleset's AST), so that lint and tests elsewhere on the machine can neither
    empty it between the two runs nor leave it cold for one of them only."""
    with tempfile.TemporaryDirectory(prefix="rulelang-count-") as cache:
        subprocess.run(_player(ruleset, players, 0), capture_output=True, env=_environment(tree, cache), cwd=tree,
                       check=False)
        low, low_decisions = count_run(tree, ruleset, players, first, cache)
        high, high_decisions = count_run(tree, ruleset, players, second, cache)
    return Count((high - low) / (second - first), (high - low) / max(high_decisions - low_decisions, 1))


def _player(ruleset: Path, players: int, playouts: int) -> list[str]:
    """The command that plays ``playouts`` random games of ``ruleset`` (PLAYER)."""
    return [sys.executable, "-c", PLAYER, str(ruleset), str(players), str(playouts)]


def _environment(tree: Path, cache: str) -> dict[str, str]:
    """The environment of a run of ``tree``: a fixed hash seed, its own cache folder."""
    return {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree), "XDG_CACHE_HOME": cache}


def players_for(ruleset: Path, wanted: int | None) -> int:
    """``wanted`` players, else 4 where the ruleset allows it, else the nearest count it allows."""
    from rulelang.check.settings import read_settings
    from rulelang.loader import read_ruleset

    declarations, _, _ = read_ruleset(ruleset)
    low, high = read_settings(declarations, str(ruleset))[0].players
    target = DEFAULT_PLAYERS if wanted is None else wanted
    return min(max(target, low), high)



def human(instructions: float) -> str:
    """1234567 -> '1.23M', 12345 -> '12.3k'."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if instructions >= size:
            return f"{instructions / size:.3g}{unit}"
    return f"{instructions:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*", type=Path, help="rulesets (default: every file of games/)")
    parser.add_argument("--against", metavar="REV", help="also count a git revision, in a temporary worktree")
    parser.add_argument("--players", type=int, help="players (default: 4, or the nearest count the ruleset allows)")
    parser.add_argument("--playouts", default="2,12", help="A,B: the two counted runs' playouts (default 2,12)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    first, second = (int(n) for n in args.playouts.split(","))
    if not 0 <= first < second:
        raise SystemExit("--playouts A,B needs 0 <= A < B")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "rulelang"), str(ROOT / "interpreter")],
                   check=False, capture_output=True)
    rulesets = [p.resolve() for p in args.rulesets] or sorted((ROOT / "games").glob("*.rules"))
    with checked_out(args.against) if args.against else nullcontext() as other:
        header = "| ruleset | players | instructions a playout | a decision |"
        if other is not None:
            header += f" {args.against}: a playout | a decision | fewer a decision |"
        print(header)
        print("|" + "---|" * (header.count("|") - 1))
        for ruleset in rulesets:
            players = players_for(ruleset, args.players)
            here = count(ROOT, ruleset, players, first, second)
            row = f"| {ruleset.stem} | {players} | {human(here.playout)} | {human(here.decision)} |"
            if other is not None:
                same = other / ruleset.relative_to(ROOT) if ruleset.is_relative_to(ROOT) else ruleset
                there = count(other, same, players, first, second)
                row += f" {human(there.playout)} | {human(there.decision)} | {there.decision / here.decision:.2f}x |"
            print(row, flush=True)



if __name__ == "__main__":
    main()
