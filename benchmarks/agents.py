"""How strong and how fast the agents of interpreter/agents/ are, on two goals of issue 13.

    python benchmarks/agents.py [--games 200] [--ttt-games 100] [--replies 0] [--spec mcts:200 ...]
                                [--jobs 1] [--seed 0] [--minutes M]

- Jolly Roger, 3 players: one ``--spec`` agent (IS-MCTS with 200 iterations per decision by
  default) against two random agents. Its seat turns with the game number (game i: seat
  i % 3), so no seat's advantage helps it. Prints its share of the games won (a shared win
  counts for each winner), the share of one random seat in the same games, and the share a
  seat wins when all three are random (about 1/3). The goal: more than twice a random
  seat's share.
- Tic-tac-toe: ``--spec`` against greedy, ``--ttt-games`` games with each seat order. The
  goal: it never loses (every game won or drawn).
- Tic-tac-toe, first replies (``--replies N``): for each of the 9 openings, ``N`` searches
  (agent seeds 0 .. N-1) choose the second player's reply; prints how many replies lose
  against perfect play (by a full minimax of the game through the host API). A sharper
  measure than games against greedy, which punishes a losing reply only when it stumbles
  on the win.

``--spec`` may be given several times: each spec plays both. A spec takes every option of
``rulelang simulate --agents`` (``--spec mcts:200:rave=1000``, ``--spec mcts:200:decisive=1``).
``--minutes M`` stops the Jolly Roger games of a spec after M minutes and reports the games
played by then.

Each line-up's games per second are wall-clock time over the games (``--jobs`` processes
play games in parallel; the results do not depend on it: game i's seeds come from
``--seed`` and i). A benchmark, not a test: it takes minutes.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.interpreter.agents import AgentSpec, derive_seed, parse_agents  # noqa: E402

JOLLY_ROGER = ROOT / "games" / "jolly_roger.rules"
TIC_TAC_TOE = ROOT / "games" / "tic_tac_toe.rules"


@dataclass(frozen=True)
class Match:
    """One game to play: the ruleset, one spec per seat, and the seed of the game."""

    path: Path
    specs: tuple[AgentSpec, ...]
    seed: int


_GAMES: dict[Path, rulelang.Game] = {}


def play(match: Match) -> list[int]:
    """The winners of one game between the match's agents (seat k's agent seeded from the
    game's seed and k)."""
    game = _GAMES.get(match.path)
    if game is None:
        game = _GAMES[match.path] = rulelang.load(match.path, players=len(match.specs))
    agents = [spec.build(game, derive_seed(match.seed, seat)) for seat, spec in enumerate(match.specs)]
    state = game.new_initial_state(seed=match.seed)
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(agents[player].choose(state, player), player=player)
    return state.winners()


def play_all(matches: list[Match], jobs: int, progress: Callable[[list[list[int]]], str] | None = None,
             minutes: float | None = None) -> tuple[list[list[int]], float]:
    """The winners of the matches, in order, and the games per second; only the first ones
    played within ``minutes`` if given. ``progress`` (the results so far -> a line) is
    printed to stderr every 10 games."""
    started = time.perf_counter()
    deadline = math.inf if minutes is None else started + 60 * minutes
    results: list[list[int]] = []
    with ProcessPoolExecutor(jobs) as pool:
        for winners in (pool.map(play, matches, chunksize=1) if jobs > 1 else map(play, matches)):
            results.append(winners)
            if progress is not None and len(results) % 10 == 0:
                print(f"  {len(results)}/{len(matches)} games, {time.perf_counter() - started:.0f} s: "
                      f"{progress(results)}", file=sys.stderr, flush=True)
            if time.perf_counter() > deadline:
                pool.shutdown(wait=False, cancel_futures=True)
                break
    return results, len(results) / (time.perf_counter() - started)


def share(results: list[list[int]], seat_of: list[int]) -> float:
    """The share of the games that the seat ``seat_of[i]`` won (or shared) in game i."""
    return sum(seat in winners for winners, seat in zip(results, seat_of, strict=True)) / len(results)


def jolly_roger(spec: AgentSpec, games: int, seed: int, jobs: int, minutes: float | None) -> None:
    random_spec = AgentSpec("random")
    seats = [i % 3 for i in range(games)]
    lineups = [tuple(spec if k == seat else random_spec for k in range(3)) for seat in seats]
    matches = [Match(JOLLY_ROGER, lineup, derive_seed(seed, i)) for i, lineup in enumerate(lineups)]

    def shares(results: list[list[int]]) -> tuple[float, float]:
        """(the searcher's share, a random seat's share) of the games ``results`` hold."""
        played = seats[:len(results)]
        others = [(s + 1) % 3 for s in played], [(s + 2) % 3 for s in played]
        return share(results, played), (share(results, others[0]) + share(results, others[1])) / 2

    def so_far(results: list[list[int]]) -> str:
        mine, theirs = shares(results)
        return f"{spec} wins {mine:.1%}, a random seat {theirs:.1%}"

    results, rate = play_all(matches, jobs, so_far, minutes)
    searcher, randoms = shares(results)
    baseline, base_rate = play_all([Match(JOLLY_ROGER, (random_spec,) * 3, m.seed) for m in matches], jobs)
    all_random = sum(share(baseline, [k] * games) for k in range(3)) / 3
    goal = "met" if searcher > 2 * randoms else "NOT met"
    print(f"Jolly Roger, 3 players, {len(results)} games, {spec} against two random agents:")
    ratio = f"x{searcher / randoms:.2f}" if randoms else "no random win"
    print(f"  {spec} wins {searcher:.1%}; a random seat {randoms:.1%} ({ratio}; goal > x2: {goal}); "
          f"{rate:.3f} games/s")
    print(f"  three random agents ({games} games): a seat wins {all_random:.1%}; {base_rate:.1f} games/s")


def tic_tac_toe(spec: AgentSpec, games: int, seed: int, jobs: int) -> None:
    greedy = AgentSpec("greedy")
    print(f"Tic-tac-toe, {spec} against greedy, {games} games with each seat order:")
    for seat in (0, 1):
        lineup = (spec, greedy) if seat == 0 else (greedy, spec)
        matches = [Match(TIC_TAC_TOE, lineup, derive_seed(seed, seat, i)) for i in range(games)]
        results, rate = play_all(matches, jobs)
        won = sum(w == [seat] for w in results)
        drawn = sum(len(w) == 2 for w in results)
        lost = games - won - drawn
        print(f"  {spec} as player {seat + 1}: {won} won, {drawn} drawn, {lost} lost; {rate:.1f} games/s")


def perfect_value(state: rulelang.State, seat: int, memo: dict[object, float]) -> float:
    """``seat``'s share of the win in ``state`` when both sides play perfectly (two players,
    no chance): 1 a win, 1/2 a draw, 0 a loss."""
    if state.is_terminal():
        winners = state.winners()
        return 1.0 / len(winners) if seat in winners else 0.0
    key = frozenset(state.history())
    if key not in memo:
        actor = state.current_players()[0]
        values = []
        for action_id in state.legal_action_ids(actor):
            after = state.clone()
            after.apply_action(action_id, player=actor)
            values.append(perfect_value(after, seat, memo))
        memo[key] = max(values) if actor == seat else min(values)
    return memo[key]


def first_replies(spec: AgentSpec, searches: int) -> None:
    """How often ``spec``, second at tic-tac-toe, answers an opening with a losing reply."""
    game = rulelang.load(TIC_TAC_TOE)
    memo: dict[object, float] = {}
    start = game.new_initial_state(seed=0)
    losing = 0
    for opening in start.legal_actions(0):
        state = start.clone()
        state.apply_action(opening.id, player=0)
        holding = perfect_value(state, 1, memo)
        lost = 0
        for seed in range(searches):
            reply = spec.build(game, seed).choose(state.clone(), 1)
            after = state.clone()
            after.apply_action(reply.id, player=1)
            lost += perfect_value(after, 1, memo) < holding
        losing += lost
        print(f"  after {opening}: {lost} of {searches} replies lose")
    print(f"Tic-tac-toe, {spec}'s reply to each opening: {losing} of {9 * searches} lose against perfect play")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="Jolly Roger games (default 200)")
    parser.add_argument("--ttt-games", type=int, default=100, help="tic-tac-toe games per seat order")
    parser.add_argument("--replies", type=int, default=0,
                        help="searches per opening of tic-tac-toe for the reply measure (0: none)")
    parser.add_argument("--spec", action="append", help="an agent to measure (default mcts:200); repeatable")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--minutes", type=float, help="stop each spec's Jolly Roger games after this long")
    args = parser.parse_args(argv)
    for text in args.spec or ["mcts:200"]:
        [spec] = parse_agents(text, 1)
        if args.replies:
            first_replies(spec, args.replies)
        if args.ttt_games:
            tic_tac_toe(spec, args.ttt_games, args.seed, args.jobs)
        if args.games:
            jolly_roger(spec, args.games, args.seed, args.jobs, args.minutes)


if __name__ == "__main__":
    main()
