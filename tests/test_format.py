"""``rulelang fmt`` (rulelang/syntax/format.py, docs/editors.md "Formatting"): every shipped
ruleset and test file formats to a text that parses to the same AST, keeps its comments and
formats to itself; the layout on small texts; the command's three modes.

The shipped files need not be formatted already: the tests format them in memory."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.errors import RulesetError
from rulelang.syntax.format import format_source
from rulelang.syntax.format_pieces import scan
from rulelang.syntax.parser import parse, parse_tests

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p for folder in ("games", "examples") for suffix in ("*.rules", "*.tests")
                 for p in (ROOT / folder).rglob(suffix))


def read(path: Path, text: str) -> object:
    return parse_tests(text, str(path)) if path.suffix == ".tests" else parse(text, str(path))


def comments(text: str) -> list[tuple[int, bool, str]]:
    """Each comment: how many tokens come before it, whether it stands alone on its line, its text."""
    lines = text.splitlines()
    found, tokens = [], 0
    for piece in scan(text):
        if piece.is_comment:
            found.append((tokens, lines[piece.line - 1][:piece.column - 1].strip() == "", piece.text))
        else:
            tokens += 1
    return found


def test_every_shipped_file_is_found() -> None:
    assert len(SHIPPED) >= 30
    assert {p.suffix for p in SHIPPED} == {".rules", ".tests"}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_shipped_file_formats_to_the_same_ast_and_comments_and_to_itself(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    formatted = format_source(text, str(path))
    assert read(path, formatted) == read(path, text)
    assert comments(formatted) == comments(text)
    assert format_source(formatted, str(path)) == formatted
    assert all(line == line.rstrip() for line in formatted.splitlines())


def respaced(text: str, seed: int) -> str:
    """``text`` with the whitespace between its tokens drawn at random (never joining two
    tokens that would read as one), its comments kept at the end of their lines."""
    rng = random.Random(seed)
    out: list[str] = []
    pieces = scan(text)
    for previous, piece in zip([None, *pieces], pieces, strict=False):
        if previous is not None and previous.is_comment:
            out.append(rng.choice(["\n", "\n\n"]))
        elif previous is not None:
            glued = previous.text == "shown" and piece.text == "as"
            may_touch = "operator" in (previous.kind, piece.kind) and not (
                previous.text[-1] in "=<>!+-." and piece.text[0] in "=.")
            out.append(" " if glued else rng.choice(["", " ", "\n    ", "\n\n", "  ", "\n"][not may_touch:]))
        out.append(piece.text)
    return "".join(out)


@pytest.mark.parametrize("name", ["games/kuhn_poker.rules", "games/tic_tac_toe.tests",
                                  "examples/variants/jolly_roger_no_trump.rules"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_respaced_file_formats_to_the_same_ast_and_to_itself(name: str, seed: int) -> None:
    path = ROOT / name
    text = respaced(path.read_text(encoding="utf-8"), seed)
    formatted = format_source(text, str(path))
    assert read(path, formatted) == read(path, path.read_text(encoding="utf-8"))
    assert format_source(formatted, str(path)) == formatted


MESSY = """\


# the header
game "Messy"{players 2..4
max_decisions   100}
enum colour{red,green,
  blue}
component card { colour: colour number: int }   shown as "{colour}"
player zone hand : card visible owner # trailing
zone pile: card visible all
deck cards: card in pile = [card(colour:c,number:n)for c in values(colour)for n in 1..3]



var x: int=-1
setup
{
  move top(pile,2)to players[0].hand
  if x>0{x+=1}elif x< -1 {x -= 2 } else
  {
  }
      # on its own line
  for p in players { shuffle p.hand  log "hi " + p }
  let y = if x == 1 then -x
            else x*2
  # before the end
}
"""

TIDY = """\
# the header
game "Messy" {
  players 2..4
  max_decisions 100
}

enum colour {
  red, green,
  blue
}

component card { colour: colour  number: int } shown as "{colour}"
player zone hand: card visible owner  # trailing
zone pile: card visible all
deck cards: card in pile = [card(colour: c, number: n) for c in values(colour) for n in 1..3]

var x: int = -1
setup {
  move top(pile, 2) to players[0].hand
  if x > 0 { x += 1 } elif x < -1 { x -= 2 } else { }
  # on its own line
  for p in players {
    shuffle p.hand
    log "hi " + p
  }
  let y = if x == 1 then -x
            else x * 2
  # before the end
}
"""


def test_the_layout_of_a_messy_ruleset() -> None:
    assert format_source(MESSY, "messy.rules") == TIDY
    assert format_source(TIDY, "messy.rules") == TIDY


def test_the_layout_of_a_messy_test_file() -> None:
    messy = ('ruleset "m.rules"\nplayers 2\nbackground { given { x = 1 } }\n'
             'scenario "a"{ players 3\nseed 4\nplay p1 "a","b"   prompt "x"\n  expect x==1 # yes\n'
             '  given { x = 2\n  x += 1 }\n}\nscenario "b" { expect not over }\n')
    assert format_source(messy, "m.tests") == (
        'ruleset "m.rules"\nplayers 2\nbackground { given { x = 1 } }\n'
        'scenario "a" {\n  players 3\n  seed 4\n  play p1 "a", "b" prompt "x"\n  expect x == 1  # yes\n'
        '  given {\n    x = 2\n    x += 1\n  }\n}\n\nscenario "b" { expect not over }\n')


def test_continuation_lines_keep_their_place_relative_to_their_statement() -> None:
    # (the comment at the end of the line keeps its column)
    text = ('setup {\n'
            '        let hit = [a            # the first\n'
            '                   for a in players]\n'
            '}\n')
    assert format_source(text, "x.rules") == ('setup {\n'
                                              '  let hit = [a                  # the first\n'
                                              '             for a in players]\n'
                                              '}\n')


def test_aligned_trailing_comments_stay_aligned_and_continue_below() -> None:
    text = ('var a: int = 1          # one\n'
            'var bb: int = 22        # two,\n'
            '                        # continued\n'
            'var ccc: int=333 # three\n')
    assert format_source(text, "x.rules") == ('var a: int = 1          # one\n'
                                              'var bb: int = 22        # two,\n'
                                              '                        # continued\n'
                                              'var ccc: int = 333  # three\n')


def test_a_text_that_does_not_parse_gives_its_diagnostic() -> None:
    with pytest.raises(RulesetError) as raised:
        format_source('game "x" {\n  players 2\n', "broken.rules")
    assert raised.value.diagnostics[0].code == "E003"


# ---- the command ----

def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["fmt", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "messy.rules").write_text(MESSY)
    (tmp_path / "tidy.rules").write_text(TIDY)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "messy.tests").write_text('scenario "a" { players 3\n  expect x==1 }\n')
    return tmp_path


def test_fmt_rewrites_the_files_that_change_and_counts_them(folder: Path) -> None:
    code, _, err = run(str(folder))
    assert code == 0
    assert "2 files reformatted, 1 left unchanged" in err
    assert (folder / "messy.rules").read_text() == TIDY
    assert (folder / "sub" / "messy.tests").read_text() == 'scenario "a" {\n  players 3\n  expect x == 1\n}\n'
    assert run(str(folder))[2].strip() == "0 files reformatted, 3 left unchanged"


def test_fmt_check_lists_the_files_that_would_change_and_changes_nothing(folder: Path) -> None:
    code, out, err = run("--check", str(folder))
    assert code == 1
    assert out.splitlines() == [f"would reformat {folder / 'messy.rules'}",
                                f"would reformat {folder / 'sub' / 'messy.tests'}"]
    assert "2 files would be reformatted, 1 left unchanged" in err
    assert (folder / "messy.rules").read_text() == MESSY
    assert run("--check", str(folder / "tidy.rules"))[0] == 0


def test_fmt_diff_prints_a_unified_diff_and_changes_nothing(folder: Path) -> None:
    code, out, _ = run("--diff", str(folder / "messy.rules"))
    assert code == 0
    assert out.startswith(f"--- {folder / 'messy.rules'} (as it is)\n+++ {folder / 'messy.rules'} (formatted)\n")
    assert "\n-var x: int=-1\n" in out and "\n+var x: int = -1\n" in out
    assert (folder / "messy.rules").read_text() == MESSY


def test_fmt_reports_a_file_that_does_not_parse_and_leaves_it(folder: Path) -> None:
    broken = folder / "broken.rules"
    broken.write_text('game "x" {\n  players 2\n')
    code, _, err = run(str(folder), str(folder / "missing.rules"))
    assert code == 1
    assert f"{broken}:1:10: E003" in err
    assert "missing.rules:1:1: E001 no such file or directory" in err
    assert broken.read_text() == 'game "x" {\n  players 2\n'
    assert (folder / "messy.rules").read_text() == TIDY


def test_help_does_not_import_the_formatter() -> None:
    script = "import sys\nfrom rulelang.cli import main\nprint('rulelang.syntax' in ' '.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False", done.stderr


def test_fmt_leaves_a_file_the_formatter_fails_on(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import rulelang.syntax.format as formatter
    monkeypatch.setattr(formatter, "render", lambda lines: "game")   # a result that would not parse
    code, _, err = run(str(folder / "messy.rules"))
    assert code == 1
    assert "internal error" in err and "left as it is" in err
    assert (folder / "messy.rules").read_text() == MESSY
