"""What compiling the engine's Python with Cython gives, in instructions a decision (valgrind),
as benchmarks/instructions.py counts them: an experiment for issue 24, not a build step.

    python benchmarks/accelerated.py [--playouts A,B] [--runtime MODULE,...] [--ways W,...] RULESET...

Needs Cython and a C compiler (``pip install cython``) and valgrind; it says so and stops
where one is missing. Each ruleset is counted four ways (``--ways`` picks some):

- ``pure``: the tree as it is;
- ``generated``: the game's generated code (every unit of each ``Module``, as ``rulelang code``
  prints it) written as one module, compiled by Cython once, and taken in place of ``exec``
  through the experimental switch ``RULELANG_ACCELERATED`` (interpreter/compiler/accelerated.py);
- ``runtime``: a copy of the tree whose hottest runtime modules (``--runtime``, paths under
  interpreter/) are compiled by Cython as they are (pure-Python mode), beside their sources;
- ``both``: the two together.

It prints the build times and a table of instructions a playout and a decision, each way's
ratio to ``pure``. The figures and what they mean are in docs/performance.md.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from instructions import ROOT, _environment, _player, count, human, players_for

HOT_RUNTIME = ("state/state.py", "state/stamps.py", "state/decisions.py", "compiler/choices.py", "compiler/chance.py",
               "model/rng.py", "tables/effects.py", "tables/runtime.py", "tables/builtins.py")
"""The runtime modules that the generated code of the seed games calls most (cProfile's own
time by file, Jolly Roger and Jamaica)."""
WAYS = ("pure", "generated", "runtime", "both")
EVAL_LOOP = "_PyEval_EvalFrameDefault"
_COST = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(?:[^\s:]*:)?([^\s']+)")


def require_tools() -> None:
    """Stop, saying why, where Cython, a C compiler or valgrind is missing."""
    missing = [what for what, ok in (("Cython (pip install cython)", _has_cython()),
                                     ("a C compiler (cc)", shutil.which("cc") is not None),
                                     ("valgrind (apt-get install valgrind)", shutil.which("valgrind") is not None))
               if not ok]
    if missing:
        raise SystemExit("benchmarks/accelerated.py needs " + ", ".join(missing) + "; nothing was measured")


def _has_cython() -> bool:
    try:
        import Cython  # noqa: F401
    except ImportError:
        return False
    return True


def generated_sources(ruleset: Path, players: int) -> dict[str, str]:
    """The source of a module for each ``Module`` a load of ``ruleset`` makes, by the module's
    name (accelerated.module_name of its first unit), from a load by ``exec`` in this process."""
    from rulelang.interpreter.compiler import accelerated, module

    made: list[module.Module] = []
    plain_init = module.Module.__init__

    def recording_init(self: module.Module) -> None:
        plain_init(self)
        made.append(self)

    module.Module.__init__ = recording_init  # type: ignore[method-assign]
    try:
        import rulelang
        rulelang.load(str(ruleset), players=players)
    finally:
        module.Module.__init__ = plain_init  # type: ignore[method-assign]
    sources = {}
    for each in made:
        if each.units:
            first, source = next(iter(each.units.items()))
            sources[accelerated.module_name(first, source)] = accelerated.module_source(each.units)
    return sources


def cythonize(paths: list[Path]) -> float:
    """Compile ``paths`` by Cython into extension modules beside them; the seconds it took."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "Cython.Build.Cythonize", "-i", "-3", "-q", *map(str, paths)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"Cython failed on {[p.name for p in paths]}:\n{done.stderr[-3000:]}")
    return time.perf_counter() - started


def build_generated(ruleset: Path, players: int, folder: Path) -> float:
    """The generated code of ``ruleset`` built into ``folder``; the seconds the build took."""
    paths = []
    for name, source in generated_sources(ruleset, players).items():
        path = folder / f"{name}.py"
        path.write_text(source)
        paths.append(path)
    return cythonize(paths)


def _built_for(ruleset: Path, players: int, folder: Path) -> bool:
    """Whether every module of the generated code of ``ruleset`` is built in ``folder`` already."""
    return all(list(folder.glob(f"{name}.*.so")) for name in generated_sources(ruleset, players))


def build_runtime(tree: Path, modules: list[str]) -> float:
    """A copy of this tree in ``tree`` with ``modules`` (under interpreter/) compiled; seconds."""
    shutil.copytree(ROOT / "rulelang", tree / "rulelang", symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "interpreter", tree / "interpreter", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "games", tree / "games")
    seconds = sum(_compiled_or_left(tree / "interpreter" / name) for name in modules)  # one at a time
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "rulelang"), str(tree / "interpreter")],
                   check=False, capture_output=True)
    return seconds


def self_costs(tree: Path, ruleset: Path, players: int, playouts: int, scratch: Path) -> tuple[dict[str, int], int]:
    """Instructions of each C function itself (callgrind, exclusive) in one run of ``playouts``
    games, and the decisions made."""
    out = scratch / f"callgrind.{playouts}"
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                           *_player(ruleset, players, playouts)],
                          capture_output=True, text=True, env=_environment(tree, str(scratch)), cwd=tree, check=False)
    decisions = re.search(r"^decisions (\d+)$", done.stdout, re.M)
    if done.returncode != 0 or decisions is None:
        raise SystemExit(f"{ruleset.name}: the callgrind run failed\n{done.stderr[-2000:]}")
    text = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no", str(out)], capture_output=True,
                          text=True, check=True).stdout
    costs: dict[str, int] = {}
    for line in text.splitlines():  # "1,234 (0.5%)  file.c:function'2 [object]", levels of recursion as one
        found = _COST.match(line)
        if found and not line.endswith("PROGRAM TOTALS"):
            costs[found.group(2)] = costs.get(found.group(2), 0) + int(found.group(1).replace(",", ""))
    return costs, int(decisions.group(1))


def split(tree: Path, ruleset: Path, players: int, first: int, second: int) -> str:
    """Where a warm decision's instructions go, by callgrind (the difference of two runs): the
    share of CPython's evaluation loop itself, and the C functions that cost most besides."""
    with tempfile.TemporaryDirectory(prefix="rulelang-callgrind-") as scratch:
        subprocess.run(_player(ruleset, players, 0), capture_output=True, env=_environment(tree, scratch), cwd=tree,
                       check=False)
        low, low_decisions = self_costs(tree, ruleset, players, first, Path(scratch))
        high, high_decisions = self_costs(tree, ruleset, players, second, Path(scratch))
    decisions = max(high_decisions - low_decisions, 1)
    each = {name: (high.get(name, 0) - low.get(name, 0)) / decisions for name in high}
    total = sum(each.values())
    others = sorted(((v, n) for n, v in each.items() if n != EVAL_LOOP), reverse=True)[:8]
    return (f"{human(total)} a decision, {each.get(EVAL_LOOP, 0) / total:.0%} in {EVAL_LOOP}; then "
            + ", ".join(f"{n} {v / total:.1%}" for v, n in others))


def _compiled_or_left(path: Path) -> float:
    """Compile ``path``, or leave it as Python where Cython refuses it, and say so; seconds."""
    try:
        return cythonize([path])
    except SystemExit as refused:
        print(f"<!-- {path.name} left as Python: {str(refused).splitlines()[-1]} -->", flush=True)
        return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="+", type=Path)
    parser.add_argument("--playouts", default="2,12", help="A,B: the two counted runs' playouts (default 2,12)")
    parser.add_argument("--players", type=int, help="players (default: 4, or the nearest count allowed)")
    parser.add_argument("--runtime", default=",".join(HOT_RUNTIME), help="modules to compile, under interpreter/")
    parser.add_argument("--ways", default=",".join(WAYS), help=f"which of {', '.join(WAYS)} to count")
    parser.add_argument("--keep", type=Path, help="build in this folder and keep it; what is there is reused")
    parser.add_argument("--callgrind", action="store_true",
                        help="split each way's decision by C function (callgrind), not count it")
    args = parser.parse_args()
    require_tools()
    sys.path.insert(0, str(ROOT))  # the generated code is this tree's
    if os.environ.get("RULELANG_ACCELERATED"):
        raise SystemExit("unset RULELANG_ACCELERATED: this script sets it for the runs it counts")
    first, second = (int(n) for n in args.playouts.split(","))
    ways = args.ways.split(",")
    with tempfile.TemporaryDirectory(prefix="rulelang-accelerated-") as scratch:
        built, tree = (args.keep or Path(scratch)) / "generated", (args.keep or Path(scratch)) / "tree"
        built.mkdir(parents=True, exist_ok=True)
        if {"runtime", "both"} & set(ways) and not tree.exists():
            print(f"runtime modules compiled in {build_runtime(tree, args.runtime.split(',')):.1f} s", flush=True)
        print("| ruleset | way | a playout | a decision | fewer a decision than pure |\n|---|---|---|---|---|")
        for ruleset in (p.resolve() for p in args.rulesets):
            players = players_for(ruleset, args.players)
            if {"generated", "both"} & set(ways) and not _built_for(ruleset, players, built):
                print(f"<!-- {ruleset.stem}: generated code compiled in "
                      f"{build_generated(ruleset, players, built):.1f} s -->", flush=True)
            pure = None
            for way in ways:
                os.environ["RULELANG_ACCELERATED"] = str(built) if way in ("generated", "both") else ""
                where = tree if way in ("runtime", "both") else ROOT
                path = where / "games" / ruleset.name if where == tree else ruleset
                if args.callgrind:
                    print(f"- {ruleset.stem}, {way}: {split(where, path, players, first, second)}", flush=True)
                    continue
                found = count(where, path, players, first, second)
                pure = found if way == "pure" else pure
                ratio = f"{pure.decision / found.decision:.2f}x" if pure else ""
                print(f"| {ruleset.stem} | {way} | {human(found.playout)} | {human(found.decision)} | {ratio} |",
                      flush=True)


if __name__ == "__main__":
    main()
