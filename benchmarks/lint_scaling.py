"""Lint time against file size: linear growth means the time per line stays flat.

    python benchmarks/lint_scaling.py [--sizes 1500 3000 6000 12000]

Each file is a chain of procedures, each calling the next (the shape that made the call-graph
checks quadratic before issue 9), plus one with as many independent procedures. A benchmark,
not a test: it prints figures.
"""
from __future__ import annotations

import argparse
import sys
import time
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


def seconds_to_lint(text: str) -> float:
    started = time.perf_counter()
    lint_text(text, "bench.rules")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1500, 3000, 6000, 12000])
    args = parser.parse_args()
    print(f"{'shape':<12}{'procedures':>11}{'seconds':>10}{'µs/procedure':>14}")
    for shape in (chain, independent):
        for size in args.sizes:
            elapsed = seconds_to_lint(shape(size))
            print(f"{shape.__name__:<12}{size:>11}{elapsed:>10.2f}{elapsed / size * 1e6:>14.0f}")


if __name__ == "__main__":
    main()
