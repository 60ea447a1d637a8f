"""One owner per code: the front end (rulelang/check/) reports every static diagnostic.

The compiler and the catalog check again, as internal assertions, what the front end has
already checked: if one of them ever fires it is a bug of rulelang (InternalError, E900),
never a diagnostic of the user's. Loading reports the front end's static diagnostics
(E1xx, E2xx, E3xx, E5xx) and, beyond them, only what building the data finds (E4xx).
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.check import linter
from rulelang.check.settings import read_settings
from rulelang.diagnostics import Diagnostic
from rulelang.errors import InternalError
from rulelang.interpreter.game import Game
from rulelang.loader import read_ruleset

CASES = Path(__file__).with_name("lint")
FILES = sorted(CASES.glob("*.rules"))
STATIC = ("E1", "E2", "E3", "E5")


def load_diagnostics(path: Path) -> list[Diagnostic]:
    """What loading ``path`` reports: nothing if it loads."""
    try:
        rulelang.load(path)
    except InternalError as error:  # a bug: never what loading a ruleset may end with
        pytest.fail(f"loading {path.name} raised an internal error: {error}")
    except rulelang.RulesetError as error:
        return error.diagnostics
    return []


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_static_diagnostic_of_loading_is_the_front_ends(path: Path) -> None:
    front_end = {(d.span, d.code) for d in linter.lint_file(path)}
    for d in load_diagnostics(path):
        if d.code.startswith(STATIC):
            assert (d.span, d.code) in front_end, f"{d} comes from the runtime, not from the front end"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_loading_reports_nothing_but_data_problems_beyond_the_front_end(path: Path) -> None:
    front_end = {(d.span, d.code) for d in linter.lint_file(path)}
    beyond = [d for d in load_diagnostics(path) if (d.span, d.code) not in front_end]
    assert all(d.code.startswith("E4") for d in beyond), "\n".join(map(str, beyond))


def test_a_problem_the_checker_let_through_is_an_internal_error() -> None:
    """Building a game from declarations that skipped the check: the compiler's copy of the
    name check is an assertion (E900), not a diagnostic of the rules."""
    declarations, base_dir, shown = read_ruleset('game "T" { players 2 }\nphase main { log nope\n  end game }\n')
    settings, _ = read_settings(declarations, shown)
    with pytest.raises(InternalError) as caught:
        Game(declarations, 2, base_dir, settings)
    (found,) = caught.value.diagnostics
    assert found.code == "E900" and "unknown name 'nope'" in found.message
    assert found.span is not None and (found.span.line, found.span.column) == (2, 18)


def test_a_board_file_gone_since_the_check_is_a_data_problem_not_a_bug(tmp_path: Path) -> None:
    """A game built again from its checked declarations (a pickle, a worker) whose board file
    has gone: the board's E401, not an internal error from a declaration that reads the
    board's names."""
    import pickle
    (tmp_path / "map.yaml").write_text("kind: graph\nspaces:\n"
                                       "  - {id: a, worth: 2, next: b}\n  - {id: b, worth: 3, next: a}\n")
    (tmp_path / "g.rules").write_text(
        'game "g" { players 2 }\nboard m = load_board("map.yaml")\n'
        "die d = [s.worth for s in spaces(m)]\n"
        "phase main {\n  let n = roll d\n  log n\n  end game\n}\n")
    data = pickle.dumps(rulelang.load(tmp_path / "g.rules"))
    (tmp_path / "map.yaml").unlink()
    with pytest.raises(rulelang.RulesetError) as caught:
        pickle.loads(data)
    assert [d.code for d in caught.value.diagnostics] == ["E401"]
