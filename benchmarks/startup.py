"""Whole-process start-up figures of the command line: CPU seconds (user + system, the median
of a few runs) of ``import rulelang``, ``rulelang --help``, ``rulelang lint`` of one ruleset
and of ``games/``, and ``rulelang test games/``, optionally against another revision.

    python benchmarks/startup.py [--against REV] [--rounds N] [--instructions] [--cold] [--only NAME,...]

Each command runs as a user runs it: a fresh ``python -m rulelang ...`` process with the tree
on ``PYTHONPATH``, after one warm-up run that leaves Python's bytecode caches and the parser's
grammar cache in place (so ``PYTHONDONTWRITEBYTECODE`` is dropped from the children's
environment). CPU time, unlike the wall clock, hardly moves with other processes on the
machine; ``--instructions`` counts instructions instead (one run each under ``valgrind
--tool=cachegrind --cache-sim=no``, which the load does not change at all; slow: minutes).

``--cold`` measures a first read of the files: the runs use a cache folder of their own
(``XDG_CACHE_HOME``), whose kept ASTs (``ast-*``, rulelang/syntax/parse_cache.py) are removed
before each measured run; the grammar's and the schemas' caches stay, as after any first use.

``--against REV`` extracts REV (``git archive``) into a temporary folder and measures the same
commands there in the same run. A benchmark, not a test.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from contextlib import nullcontext
from pathlib import Path

from revisions import checked_out

ROOT = Path(__file__).resolve().parent.parent

COMMANDS: dict[str, list[str]] = {
    "import": ["-c", "import rulelang"],
    "help": ["-m", "rulelang", "--help"],
    "lint-ttt": ["-m", "rulelang", "lint", "games/tic_tac_toe.rules"],
    "lint-games": ["-m", "rulelang", "lint", "games/"],
    "test-games": ["-m", "rulelang", "test", "games/"],
}
GOALS = {"help": 0.15, "lint-ttt": 0.3, "lint-games": 0.8, "test-games": 8.0}   # issue 24, seconds


COLD: Path | None = None   # with --cold: the cache folder of the runs, without kept ASTs


def child_env(tree: Path) -> dict[str, str]:
    """The environment of a measured run: the tree first on the path, bytecode caches kept."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    env["PYTHONHASHSEED"] = "0"
    if COLD is not None:
        env["XDG_CACHE_HOME"] = str(COLD)
        for kept in COLD.glob("rulelang/ast-*"):   # each run reads its files for the first time
            kept.unlink()
    return env


def cpu_seconds(tree: Path, args: list[str]) -> float:
    """User + system CPU seconds of one run of ``python ARGS`` in ``tree``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *args], cwd=tree, env=child_env(tree), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(tree: Path, args: list[str]) -> int:
    """Instructions of one run of ``python ARGS`` in ``tree``, counted by valgrind."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "cachegrind.out"
        done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}",
                               sys.executable, *args], cwd=tree, env=child_env(tree), capture_output=True,
                              text=True, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no count:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def measure(tree: Path, name: str, rounds: int, count_instructions: bool) -> float:
    """The median CPU seconds (or the instructions) of command ``name`` in ``tree``."""
    args = COMMANDS[name]
    cpu_seconds(tree, args)   # warm-up: bytecode and grammar caches written
    if count_instructions:
        return float(instructions(tree, args))
    return statistics.median(cpu_seconds(tree, args) for _ in range(rounds))



def shown(value: float, count_instructions: bool) -> str:
    """Seconds, or instructions in millions."""
    return f"{value / 1e6:,.0f}M" if count_instructions else f"{value:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", metavar="REV", help="also measure a git revision, in a temporary worktree")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each command (the median is shown)")
    parser.add_argument("--instructions", action="store_true", help="count instructions with valgrind instead")
    parser.add_argument("--cold", action="store_true", help="no ASTs kept from an earlier run (a first lint)")
    parser.add_argument("--only", default=",".join(COMMANDS), help=f"commands, of {', '.join(COMMANDS)}")
    options = parser.parse_args()
    names = [n for n in options.only.split(",") if n]
    unknown = [n for n in names if n not in COMMANDS]
    if unknown:
        parser.error(f"unknown command {unknown[0]!r}")
    global COLD
    cold = tempfile.TemporaryDirectory() if options.cold else nullcontext(None)
    with checked_out(options.against) if options.against else nullcontext() as other, cold as folder:
        COLD = Path(folder) if folder else None
        unit = "instructions" if options.instructions else "CPU seconds, median"
        print(f"{'command':<12} {'this tree':>12}" + (f" {options.against:>12} {'ratio':>7}" if other else "")
              + f"   ({unit}; goal)")
        for name in names:
            rounds = max(1, options.rounds // 2) if name == "test-games" else options.rounds
            here = measure(ROOT, name, rounds, options.instructions)
            line = f"{name:<12} {shown(here, options.instructions):>12}"
            if other is not None:
                there = measure(other, name, rounds, options.instructions)
                line += f" {shown(there, options.instructions):>12} {there / here if here else 0:>6.2f}x"
            goal = GOALS.get(name)
            print(line + (f"   (< {goal} s)" if goal and not options.instructions else ""), flush=True)



if __name__ == "__main__":
    main()
