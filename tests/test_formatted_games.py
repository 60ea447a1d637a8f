"""Every shipped ruleset and test file of games/ and examples/, formatted (``rulelang fmt``)
into a temporary folder, works as it does as written: its scenario tests (``rulelang test``)
pass, and the states saved in the tests load against it as against the text as written (the
key of a hiding 'let' does not name its line: tests/test_let_keys.py)."""
from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest
from conftest import ROOT
from format2_saved import FORMAT_2, ruleset_saved_with

import rulelang
from rulelang.interpreter.sim.scenarios import find_test_files, run_file
from rulelang.syntax.format import format_source

SHIPPED = ("games", "examples")


@pytest.fixture(scope="module")
def formatted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of games/ and examples/ with every ruleset and test file formatted."""
    root = tmp_path_factory.mktemp("formatted")
    for folder in SHIPPED:
        shutil.copytree(ROOT / folder, root / folder)
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in (".rules", ".tests"):
                text = path.read_text(encoding="utf-8")
                path.write_text(format_source(text, str(path)), encoding="utf-8")
    return root


def test_every_scenario_test_passes_against_the_formatted_files(formatted: Path) -> None:
    files = find_test_files([formatted / folder for folder in SHIPPED])
    assert len(files) == len(find_test_files([ROOT / folder for folder in SHIPPED])) >= 10
    results = [run_file(path, root=formatted) for path in files]
    problems = [str(d) for r in results for d in r.problems] + [
        f"{r.path} {f.name}: {f.failure}" for r in results for f in r.failed]
    assert problems == []
    assert sum(len(r.results) for r in results) >= 80


@pytest.mark.parametrize("name", sorted(FORMAT_2))
def test_the_saved_states_in_tests_load_against_the_formatted_rulesets(name: str, tmp_path: Path) -> None:
    saved = FORMAT_2[name]
    (tmp_path / "written").mkdir()
    path = ruleset_saved_with(name, tmp_path / "written")   # the ruleset the state was saved with
    shutil.copytree(tmp_path / "written", tmp_path / "formatted")
    for rules in (tmp_path / "formatted").glob("*.rules"):
        rules.write_text(format_source(rules.read_text(encoding="utf-8"), str(rules)), encoding="utf-8")
    written = rulelang.load(path, players=saved["players"])
    layout = rulelang.load(tmp_path / "formatted" / path.name, players=saved["players"])
    here = written.state_from_json(copy.deepcopy(saved["state"]))
    there = layout.state_from_json(copy.deepcopy(saved["state"]))
    assert there.to_json() == here.to_json()
    if not here.is_terminal():   # and plays on the same
        player = here.current_players()[0]
        action = here.legal_action_ids(player)[-1]
        here.apply_action(action, player=player)
        there.apply_action(action, player=player)
        assert there.to_json() == here.to_json()
