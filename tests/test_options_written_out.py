"""The options of a choice that are the spaces of a list known at load kept by a test
(compiler/options.py): written out space by space, the same options, work and step-budget
errors as the comprehension they replace, whether looked up by the tests that hold or built."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import offers_made, played_to_the_end, worked_states

import rulelang
from rulelang.interpreter.compiler import choices, codegen, options
from rulelang.interpreter.tables import catalog

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "O" { players 1  max_steps STEPS }
board grid = square_grid(3, 3)
space var mark: int = 0
phase p {
  repeat {
    choose c in [s for s in spaces(grid) if s.mark == 0] by players[0] otherwise { end game }
    c.mark = 1
  }
}
"""


def _outcome(steps: int) -> tuple[object, ...]:
    return played_to_the_end(rulelang.load(RULES.replace("STEPS", str(steps))))


@pytest.mark.parametrize("masked", [True, False])
def test_options_written_out_are_those_of_the_comprehension(monkeypatch: pytest.MonkeyPatch, masked: bool) -> None:
    if not masked:   # (the tuple built, as for a list longer than MASKED_MOST)
        monkeypatch.setattr(options, "MASKED_MOST", 0)
    shape = re.compile(r"_subset = \(+511 if" if masked else r"_o = \(\*\(")
    fast = rulelang.load(GAMES / "tic_tac_toe.rules")
    assert shape.search(fast.generated_code())
    assert shape.search(rulelang.load(RULES.replace("STEPS", "9")).generated_code())
    played = [worked_states(fast, seed) for seed in range(10)]
    budgets = [_outcome(steps) for steps in range(1, 14)]
    assert any("E603" in str(outcome[0]) for outcome in budgets) and type(budgets[-1][1]) is int
    monkeypatch.setattr(codegen, "written_out", lambda writer, node, scope, local: None)
    slow = rulelang.load(GAMES / "tic_tac_toe.rules")
    assert not shape.search(slow.generated_code())
    assert played == [worked_states(slow, seed) for seed in range(10)]
    assert budgets == [_outcome(steps) for steps in range(1, 14)]


def test_a_list_not_kept_offered_in_place_as_the_choice_offers_it(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = rulelang.load(GAMES / "tic_tac_toe.rules")
    assert "elif _o:" in fast.generated_code()   # (a new list: its decision made without the choice's code)
    assert re.search(r"_d = _k\d+\[_subset\]", fast.generated_code())   # (its kept decisions by subset)
    offered = [offers_made(fast, seed) for seed in range(20)]
    budgets = [_outcome(steps) for steps in range(1, 14)]
    general = choices.choose_in_place
    monkeypatch.setattr(choices, "choose_in_place", lambda module, computed, made, choice, note, *_, **__:
                        general(module, computed, made, choice, note))   # (not short, the chooser not proven)
    slow = rulelang.load(GAMES / "tic_tac_toe.rules")
    assert "elif _o:" not in slow.generated_code() and not re.search(r"_d = _k\d+\[_subset\]", slow.generated_code())
    assert offered == [offers_made(slow, seed) for seed in range(20)]
    assert budgets == [_outcome(steps) for steps in range(1, 14)]


def test_a_first_offer_by_subset_takes_its_ids_from_the_table_made_at_load(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = rulelang.load(GAMES / "tic_tac_toe.rules")
    assert re.search(r"_k\d+\(st, _o, _p, _subset\)", fast.generated_code())   # (offered given the subset's index)
    taken = re.findall(r"\n( +)(_d = _k\d+\[_subset\]|_o = _k\d+\[_subset\])\n", fast.generated_code())
    kept = min(len(indent) for indent, line in taken if line.startswith("_d"))
    assert all(len(indent) > kept for indent, line in taken if line.startswith("_o"))   # (the options taken
    # only in the branches that read them: not where the decision kept is the chooser's)
    asked: list[object] = []
    ids_of = catalog.Catalog.option_ids
    monkeypatch.setattr(catalog.Catalog, "option_ids",
                        lambda self, options: asked.append(options) or ids_of(self, options))
    offered = [offers_made(fast, seed) for seed in range(20)]
    assert not asked   # (every first offer's ids taken by the subset's index)
    kept = [decision for decision in fast.program.generated.namespace.values()
            if type(decision) is list and decision and any(d is not None for d in decision)]
    assert any(d.shared and d.ids == ids_of(fast.catalog, d.options)[0] for d in kept[0] if d is not None)
    monkeypatch.setattr(choices, "subset_ids", lambda module, lines, cat: None)
    slow = rulelang.load(GAMES / "tic_tac_toe.rules")
    assert not re.search(r"_k\d+\(st, _o, _p, _subset\)", slow.generated_code())
    assert offered == [offers_made(slow, seed) for seed in range(20)]
    assert asked   # (the general path asks the catalog)
