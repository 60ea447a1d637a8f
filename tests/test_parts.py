"""Named parts: ``part NAME { ... }`` inside a setup, phase or procedure runs its statements
in place, and a variant replaces it alone with ``override part OWNER.NAME { ... }``; a
wrong target is a located error (E502, E504, E507)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulelang
from rulelang import ast, scenario_ast
from rulelang.loader import lint_file
from rulelang.syntax.parser import parse, parse_tests
from rulelang.syntax.parts import parts_in

ROOT = Path(__file__).resolve().parent.parent

BASE = """\
game "parts" { players 2 }
player var points: int = 0

setup {
  part start { for p in players { p.points = 1 } }
}

phase main {
  let bonus = 2
  for p in players {
    part reward {
      let gained = bonus
      p.points += gained
    }
    if p.points > 100 { break }
  }
  log "last gain " + gained
  call tally()
  end game
}

procedure tally() {
  part extra {
    for p in players {
      part cap { if p.points > 2 { p.points = 2 } }
    }
  }
}

score p = p.points
"""



def without_parts(text: str) -> str:
    """``text`` with each ``part NAME {`` and its closing brace blanked out, so that every
    other statement keeps its line and column (the generated code names them)."""
    out = list(text)
    opened: list[bool] = []   # for each open brace: does it open a part?
    at = 0
    while at < len(text):
        found = re.match(r"part\s+\w+\s*\{", text[at:])
        if found and (at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")):
            out[at:at + found.end()] = " " * found.end()
            opened.append(True)
            at += found.end()
            continue
        if text[at] == "{":
            opened.append(False)
        elif text[at] == "}" and opened.pop():
            out[at] = " "
        at += 1
    return "".join(out)


def code_of(game: rulelang.Game) -> str:
    """The generated code, without the addresses of the objects it names."""
    return re.sub(r" at 0x[0-9a-f]+", "", game.generated_code())


def write(folder: Path, **files: str) -> None:
    for name, text in files.items():
        (folder / f"{name}.rules").write_text(text, encoding="utf-8")


def points(path: Path) -> list[int]:
    state = rulelang.load(path, 2).new_initial_state(seed=1)
    assert state.is_terminal()
    return list(state.player_values["points"])


def test_a_ruleset_with_parts_compiles_to_the_same_code_as_without(tmp_path: Path) -> None:
    write(tmp_path, base=BASE, plain=without_parts(BASE))
    assert re.search(r"\bpart\s+\w+\s*\{", without_parts(BASE)) is None
    with_parts = rulelang.load(tmp_path / "base.rules", 2)
    plain = rulelang.load(tmp_path / "plain.rules", 2)
    assert code_of(with_parts) == code_of(plain)
    assert points(tmp_path / "base.rules") == [2, 2]


def test_a_variant_replaces_one_part_and_keeps_the_rest(tmp_path: Path) -> None:
    write(tmp_path, base=BASE, variant='extends "base.rules"\n'
                                       "override part tally.cap { }\n"
                                       "override part main.reward { let gained = bonus * 10  p.points += gained }\n")
    assert points(tmp_path / "variant.rules") == [21, 21]   # the setup's 1, the new reward, no cap
    state = rulelang.load(tmp_path / "variant.rules", 2).new_initial_state(seed=1)
    assert any("last gain 20" in str(line) for line in state.log)


def test_the_setup_and_an_outer_part_are_replaced_with_what_they_hold(tmp_path: Path) -> None:
    write(tmp_path, base=BASE, variant='extends "base.rules"\n'
                                       "override part setup.start { for p in players { p.points = 5 } }\n"
                                       "override part tally.extra { }\n")
    assert points(tmp_path / "variant.rules") == [7, 7]


def test_a_variant_of_a_variant_and_a_part_of_an_overridden_procedure(tmp_path: Path) -> None:
    write(tmp_path, base=BASE,
          first='extends "base.rules"\noverride procedure tally() { part cap { } }\n',
          second='extends "first.rules"\noverride part tally.cap { for p in players { p.points = 9 } }\n')
    assert points(tmp_path / "first.rules") == [3, 3]
    assert points(tmp_path / "second.rules") == [9, 9]


def test_a_replacement_that_drops_a_name_read_after_the_part_is_an_unknown_name(tmp_path: Path) -> None:
    write(tmp_path, base=BASE, variant='extends "base.rules"\noverride part main.reward { p.points += 1 }\n')
    found = lint_file(tmp_path / "variant.rules")
    assert [(d.code, Path(d.span.file).name, d.span.line) for d in found] == [("E101", "base.rules", 17)]


@pytest.mark.parametrize("line,code,column", [
    ("override part mian.reward { }", "E502", 15),       # no such procedure: at its name
    ("override part main.rewrad { }", "E502", 20),       # no such part: at the part's name
    ("override part setup.reward { }", "E502", 21),
    ("part main.reward { }", "E504", 6),                 # without override
])
def test_a_wrong_target_is_located(tmp_path: Path, line: str, code: str, column: int) -> None:
    write(tmp_path, base=BASE, variant=f'extends "base.rules"\n{line}\n')
    found = lint_file(tmp_path / "variant.rules")
    assert [(d.code, d.span.line, d.span.column) for d in found] == [(code, 2, column)]
    with pytest.raises(rulelang.RulesetError) as caught:
        rulelang.load(tmp_path / "variant.rules", 2)
    assert caught.value.diagnostics[0].code == code


def test_the_hint_lists_the_parts_of_the_target(tmp_path: Path) -> None:
    write(tmp_path, base=BASE, variant='extends "base.rules"\noverride part tally.caps { }\n')
    (found,) = lint_file(tmp_path / "variant.rules")
    assert found.hint == "its parts: extra, cap"


def test_a_part_named_twice_in_one_body_is_e507_at_the_second(tmp_path: Path) -> None:
    text = BASE.replace("part cap {", "part extra {")
    write(tmp_path, base=text)
    found = lint_file(tmp_path / "base.rules")
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E507", 25, 12)]
    assert "already has a part 'extra' (line 23)" in found[0].message


def test_parts_of_different_bodies_may_share_a_name(tmp_path: Path) -> None:
    write(tmp_path, base=BASE.replace("part cap {", "part reward {"))
    assert lint_file(tmp_path / "base.rules") == []


def test_part_stays_a_name_where_a_statement_cannot_start(tmp_path: Path) -> None:
    write(tmp_path, base='game "g" { players 2 }\nphase main { let part = 3  log "" + part  end game }\n')
    state = rulelang.load(tmp_path / "base.rules", 2).new_initial_state(seed=1)
    assert any("3" in str(line) for line in state.log)


def test_a_part_in_a_given_block_is_its_statements() -> None:
    tests = parse_tests('scenario "s" {\n  given { part a { log "x" } }\n}\n', "t.tests")
    given = tests.scenarios[0].steps[0]
    assert isinstance(given, scenario_ast.Given)
    assert [type(s).__name__ for s in given.body.statements] == ["Log"]


# The parts the seed games name for their variants, by the body that holds them.
SEED_PARTS = {
    "jamaica": {"deal_cards": ["opening_hand"], "draw_back": ["hand_size"], "combat": ["fire_power", "tie"],
                "victory": ["spoils"]},
    "jolly_roger": {"voyage": ["trump"], "deal": ["hand_size"], "reline": ["strength"], "raid": ["reward"]},
    "asterix": {"contest": ["strongest", "spent_gauls"], "score_round": ["pirates_free", "set_bonus"]},
    "tobago": {"refill": ["draw_up"], "raise": ["extra_card"], "curse": ["loss"]},
}


@pytest.mark.parametrize("name", sorted(SEED_PARTS))
def test_a_seed_game_names_its_parts_and_runs_them_as_their_statements(name: str) -> None:
    path = ROOT / "games" / f"{name}.rules"
    text = path.read_text(encoding="utf-8")
    named = {d.name: [p.name for p in parts_in(d.body)] for d in parse(text, str(path)).declarations
             if isinstance(d, (ast.SetupDecl, ast.PhaseDecl, ast.ProcedureDecl)) and d.body is not None}
    assert {owner: parts for owner, parts in named.items() if parts} == SEED_PARTS[name]
    players = 3
    assert code_of(rulelang.load(path, players)) == code_of(rulelang.load(without_parts(text), players, path=str(path)))


def test_a_replacement_that_nests_its_owner_too_deep_is_e005_at_the_override(tmp_path: Path) -> None:
    def nest(inner: str) -> str:
        return "if true { " * 20 + inner + " }" * 20
    write(tmp_path, base=f'game "g" {{ players 2 }}\nphase main {{ {nest("part p { }")} end game }}\n',
          fits=f'extends "base.rules"\noverride part main.p {{ {nest("")} }}\n',
          deeper=f'extends "base.rules"\noverride part main.p {{ {nest(nest(""))} }}\n')
    assert lint_file(tmp_path / "fits.rules") == []
    (found,) = lint_file(tmp_path / "deeper.rules")
    where = (Path(found.span.file).name, found.span.line, found.span.column)
    assert found.code == "E005" and where == ("deeper.rules", 2, 20)
