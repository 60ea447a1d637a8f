"""The branching of a ruleset's chance events before the first player decision.

    python benchmarks/chance_branching.py [RULESET] [--players N] [--seed S]

Starts ``new_initial_state(seed=S, explicit_chance=True)`` and, while the state waits for
chance, prints the number of outcomes offered, then applies one of them (drawn with their
probabilities by a generator seeded with S). At the first player decision it prints the
product of the counts: the branching a game-tree tool meets on that path. Outcomes with the
same label and the same effect (interchangeable copies of a component) are one outcome, so
the product is far below n! for a shuffle of many equal pieces. A measure, not a test.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402


def setup_branching(game: rulelang.Game, seed: int) -> list[tuple[str, int]]:
    """(what is drawn, number of outcomes) at each chance node before the first decision."""
    chooser = random.Random(seed)
    state = game.new_initial_state(seed=seed, explicit_chance=True)
    steps: list[tuple[str, int]] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        steps.append((state.prompt() or "chance", len(outcomes)))
        actions, weights = zip(*outcomes, strict=True)
        state.apply_action(chooser.choices(actions, weights)[0])
    return steps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("ruleset", nargs="?", type=Path, default=ROOT / "games" / "jolly_roger.rules")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = rulelang.load(args.ruleset, players=args.players)
    steps = setup_branching(game, args.seed)
    for number, (asked, count) in enumerate(steps, 1):
        print(f"{number:>3} {count:>4}  {asked}")
    product = math.prod(count for _, count in steps)
    print(f"{len(steps)} chance nodes before the first decision; product of their outcomes: {product}"
          f" (about 10^{math.log10(product):.1f})" if product else "no chance node")


if __name__ == "__main__":
    main()
