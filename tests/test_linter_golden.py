"""Golden tests for the linter, in the style of mypy's: each ``tests/lint/*.rules`` file
writes the diagnostics it expects inline, on the offending line, as ``# E: E101`` (errors),
``# W: W303`` (warnings) or ``# I: ...``. Linting the file must give exactly those
(line, code) pairs; a file with no such comment must lint clean.

The front end alone (the linter without the runtime's data check) must find all of them
but the data errors that only building the data shows.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulelang
from rulelang.check import linter
from rulelang.diagnostics import REGISTRY, errors_in
from rulelang.loader import lint_file

CASES = Path(__file__).with_name("lint")
EXPECTATION = re.compile(r"#\s*([EWI]):\s*([EWI]\d{3})")
FILES = sorted(CASES.glob("*.rules"))


def expected(path: Path) -> set[tuple[int, str]]:
    """The (line, code) pairs written inline in a golden file."""
    found = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for letter, code in EXPECTATION.findall(line):
            assert letter == code[0], f"{path.name}:{number}: '# {letter}:' does not match {code}"
            found.add((number, code))
    return found


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_golden_file(path):
    diagnostics = lint_file(path)
    actual = {(d.span.line, d.code) for d in diagnostics if Path(d.span.file) == path}
    assert actual == expected(path), "\n".join(str(d) for d in diagnostics)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_locations_lie_inside_the_file(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    for d in lint_file(path):
        if Path(d.span.file) == path:
            assert 1 <= d.span.line <= len(lines), str(d)
            assert 1 <= d.span.column <= len(lines[d.span.line - 1]) + 1, str(d)


# Codes that only building the data finds: the runtime's data check reports them.
DATA_ONLY = {"E402"}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_front_end_alone_finds_every_static_error(path):
    diagnostics = linter.lint_file(path)
    actual = {(d.span.line, d.code) for d in diagnostics if Path(d.span.file) == path}
    assert actual == {(line, code) for line, code in expected(path) if code not in DATA_ONLY}, \
        "\n".join(str(d) for d in diagnostics)


# Codes of the linter's own checks: loading lets the value fail where it is used.
LINT_ONLY = {"E206", "E208"}   # (E208 of a move: a deck in a zone of another type stops the load)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_load_and_lint_agree(path):
    """Loading refuses a file with the errors that linting finds (but the lint-only ones)."""
    found = {(d.span.line, d.code) for d in errors_in(lint_file(path)) if d.code not in LINT_ONLY}
    try:
        rulelang.load(path)
    except rulelang.RulesetError as error:
        refused = {(d.span.line, d.code) for d in error.diagnostics if Path(d.span.file) == path}
        assert refused == {(line, code) for line, code in found if line}, str(error)
    else:
        assert not found


def test_a_setting_value_is_e202_for_load_and_lint_alike(tmp_path):
    path = tmp_path / "dummies.rules"
    path.write_text('game "T" { players 2  dummies "two" }\nphase main { end game }\n', encoding="utf-8")
    (linted,) = lint_file(path)
    with pytest.raises(rulelang.RulesetError) as caught:
        rulelang.load(path)
    (loaded,) = caught.value.diagnostics
    assert linted.code == loaded.code == "E202"
    assert linted.message == loaded.message and linted.span == loaded.span


def test_every_expectation_names_a_registered_code():
    for path in FILES:
        for _, code in expected(path):
            assert code in REGISTRY, f"{path.name}: {code} is not in the registry"


# Codes only a running game, a host call (or an unreadable file) can produce have no golden file here.
RUNTIME_ONLY = {"E001", "E601", "E602", "E603", "E604", "E605", "E606", "E607", "E608", "E609", "E610", "E701", "E702",
                "E900"}
# A chain of 65 bases (tests/test_language.py builds one in a temporary folder).
MANY_FILES = {"E506"}


def test_golden_files_cover_the_static_codes():
    covered = {code for path in FILES for _, code in expected(path)}
    missing = set(REGISTRY) - RUNTIME_ONLY - MANY_FILES - covered
    assert not missing, f"no golden case for {sorted(missing)}"


def test_board_data_errors_point_into_the_data_file(tmp_path):
    (tmp_path / "map.yaml").write_text("kind: graph\nspaces:\n  - name: a\n    next: [b]\n")
    rules = tmp_path / "map.rules"
    rules.write_text('game "map" { players 2 }\nboard m = load_board("map.yaml")\nphase main { log size(spaces(m)) }\n')
    (found,) = lint_file(rules)
    assert found.code == "E401" and Path(found.span.file) == tmp_path / "map.yaml"
    assert (found.span.line, found.span.column) == (3, 5)
    assert found.hint.endswith(f"loaded at {rules}:2:11")
