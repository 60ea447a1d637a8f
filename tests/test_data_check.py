"""The front end's data check (rulelang/check/data.py) gives what the runtime's catalog
gives for every ruleset whose data is written out, and leaves to the catalog (None) every
ruleset with a declaration that needs evaluating; a lint that needs no catalog imports no
runtime."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulelang.check.data import data_diagnostics as written
from rulelang.check.settings import read_settings
from rulelang.errors import RulesetError
from rulelang.interpreter.compiler.driver import data_diagnostics as by_the_catalog
from rulelang.loader import read_ruleset

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted([*(ROOT / "games").glob("*.rules"), *(ROOT / "tests" / "lint").glob("*.rules")])

HEADER = 'game "data" { players 2 }\nphase main { end game }\n'
TEXTS = {
    "grid": "board g = square_grid(3, 3)",
    "diagonal grid": "board g = square_grid(4, 2, diagonal: true)",
    "empty grid": "board g = square_grid(0, 3)",
    "grid of a bool": "board g = square_grid(true, 3)",
    "diagonal not a bool": "board g = square_grid(3, 3, diagonal: 1)",
    "two boards, the second wrong": "board g = square_grid(3, 3)\nboard h = square_grid(2, 0)",
    "a board file": 'board g = load_board("track.yaml")',
    "a wrong board file": 'board g = load_board("wrong.yaml")',
    "a board file and a wrong grid": 'board g = load_board("track.yaml")\nboard h = square_grid(0, 1)',
    "supply": "supply gold total 50",
    "supply of a string": 'supply gold total "fifty"',
    "supply of a bool": "supply gold total true",
    "supply of none": "supply gold total none",
    "die": "die d = [1, 2, 3]",
    "die without faces": "die d = []",
    "die of an enum": "enum face { star, moon }\ndie d = [1, star, moon]",
    "wrong grid and empty die": "board g = square_grid(0, 0)\ndie d = []",
    "empty die and bad supply": 'die d = []\nsupply s total "x"',
    "all three": "enum e { a }\nboard g = square_grid(3, 3)\nsupply s total 2\ndie d = [a]",
}
EVALUATED = {
    "negative supply": "supply gold total -3",
    "computed supply": "supply gold total 10 * 5",
    "die of a variable": "var x: int = 3\ndie d = [1, x]",
    "die of a range": "die d = 1..6",
    "grid sized by a sum": "board g = square_grid(1 + 2, 3)",
    "a deck": "component c { n: int }\nzone z: c\ndeck cs: c in z = [c(n: 1)]",
}
BOARD_FILES = {"track.yaml": "kind: graph\nspaces:\n  - id: a\n    next: b\n  - id: b\n",
               "wrong.yaml": "kind: graph\nspaces:\n  - id: a\n    next: nowhere\n"}


def _read(text: str, folder: Path) -> tuple[list, Path]:
    """The declarations of ``text`` written as a ruleset file in ``folder``, beside its board files."""
    for name, data in BOARD_FILES.items():
        (folder / name).write_text(data)
    file = folder / "data.rules"
    file.write_text(HEADER + text + "\n")
    declarations, base_dir, _ = read_ruleset(file)
    return declarations, base_dir


def _both(declarations: list, base_dir: Path) -> tuple[object, object]:
    settings, _ = read_settings(declarations, "<text>")
    return written(declarations, base_dir), by_the_catalog(declarations, settings, base_dir)


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_front_end_agrees_with_the_catalog_on_every_file(path: Path) -> None:
    try:
        declarations, base_dir, _ = read_ruleset(path)
    except RulesetError:
        pytest.skip("does not parse")
    try:
        mine, theirs = _both(declarations, base_dir)
    except Exception:   # a ruleset the checker refuses may not build: the data check never sees it
        return
    assert mine is None or mine == theirs


@pytest.mark.parametrize("name", TEXTS)
def test_the_front_end_agrees_with_the_catalog_on_written_data(name: str, tmp_path: Path) -> None:
    mine, theirs = _both(*_read(TEXTS[name], tmp_path))
    assert mine is not None
    assert mine == theirs


@pytest.mark.parametrize("name", EVALUATED)
def test_data_that_needs_evaluating_is_the_catalogs(name: str, tmp_path: Path) -> None:
    declarations, base_dir = _read(EVALUATED[name], tmp_path)
    assert written(declarations, base_dir) is None


def test_the_seed_games_without_decks_are_checked_by_the_front_end() -> None:
    for game in ("tic_tac_toe",):
        declarations, base_dir, _ = read_ruleset(ROOT / "games" / f"{game}.rules")
        assert written(declarations, base_dir) == []


def test_linting_written_data_imports_no_runtime() -> None:
    code = ("import sys\nfrom pathlib import Path\nfrom rulelang.loader import lint_file, lint_text\n"
            "assert lint_file(Path('games/tic_tac_toe.rules')) == []\n"
            "assert [d.code for d in lint_text('game \"g\" { players 2 }\\nsupply s total \"x\"\\n"
            "phase main { log bank(s) }\\n')] == ['E205']\n"
            "print(sorted(m for m in sys.modules if m.startswith('rulelang.interpreter')))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
