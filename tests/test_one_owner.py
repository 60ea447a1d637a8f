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
from rulelang.diagnostics import Diagnostic
from rulelang.errors import InternalError

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
