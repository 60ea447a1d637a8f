"""Bytecodes a decision through the host API, by function and by line: where a decision's
work goes, to find what to make cheaper (not a figure to claim: claims are instructions,
benchmarks/instructions.py).

    python benchmarks/bytecodes.py [--players N] [--playouts A,B] [--lines K] RULESET

Plays B random games as benchmarks/instructions.py does (seeds 0..B-1, the same random
choices); from game A on, a ``sys.settrace`` function turns on opcode events in every frame
and counts them by function and by line. Prints bytecodes a decision in all, the functions
that run the most of them, and with ``--lines K`` the K lines that do, the generated code's
lines included (read from ``game.generated_code()``: each generated function's line 1 is its
``def``). The benchmark's own loop is counted where it calls Python code (``random``).
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from instructions import players_for  # noqa: E402  (as instructions.py plays: the same players)

import rulelang  # noqa: E402  (the tree's own rulelang, from its root)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", type=Path)
    parser.add_argument("--players", type=int, help="players (default: 4, or the nearest count the ruleset allows)")
    parser.add_argument("--playouts", default="2,8", help="A,B: games 0..A-1 warm up, A..B-1 are counted")
    parser.add_argument("--lines", type=int, default=0, help="also print the K lines that run the most bytecodes")
    parser.add_argument("--functions", type=int, default=30, help="how many functions to print")
    args = parser.parse_args()
    first, last = (int(n) for n in args.playouts.split(","))
    game = rulelang.load(str(args.ruleset), players=players_for(args.ruleset, args.players))
    counts, decisions = traced_playouts(game, first, last)
    report(counts, decisions, generated_lines(game.generated_code()), args.functions, args.lines)


def traced_playouts(game: Any, first: int, last: int) -> tuple[Counter[tuple[str, str, int]], int]:
    """Bytecodes by (file, function, line) over games ``first..last-1``, and their decisions."""
    counts: Counter[tuple[str, str, int]] = Counter()

    def opcode(frame: FrameType, event: str, arg: object) -> Any:
        if event == "opcode":
            code = frame.f_code
            counts[(code.co_filename, code.co_name, frame.f_lineno or 0)] += 1
        return opcode

    def start(frame: FrameType, event: str, arg: object) -> Any:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        return opcode

    chooser, decisions = random.Random(0), 0
    for seed in range(last):
        if seed == first:
            sys.settrace(start)
            decisions = 0
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            for player in state.current_players():
                if state.is_terminal() or player not in state.current_players():
                    continue
                state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
                decisions += 1
        state.returns()
    sys.settrace(None)
    return counts, decisions


def generated_lines(listing: str) -> dict[str, list[str]]:
    """Each generated function's lines, by name (``<rules:NAME>`` is its code's file)."""
    functions: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in listing.splitlines():
        match = re.match(r"def (\w+)\(", line)
        if match:
            current = functions.setdefault(match.group(1), [])
        if current is not None:
            current.append(line)
    return functions


def line_text(path: str, line: int, generated: dict[str, list[str]]) -> str:
    """The text of ``line`` of ``path`` (a file, or a generated function)."""
    match = re.fullmatch(r"<rules:(\w+)>", path)
    if match:
        lines = generated.get(match.group(1), [])
        return lines[line - 1].strip() if 0 < line <= len(lines) else "?"
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()[line - 1].strip()
    except (OSError, IndexError):
        return "?"


def report(counts: Counter[tuple[str, str, int]], decisions: int, generated: dict[str, list[str]],
           functions: int, lines: int) -> None:
    """Print bytecodes a decision: in all, by function, by line."""
    if decisions == 0:
        raise SystemExit("no decision was counted: give more playouts (--playouts A,B with B > A)")
    by_function: Counter[tuple[str, str]] = Counter()
    for (path, name, _), count in counts.items():
        by_function[(Path(path).name if not path.startswith("<") else path, name)] += count
    print(f"{decisions} decisions, {sum(counts.values()) / decisions:.1f} bytecodes a decision")
    for (path, name), count in by_function.most_common(functions):
        print(f"{count / decisions:8.1f}  {name:32s} {path}")
    if lines:
        print()
        for (path, _, line), count in counts.most_common(lines):
            where = f"{Path(path).name if not path.startswith('<') else path}:{line}"
            print(f"{count / decisions:8.1f}  {where:28s} {line_text(path, line, generated)[:100]}")


if __name__ == "__main__":
    main()
