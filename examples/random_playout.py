"""Play one random game of a ruleset through the host API, printing each action and the result.

    PYTHONPATH=. python3 examples/random_playout.py [RULES] [--players N] [--seed S]

RULES defaults to games/tic_tac_toe.rules. The same seed plays the same game: the seed
drives both the state's own chance (dice, shuffles) and this script's random choices.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from anywhere without installing

import rulelang  # noqa: E402


def play(path: str, players: int | None, seed: int) -> int:
    try:
        game = rulelang.load(Path(path), players=players)
    except rulelang.RulesetError as error:
        for diagnostic in error.diagnostics:           # path:line:col: CODE message
            print(diagnostic, file=sys.stderr)
            if diagnostic.hint:
                print(f"  hint: {diagnostic.hint}", file=sys.stderr)
        return 1
    print(f"{game.title}, {game.num_players} players, seed {seed}")
    chooser = random.Random(seed)
    try:
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            # One player usually; several during a simultaneous choice: each of them acts,
            # in any order, and drops out of current_players() once done.
            player = state.current_players()[0]
            action = chooser.choice(state.legal_actions(player))
            print(f"player {player + 1} (seat {player}) chooses {action} (action id {action.id})")
            state.apply_action(action, player=player)
    except rulelang.RulesRuntimeError as error:
        print(f"the rules failed: {error.diagnostic}", file=sys.stderr)
        return 1
    print(f"game over after {len(state.history())} actions")
    print(f"returns: {state.returns()}")
    winners = state.winners()
    print("winners: " + (", ".join(f"player {w + 1}" for w in winners)))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="?", default=str(ROOT / "games" / "tic_tac_toe.rules"),
                        help="the .rules file to play (default: tic-tac-toe)")
    parser.add_argument("--players", type=int, default=None, help="player count (default: the lowest allowed)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    args = parser.parse_args(argv)
    return play(args.rules, args.players, args.seed)


if __name__ == "__main__":
    sys.exit(main())
