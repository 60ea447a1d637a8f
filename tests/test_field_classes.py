"""An argument read from a component's field that holds values of one class in every
component of the game (an enum value...) is of that class: the call needs no check of it
against its parameter's declared type (compiler/fields.py ``field_class``); a field whose
values differ in class is still checked, and a wrong one is the rules' error at the call."""
from __future__ import annotations

import re
from pathlib import Path

from conftest import generated_functions as code
from conftest import setup_failure as failure
from test_declared import load

RULES = '''\
    game "G" { players 1 }
    enum colour { red, blue }
    component card { mark: colour  rank: int }
    component chip { MARK }
    deck cards: card in pile = [card(mark: red, rank: 1), card(mark: blue, rank: 2)]
    deck chips: chip in pile = [chip(mark: VALUE)]
    zone pile: component visible all
    var seen: list[colour] = []
    procedure note(c: colour) {
      seen = seen + [c]
    }
    phase main {
      for x in pile {
        call note(x.mark)
      }
      end game
    }
'''


def _rules(mark: str, value: str) -> str:
    return RULES.replace("MARK", mark).replace("VALUE", value)


def test_a_field_of_one_class_is_passed_without_a_check(tmp_path: Path) -> None:
    game = load(tmp_path, _rules("mark: colour", "blue"))
    assert "<checks 'c' of note>" not in game.generated_code()
    seen = game.new_initial_state().to_json()["globals"]["seen"]
    assert [v["value"] for v in seen] == ["red", "blue", "blue"]


def test_a_field_of_several_classes_is_checked_at_the_call(tmp_path: Path) -> None:
    game = load(tmp_path, _rules("mark: int", "3"))
    check = re.search(r"# (_k\d+) = <checks 'c' of note>", game.generated_code())
    assert check is not None and f"{check.group(1)}(" in code(game)
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 14 and diagnostic.code == "E602"
    assert diagnostic.message.startswith("'c' of note must be an enum value, got int")


OPTIONAL = '''\
    game "G" { players 1 }
    enum colour { red, blue }
    component card { mark: colour?  rank: int }
    component chip { MARK }
    deck cards: card in pile = [card(mark: red, rank: 1), card(mark: none, rank: 2)]
    deck chips: chip in pile = [chip(mark: VALUE)]
    zone pile: component visible all
    var last: colour? = blue
    var seen: int = 0
    phase main {
      for x in pile {
        last = x.mark
        seen += 1
      }
      end game
    }
'''


def test_a_field_whose_every_value_fits_a_variable_is_written_without_a_check(tmp_path: Path) -> None:
    game = load(tmp_path, OPTIONAL.replace("MARK", "mark: colour?").replace("VALUE", "blue"))
    assert "<checks variable 'last'>" not in game.generated_code()   # (red, none and blue fit colour?)
    assert game.new_initial_state().to_json()["globals"]["last"]["value"] == "blue"
    game = load(tmp_path, OPTIONAL.replace("MARK", "mark: int").replace("VALUE", "3"))
    assert "<checks variable 'last'>" in game.generated_code()   # (a chip's 3 does not)
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 12 and diagnostic.code == "E602" and "variable 'last'" in diagnostic.message
