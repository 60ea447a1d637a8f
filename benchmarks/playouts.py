"""Random playouts per second for every ruleset in games/, through the public host API.

    python benchmarks/playouts.py [--seconds 3] [--players N] [--events] [--ids] [--playouts N] [RULESET...]

Each playout plays the way a host does: ``legal_actions(p)``, then ``apply_action(action,
player=p)`` with one of them (``--ids``: through ``legal_action_ids``, which builds no
Action objects).

On tic-tac-toe it also measures OpenSpiel's pure-Python tic-tac-toe in the same run, when
open_spiel is installed (pip install open-spiel), and prints the ratio. Time is the CPU time
of this process (``time.process_time``), steadier than the clock on a shared machine.
``--playouts N`` plays exactly N playouts (seeds 0..N-1) instead, for a profile or a count
of instructions (docs/performance.md), which no other job on the machine changes. A
benchmark, not a test.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import rulelang  # noqa: E402
from rulelang.check.settings import read_settings  # noqa: E402
from rulelang.loader import read_ruleset  # noqa: E402


def playouts_per_second(game, seconds: float, seed: int = 0, events: bool = False,
                        ids: bool = False, count: int | None = None) -> tuple[float, float]:
    """(playouts per second, mean decisions per playout) of uniformly random play, the way a
    host plays: ``legal_actions(p)``, then ``apply_action(action, player=p)`` with one of the
    returned actions (``ids``: the ids-only path, ``legal_action_ids``); recording events
    when ``events``; for ``seconds``, or ``count`` playouts when given."""
    chooser = random.Random(seed)
    start, games, decisions = time.process_time(), 0, 0
    while games < count if count is not None else time.process_time() - start < seconds:
        state = game.new_initial_state(seed=games, events=events)
        while not state.is_terminal():
            for player in state.current_players():
                if state.is_terminal() or player not in state.current_players():
                    continue
                if ids:
                    state.apply_action(chooser.choice(state.legal_action_ids(player)), player=player)
                else:
                    state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
        state.returns()
        games += 1
        decisions += state.decisions
    elapsed = time.process_time() - start
    return games / elapsed, decisions / max(games, 1)


def default_players(path: Path) -> int:
    declarations, _, _ = read_ruleset(path)
    low, high = read_settings(declarations, str(path))[0].players
    return max(low, min(4, high))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", type=Path)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int)
    parser.add_argument("--events", action="store_true", help="record events (State.events) in every playout")
    parser.add_argument("--ids", action="store_true", help="play through legal_action_ids instead of legal_actions")
    parser.add_argument("--playouts", type=int, help="play exactly this many playouts (no comparison with OpenSpiel)")
    args = parser.parse_args(argv)
    paths = args.rulesets or sorted((ROOT / "games").glob("*.rules"))
    print(f"{'ruleset':<28} {'players':>7} {'playouts/s':>11} {'decisions/game':>15}")
    for path in paths:
        players = args.players or default_players(path)
        game = rulelang.load(path, players=players)
        rate, length = playouts_per_second(game, args.seconds, events=args.events, ids=args.ids,
                                           count=args.playouts)
        print(f"{path.name:<28} {players:>7} {rate:>11.1f} {length:>15.1f}")
        if path.name == "tic_tac_toe.rules" and args.playouts is None:
            compare_with_openspiel(game, rate, args)


def compare_with_openspiel(game, first_rate: float, args) -> None:
    """OpenSpiel's pure-Python tic-tac-toe and rulelang in turn, ``ROUNDS`` times each, so
    that a change of the machine's load hits both: the median of the ratios of each round."""
    import openspiel_reference
    if not openspiel_reference.available():
        print("  (open_spiel is not installed: no comparison with its pure-Python tic-tac-toe)")
        return
    ratios, ours, theirs = [], first_rate, 0.0
    for _ in range(ROUNDS):
        theirs = openspiel_reference.python_tictactoe_playouts_per_second(args.seconds) or 0.0
        ratios.append(ours / theirs)
        ours, _ = playouts_per_second(game, args.seconds, events=args.events, ids=args.ids)
    ratios.sort()
    print(f"  OpenSpiel python_tic_tac_toe: {theirs:.1f} playouts/s; rulelang / OpenSpiel = "
          f"{ratios[len(ratios) // 2]:.2f} (median of {ROUNDS} rounds: {', '.join(f'{r:.2f}' for r in ratios)})")


ROUNDS = 3


if __name__ == "__main__":
    main()
