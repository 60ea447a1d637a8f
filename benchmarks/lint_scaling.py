"""Lint time against file size: linear growth means the time per item stays flat.

    python benchmarks/lint_scaling.py [--scale 1]

Four shapes, each at four sizes doubling from the first: a chain of procedures, each calling
the next (the shape that made the call-graph checks quadratic before issue 9); as many
independent procedures; a file with one unknown name per line (as many E101 diagnostics as
lines); one line holding a list of numbers (80,000 numbers at the largest size, 250 KB).
Each text is new (no AST kept from an earlier run) and timed in CPU seconds, which the
machine's load moves less than the clock. A benchmark, not a test: it prints figures.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulelang.check.linter import lint_text


def chain(count: int) -> str:
    lines = ['game "chain" { players 1 }']
    lines += [f"procedure p{i}() {{ call p{i + 1}() }}" for i in range(count)]
    lines += [f"procedure p{count}() {{ end game }}", "phase main { call p0() }"]
    return "\n".join(lines) + "\n"


def independent(count: int) -> str:
    lines = ['game "flat" { players 1 }', "var n: int = 0"]
    lines += [f"procedure p{i}() {{ n += {i} }}" for i in range(count)]
    lines += ["phase main { " + " ".join(f"call p{i}()" for i in range(0, count, 100)) + " end game }"]
    return "\n".join(lines) + "\n"


def unknown_names(count: int) -> str:
    lines = ['game "names" { players 1 }', "phase main {", *(f"  log u{i}" for i in range(count)), "}"]
    return "\n".join(lines) + "\n"


def long_line(count: int) -> str:
    numbers = ", ".join(str(i % 1000) for i in range(count))
    return f'game "line" {{ players 1 }}\nvar l: list[int] = [{numbers}]\nphase main {{ log size(l) }}\n'


# (shape, what its size counts, the first size)
SHAPES: list[tuple[Callable[[int], str], str, int]] = [
    (chain, "procedures", 1500), (independent, "procedures", 1500),
    (unknown_names, "diagnostics", 1125), (long_line, "numbers", 10_000),
]


def seconds_to_lint(text: str, expected: int | None = None) -> float:
    """CPU seconds to lint ``text`` from scratch (its path names no file: no AST kept)."""
    started = time.process_time()
    found = lint_text(text, "<bench>")
    elapsed = time.process_time() - started
    if expected is not None and len(found) != expected:
        raise SystemExit(f"expected {expected} diagnostics, found {len(found)}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="Multiply every size by this.")
    args = parser.parse_args()
    print(f"{'shape':<15}{'size':>8} {'of':<12}{'CPU s':>7}{'µs each':>9}")
    for shape, unit, first in SHAPES:
        for size in (round(first * args.scale * 2**k) for k in range(4)):
            elapsed = seconds_to_lint(shape(size), size if shape is unknown_names else None)
            print(f"{shape.__name__:<15}{size:>8} {unit:<12}{elapsed:>7.2f}{elapsed / size * 1e6:>9.1f}")


if __name__ == "__main__":
    main()
