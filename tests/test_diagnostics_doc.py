"""docs/diagnostics.md and the registry (rulelang/diagnostics.py) agree: one entry per code,
with its name, severity and one-line summary, an example and a fix; and every example
that writes its expected diagnostics inline (``# E: E101``, as the golden files do) lints
to exactly those. ``rulelang explain CODE`` prints the entry."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.diagnostics import REGISTRY
from rulelang.loader import lint_file

DOCS = Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md"
TEXT = DOCS.read_text(encoding="utf-8")
HEADING = re.compile(r"^### (\S+) (\S+)$", re.M)
EXPECTATION = re.compile(r"#\s*([EWI]):\s*([EWI]\d{3})")
EXAMPLE = re.compile(r"^```rules\n(.*?)^```$", re.S | re.M)

# Codes whose example cannot be a self-contained file to lint: running codes, an unreadable
# file, a 201-deep nesting, a variant that needs a base file beside it (E504) or 65 (E506).
# E7xx: from scenario tests, checked in tests/test_scenarios.py
NOT_LINTED = {"E001", "E005", "E504", "E506", "E601", "E602", "E603", "E604", "E605", "E606", "E607", "E608", "E609",
              "E610", "E701", "E702", "E900"}


def sections() -> dict[str, tuple[str, str]]:
    """code -> (name in the heading, text of the entry)."""
    found = {}
    heads = list(HEADING.finditer(TEXT))
    for head, after in zip(heads, [*heads[1:], None], strict=True):
        end = after.start() if after else len(TEXT)
        body = TEXT[head.end(): end].split("\n## ")[0]
        assert head.group(1) not in found, f"{head.group(1)} is documented twice"
        found[head.group(1)] = (head.group(2), body)
    return found


SECTIONS = sections()


def test_every_code_is_documented():
    assert set(REGISTRY) - set(SECTIONS) == set(), "codes without an entry"


def test_no_unknown_code_is_documented():
    assert set(SECTIONS) - set(REGISTRY) == set(), "entries for codes the registry does not have"


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_entry_matches_the_registry(code):
    name, body = SECTIONS[code]
    entry = REGISTRY[code]
    assert name == entry.name
    assert f"**Severity:** {entry.severity}. {entry.summary}" in body
    assert "```" in body, f"{code} has no example"
    assert "**Fix:**" in body, f"{code} has no fix"


def examples() -> list:
    cases = []
    for code, (_, body) in SECTIONS.items():
        for number, block in enumerate(EXAMPLE.findall(body)):
            if EXPECTATION.search(block):
                cases.append(pytest.param(code, block, id=f"{code}-{number}"))
    return cases


EXAMPLES = examples()


def expected(text: str) -> set[tuple[int, str]]:
    return {(n, code) for n, line in enumerate(text.splitlines(), 1) for _, code in EXPECTATION.findall(line)}


@pytest.mark.parametrize("code,block", EXAMPLES)
def test_example_gives_what_it_shows(tmp_path, code, block):
    path = tmp_path / "example.rules"   # the E503 example extends this very name
    path.write_text(block, encoding="utf-8")
    found = {(d.span.line, d.code) for d in lint_file(path) if Path(d.span.file) == path}
    assert found == expected(block)
    assert code in {c for _, c in found}


def test_every_static_code_has_a_checked_example():
    shown = {code for code, _ in (p.values for p in EXAMPLES)}
    assert set(REGISTRY) - NOT_LINTED - shown == set()


def test_explain_prints_the_entry():
    result = CliRunner().invoke(main, ["explain", "w303", "--markdown"])
    assert result.exit_code == 0
    assert result.output.startswith("### W303 loop-without-decision")
    assert "**Fix:**" in result.output and "### " not in result.output[4:]


def test_explain_unknown_code_is_a_usage_error():
    result = CliRunner().invoke(main, ["explain", "E1O1"])
    assert result.exit_code == 2 and "E101" in result.output


def test_explain_without_the_docs_uses_the_registry(tmp_path):
    from rulelang.report import explain
    assert explain("E206", tmp_path / "missing.md") == (
        f"E206 wrong-kind (error)\n{REGISTRY['E206'].summary}\n")
