"""Playouts per second of this tree against a past revision, in one run on this machine.

    python benchmarks/compare.py [--against b1de4ea] [--seconds 3] [--rounds 2] [RULESET...]

The past revision is checked out into a temporary git worktree; for each ruleset, the two
engines play in turn (``rounds`` times each, alternating, so a change in the machine's load
hits both; the ratio shown is the median of the rounds' ratios, with their range), each
on its own revision's ruleset of the same name, the way a host plays (``legal_actions``,
then ``apply_action``). Rules change between revisions (a longer game
is slower per playout), so the table also gives decisions per second. Time is the CPU time
of the playing process (``time.process_time``), which other jobs on a shared machine change
less than the clock. A benchmark, not a test.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from revisions import checked_out

ROOT = Path(__file__).resolve().parent.parent

MEASURE = """
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import os
import rulelang, rulelang.interpreter
here = os.path.realpath(sys.argv[1])
for module in (rulelang, rulelang.interpreter):   # not the installed tree's
    assert os.path.realpath(module.__file__).startswith(here), module.__file__
path, players, seconds = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
game = rulelang.load(path, players=players)
chooser = random.Random(0)
start, games, decisions = time.process_time(), 0, 0
while time.process_time() - start < seconds:
    state = game.new_initial_state(seed=games)
    while not state.is_terminal():
        for player in state.current_players():
            if state.is_terminal() or player not in state.current_players():
                continue
            state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
    state.returns()
    games += 1
    decisions += state.decisions
elapsed = time.process_time() - start
print(json.dumps([games / elapsed, decisions / elapsed]))
"""


def measure(tree: Path, ruleset: str, players: int, seconds: float) -> tuple[float, float]:
    """(playouts/s, decisions/s) of the engine and ruleset of ``tree``, in a fresh process."""
    done = subprocess.run([sys.executable, "-c", MEASURE, str(tree), str(tree / "games" / ruleset), str(players),
                           str(seconds)], capture_output=True, text=True, check=True)
    playouts, decisions = json.loads(done.stdout)
    return playouts, decisions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*",
                        default=["tic_tac_toe.rules", "jolly_roger.rules", "asterix.rules", "jamaica.rules",
                                 "tobago.rules"])
    parser.add_argument("--against", default="b1de4ea", help="the past revision (default: b1de4ea)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--players", type=int, default=4, help="for the rulesets that allow it (default 4)")
    args = parser.parse_args(argv)
    with checked_out(args.against) as past:
        _table(past, args)


def _table(past: Path, args: argparse.Namespace) -> None:
    """Per ruleset: the mean playouts/s of each engine, and the median of the ratios of each
    round (the two engines play one after the other in a round, so a change of the
    machine's load between rounds moves both), with the lowest and the highest."""
    print(f"{'ruleset':<20} {args.against + ' playouts/s':>20} {'now playouts/s':>15} {'ratio':>6}"
          f" {'(low-high)':>11} {'decisions/s ratio':>18}")
    for ruleset in args.rulesets:
        players = 2 if ruleset in ("tic_tac_toe.rules", "kuhn_poker.rules") else args.players
        rounds = []
        for _ in range(args.rounds):
            then = measure(past, ruleset, players, args.seconds)
            now = measure(ROOT, ruleset, players, args.seconds)
            rounds.append((then, now))
        mean_then = sum(then[0] for then, _ in rounds) / len(rounds)
        mean_now = sum(now[0] for _, now in rounds) / len(rounds)
        ratios = sorted(now[0] / then[0] for then, now in rounds)
        per_decision = sorted(now[1] / then[1] for then, now in rounds)
        spread = f"{ratios[0]:.2f}-{ratios[-1]:.2f}"
        print(f"{ruleset:<20} {mean_then:>20.1f} {mean_now:>15.1f} {_median(ratios):>6.2f} {spread:>11}"
              f" {_median(per_decision):>18.2f}")


def _median(values: list[float]) -> float:
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


if __name__ == "__main__":
    main()
