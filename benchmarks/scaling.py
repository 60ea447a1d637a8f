"""Games per second of `simulate` with one local process against several, and a check that
the results are identical.

    python benchmarks/scaling.py [--games 600] [--jobs 2] [--rounds 1] [--players 4] [RULESET]

Default: Jamaica (games/jamaica.rules), 4 players, random agents. Each round runs the same
games (same seed) with ``jobs=1`` and with ``jobs=N``, measuring wall-clock time (parallel
runs only pay off in wall-clock time); the ratio printed is the median over the rounds, with
its range. The parallel time includes starting the worker processes and building the game
in each. A benchmark, not a test: on a shared machine, run it twice.

Each line also gives the CPU seconds spent: by this process for jobs=1, by the worker
processes for jobs=N. When they are close, the parallel run wastes little, and a ratio below
N comes from cores taken by other work (the load average is printed before each round).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.interpreter.sim.simulate import SimulationReport, simulate  # noqa: E402


def deterministic(report: SimulationReport) -> dict[str, object]:
    """The report's JSON without its timing: what must not depend on the number of processes."""
    data = report.to_dict()
    data.pop("timing")
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default=str(ROOT / "games" / "jamaica.rules"))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = rulelang.load(args.ruleset, players=args.players)
    ratios = []
    for round_number in range(1, args.rounds + 1):
        load = os.getloadavg()[0]
        cpu = time.process_time()
        one = simulate(game, args.games, seed=args.seed, jobs=1)
        cpu_one = time.process_time() - cpu
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        many = simulate(game, args.games, seed=args.seed, jobs=args.jobs)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu_many = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
        same = deterministic(one) == deterministic(many)
        ratio = many.games_per_second / one.games_per_second
        ratios.append(ratio)
        print(f"round {round_number} (load {load:.1f}): jobs=1 {one.games_per_second:.1f} games/s "
              f"({one.seconds:.1f} s, {cpu_one:.1f} s CPU), jobs={args.jobs} {many.games_per_second:.1f} games/s "
              f"({many.seconds:.1f} s, workers {cpu_many:.1f} s CPU), ratio {ratio:.2f}x, identical results: {same}")
        if not same:
            sys.exit("the results differ between jobs=1 and jobs=N")
    print(f"{game.title}, {args.players} players, {args.games} games: jobs={args.jobs} gives "
          f"{statistics.median(ratios):.2f}x the games per second of jobs=1 "
          f"(median of {len(ratios)} rounds, {min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
