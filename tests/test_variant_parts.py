"""The variants of examples/variants/ that change one clause inside a procedure of a seed
game through a named part (``override part OWNER.PART``): each replaces only parts (and
what must hold after), copies no procedure, and its scenarios pass; run against the base
game instead, each file has a scenario that fails, so the scenarios show the change."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from rulelang import ast
from rulelang.interpreter.sim.scenarios import run_file
from rulelang.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "examples" / "variants"
PART_VARIANTS = sorted(p for p in FOLDER.glob("*.rules") if "override part" in p.read_text(encoding="utf-8"))


def base_of(path: Path) -> str:
    found = re.search(r'^extends "(.+)"$', path.read_text(encoding="utf-8"), re.M)
    assert found is not None
    return found.group(1)


def test_at_least_four_variants_change_a_clause_through_a_part() -> None:
    assert len(PART_VARIANTS) >= 4
    assert {Path(base_of(p)).stem for p in PART_VARIANTS} == {"jamaica", "jolly_roger", "asterix", "tobago"}


@pytest.mark.parametrize("path", PART_VARIANTS, ids=[p.stem for p in PART_VARIANTS])
def test_a_part_variant_replaces_parts_and_copies_no_body(path: Path) -> None:
    kinds = {type(d) for d in parse(path.read_text(encoding="utf-8"), str(path)).declarations}
    assert ast.PartDecl in kinds
    assert not kinds & {ast.ProcedureDecl, ast.PhaseDecl, ast.SetupDecl}


@pytest.mark.parametrize("path", PART_VARIANTS, ids=[p.stem for p in PART_VARIANTS])
def test_its_scenarios_pass(path: Path) -> None:
    result = run_file(path.with_suffix(".tests"), root=ROOT)
    assert result.problems == []
    assert len(result.results) >= 1
    assert [r.failure for r in result.results if r.failure is not None] == []


@pytest.mark.parametrize("path", PART_VARIANTS, ids=[p.stem for p in PART_VARIANTS])
def test_its_scenarios_show_the_change(path: Path, tmp_path: Path) -> None:
    base = (path.parent / base_of(path)).resolve()
    against_base = tmp_path / "against_base.tests"
    against_base.write_text(f'ruleset "{os.path.relpath(base, tmp_path)}"\n'
                            + path.with_suffix(".tests").read_text(encoding="utf-8"), encoding="utf-8")
    result = run_file(against_base, root="/")
    assert result.problems == []
    assert any(r.failure is not None and r.failure.code == "E701" for r in result.results)
