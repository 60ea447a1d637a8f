"""Hostile files (issue 9): confined file access for ``extends`` and ``load_board``, the one
rule that tells a path from a text, and no traceback from reading or parsing any input."""
from __future__ import annotations

import os
import random
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulelang
from rulelang.check import linter
from rulelang.cli import main
from rulelang.diagnostics import Diagnostic
from rulelang.errors import RulesetError
from rulelang.files import MAX_BOARD_BYTES, MAX_RULESET_BYTES
from rulelang.loader import lint_file, lint_text, looks_like_path

SECRET = "TOPSECRET-9f3a"   # the content that must never appear in a message

BASE = '''game "base" {
  players 2
}
BOARD
player var points: int = 0

phase main {
  for p in players {
    p.points += 1
  }
  end game
}

score p = p.points
'''

BOARD_YAML = "kind: square\nwidth: 2\nheight: 2\n"


def ruleset(board: str | None = None) -> str:
    return BASE.replace("BOARD", f'board grid = load_board("{board}")' if board else "")


def variant(base: str) -> str:
    return f'extends "{base}"\n\noverride player var points: int = 1\n'


def secret_file(folder: Path, name: str = "secret.txt") -> Path:
    path = folder / name
    path.write_text(f"root:x:0:0:{SECRET}:/root:/bin/bash\nline two {SECRET}\n")
    return path


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    """A read that blocks (a named pipe opened for reading) fails the test instead of hanging.
    By the clock, as a blocked read uses no CPU: 60 s, far above any test's time on a busy
    machine."""
    def stop(signum: int, frame: object) -> None:
        raise TimeoutError("blocked for 60 s")
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def diagnostics_of(source: str | Path, **options: object) -> list[Diagnostic]:
    with pytest.raises(RulesetError) as caught:
        rulelang.load(source, **options)   # type: ignore[arg-type]
    return caught.value.diagnostics


def all_text(diagnostics: list[Diagnostic]) -> str:
    return "\n".join(f"{d} {d.hint or ''} {d.span}" for d in diagnostics)


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.output


# ---------------------------------------------------------------- path or text

@pytest.mark.parametrize(("source", "is_path"), [
    (Path("x"), True), ("games/a.rules", True), ("a.rules\n", False), ("/etc/shadow", False),
    ("game.rules x\ny.rules", False), ("", False), ("notes.txt", False),
])
def test_one_rule_tells_a_path_from_a_text(source: str | Path, is_path: bool) -> None:
    assert looks_like_path(source) is is_path


def test_load_of_a_system_path_does_not_read_it() -> None:
    found = diagnostics_of("/etc/shadow")
    assert [d.code for d in found] == ["E002"] and found[0].span is not None
    assert found[0].span.file == "<text>"


# ---------------------------------------------------------------- confinement

def test_absolute_and_dotdot_paths_are_refused(tmp_path: Path) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    secret = secret_file(tmp_path)
    cases = [
        (f'extends "{secret}"\n', "E501", "absolute"),
        ('extends "../secret.txt"\n', "E501", "out of the root"),
        (ruleset(str(secret)), "E401", "absolute"),
        (ruleset("../secret.txt"), "E401", "out of the root"),
        (ruleset("../../../../../../etc/passwd"), "E401", "out of the root"),
        (ruleset("/dev/zero"), "E401", "absolute"),
    ]
    for text, code, reason in cases:
        file = inner / "game.rules"
        file.write_text(text)
        found = diagnostics_of(file)
        assert [d.code for d in found] == [code], text
        assert reason in found[0].message and SECRET not in all_text(found)
        assert lint_file(file)[0].code == code
        output = cli("lint", str(file))
        assert code in output and SECRET not in output and "root:x" not in output


def test_symlinks_out_of_the_root_are_refused_and_inside_followed(tmp_path: Path) -> None:
    outside, root = tmp_path / "outside", tmp_path / "root"
    outside.mkdir()
    root.mkdir()
    (outside / "board.yaml").write_text(BOARD_YAML)
    (root / "out.yaml").symlink_to(outside / "board.yaml")
    (root / "real.yaml").write_text(BOARD_YAML)
    (root / "in.yaml").symlink_to(root / "real.yaml")
    (root / "game.rules").write_text(ruleset("out.yaml"))
    found = diagnostics_of(root / "game.rules")
    assert [d.code for d in found] == ["E401"] and "symbolic link" in found[0].message
    (root / "game.rules").write_text(ruleset("in.yaml"))
    assert rulelang.load(root / "game.rules").num_players == 2
    # the same file loads once the root is widened to hold the target
    (root / "game.rules").write_text(ruleset("out.yaml"))
    assert rulelang.load(root / "game.rules", root=tmp_path).num_players == 2


def test_a_symlink_loop_through_extends(tmp_path: Path) -> None:
    (tmp_path / "a.rules").symlink_to(tmp_path / "b.rules")
    (tmp_path / "b.rules").symlink_to(tmp_path / "a.rules")
    (tmp_path / "game.rules").write_text(variant("a.rules"))
    found = diagnostics_of(tmp_path / "game.rules")
    assert [d.code for d in found] == ["E501"]
    assert [d.code for d in lint_file(tmp_path / "game.rules")] == ["E501"]


def test_not_regular_files_are_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    os.mkfifo(tmp_path / "pipe.rules")
    (tmp_path / "folder.yaml").mkdir()
    os.symlink("/dev/zero", tmp_path / "zero.yaml")
    for board in ("pipe.yaml", "folder.yaml"):
        (tmp_path / "game.rules").write_text(ruleset(board))
        found = diagnostics_of(tmp_path / "game.rules")
        assert [d.code for d in found] == ["E401"] and board in found[0].message
    (tmp_path / "game.rules").write_text(ruleset("zero.yaml"))   # a link that leads out of the root
    assert [d.code for d in diagnostics_of(tmp_path / "game.rules")] == ["E401"]
    assert [d.code for d in diagnostics_of(tmp_path / "game.rules", root="/")] == ["E401"]
    (tmp_path / "game.rules").write_text(variant("pipe.rules"))
    found = diagnostics_of(tmp_path / "game.rules")
    assert [d.code for d in found] == ["E001"] and "not a regular file" in found[0].message
    assert [d.code for d in diagnostics_of(tmp_path / "pipe.rules")] == ["E001"]
    assert "E001" in cli("lint", str(tmp_path / "pipe.rules"))


def test_oversize_files_are_refused(tmp_path: Path) -> None:
    (tmp_path / "big.yaml").write_text("# padding\n" * (MAX_BOARD_BYTES // 10 + 1))
    (tmp_path / "game.rules").write_text(ruleset("big.yaml"))
    found = diagnostics_of(tmp_path / "game.rules")
    assert [d.code for d in found] == ["E401"] and "larger than 1 MiB" in found[0].message
    (tmp_path / "big.rules").write_text("# padding\n" * (MAX_RULESET_BYTES // 10 + 1))
    (tmp_path / "game.rules").write_text(variant("big.rules"))
    found = diagnostics_of(tmp_path / "game.rules")
    assert [d.code for d in found] == ["E001"] and "larger than 256 KiB" in found[0].message
    assert [d.code for d in diagnostics_of(tmp_path / "big.rules")] == ["E001"]


# ---------------------------------------------------------------- content never echoed

def test_a_base_that_is_not_a_ruleset_is_not_shown(tmp_path: Path) -> None:
    secret_file(tmp_path, "notes.rules")
    (tmp_path / "game.rules").write_text(variant("notes.rules"))
    found = diagnostics_of(tmp_path / "game.rules")
    assert [d.code for d in found] == ["E501"] and "not a valid ruleset" in found[0].message
    assert found[0].span is not None and found[0].span.file == str(tmp_path / "game.rules")
    assert SECRET not in all_text(found)
    linted = lint_file(tmp_path / "game.rules")
    assert [d.code for d in linted] == ["E501"] and SECRET not in all_text(linted)
    for fmt in ("text", "json", "github", "sarif"):
        output = cli("lint", "--format", fmt, str(tmp_path / "game.rules"))
        assert "E501" in output and SECRET not in output and "root:x" not in output


@pytest.mark.parametrize("content", [
    f"root:x:0:0:{SECRET}:/root:/bin/bash\nline two {SECRET}\n",   # YAML: one long string
    f"[{SECRET}, {SECRET}]\n",                                      # a list, not a board
    f"kind: square\nwidth: {SECRET * 5}\nheight: 2\n",              # a long value in a board
    f"{{{SECRET}: [\n",                                             # invalid YAML
    f"key: \x07 {SECRET}\n",                                        # characters YAML refuses
    f"{SECRET}: 1\n\x00\n",                                         # a NUL byte
    "kind: square\nwidth: 1" + "0" * 5000 + "\nheight: 2\n",       # an integer Python refuses
    "[" * 3000 + "]" * 3000,                                        # deep nesting
])
def test_a_board_file_that_is_not_a_board_is_not_quoted(tmp_path: Path, content: str) -> None:
    (tmp_path / "data.yaml").write_text(content)
    (tmp_path / "data.json").write_text(content)
    for board in ("data.yaml", "data.json"):
        (tmp_path / "game.rules").write_text(ruleset(board))
        found = diagnostics_of(tmp_path / "game.rules")
        assert [d.code for d in found] == ["E401"]
        assert SECRET not in all_text(found) and "0" * 100 not in all_text(found)
        output = cli("lint", str(tmp_path / "game.rules"))
        assert "E401" in output and "root:x" not in output
        # only a board document (a mapping at its top) may have its line shown as context
        assert SECRET not in output or content.startswith("kind: square")


@pytest.mark.parametrize("board", ["data.yaml", "data.json"])
def test_deep_brackets_in_a_board_file_are_refused_before_reading_however_deep_python_may_go(
        tmp_path: Path, board: str) -> None:
    # Loading a game with compiled procedures raises Python's recursion limit; YAML's reader
    # takes time with the square of the depth, so the depth is bounded before it reads.
    (tmp_path / board).write_text("[" * 3000 + "]" * 3000)
    (tmp_path / "game.rules").write_text(ruleset(board))
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, 5000))
    try:
        found = diagnostics_of(tmp_path / "game.rules")
    finally:
        sys.setrecursionlimit(before)
    assert [d.code for d in found] == ["E401"] and "nested too deeply" in found[0].message


def test_non_utf8_files(tmp_path: Path) -> None:
    (tmp_path / "bad.rules").write_bytes(b"game \"x\" {\n  players 2\xff\n}\n")
    assert [d.code for d in diagnostics_of(tmp_path / "bad.rules")] == ["E001"]
    (tmp_path / "game.rules").write_text(variant("bad.rules"))
    found = diagnostics_of(tmp_path / "game.rules")   # a base that cannot be read: at the extends line
    assert [d.code for d in found] == ["E001"] and found[0].span is not None
    assert found[0].span.file == str(tmp_path / "game.rules")
    (tmp_path / "bad.yaml").write_bytes(b"kind: square\nwidth: \xff\n")
    (tmp_path / "game.rules").write_text(ruleset("bad.yaml"))
    assert [d.code for d in diagnostics_of(tmp_path / "game.rules")] == ["E401"]


# ---------------------------------------------------------------- relative to the containing file

def test_a_variant_in_another_folder(tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "grid.yaml").write_text(BOARD_YAML)
    (tmp_path / "base.rules").write_text(ruleset("boards/grid.yaml"))
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "v.rules").write_text(variant("../base.rules"))
    found = diagnostics_of(tmp_path / "variants" / "v.rules")   # the default root is variants/
    assert [d.code for d in found] == ["E501"] and "--root" in found[0].message
    game = rulelang.load(tmp_path / "variants" / "v.rules", root=tmp_path)
    assert game.num_players == 2
    assert not [d for d in lint_file(tmp_path / "variants" / "v.rules", root=tmp_path) if d.code.startswith("E")]
    assert "E501" not in cli("lint", "--root", str(tmp_path), str(tmp_path / "variants" / "v.rules"))
    assert "main" in cli("graph", "--root", str(tmp_path), str(tmp_path / "variants" / "v.rules"))
    assert "E501" in CliRunner().invoke(main, ["graph", str(tmp_path / "variants" / "v.rules")]).output
    text = (tmp_path / "variants" / "v.rules").read_text()
    assert rulelang.load(text, path=str(tmp_path / "variants" / "v.rules"), root=tmp_path).num_players == 2


# ---------------------------------------------------------------- never a traceback

def test_a_huge_integer_literal_is_a_diagnostic() -> None:
    found = diagnostics_of(BASE.replace("BOARD", "var big: int = " + "9" * 5000))
    assert [d.code for d in found] == ["E002"] and "too large" in found[0].message
    assert found[0].span is not None and found[0].span.line == 4
    assert rulelang.load(BASE.replace("BOARD", "var big: int = " + "9" * 18)).num_players == 2
    assert [d.code for d in lint_text(BASE.replace("BOARD", "var big: int = " + "9" * 19))] == ["E002"]


def test_garbage_raises_only_ruleset_error(tmp_path: Path) -> None:
    rng = random.Random(9)
    alphabet = 'game{}()[]"\\\n\t\x00\x7f\u00e9 players 2 phase var x = 1 ..,;:#+-*/<>=!extends load_board'
    inputs: list[str | Path] = [
        "", "\x00", "\x00.rules", "a" * 10_000, "(" * 10_000, "{" * 10_000, "1+" * 5_000 + "1",
        "\ud800", "\ufeff", "extends \"\x00\"", "extends \"\"", 'extends "."', "/" * 300 + ".rules",
        "nowhere/../../x.rules", str(tmp_path) + ".rules", Path(tmp_path), Path("/dev/null"),
        BASE.replace("BOARD", 'board g = load_board("\x00")'), BASE.replace("BOARD", "board g = load_board(1)"),
        BASE.replace("BOARD", 'board g = load_board("")'), BASE.replace("BOARD", 'board g = load_board(".")'),
    ]
    inputs += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 200))) for _ in range(60)]
    for odd in (123, None, b"game", ["x.rules"]):
        assert [d.code for d in diagnostics_of(odd)] == ["E001"]   # type: ignore[arg-type]
    for options in ({"path": "a\0b"}, {"root": "a\0"}, {"root": 5}, {"path": str(tmp_path / "x.rules")}):
        found = diagnostics_of('extends "x.rules"', **options)
        assert found[0].code in ("E001", "E501", "E503")
    assert not any(linter.is_internal_error(d) for d in lint_text('extends "x.rules"', "a\0b.rules"))
    for source in inputs:
        try:
            rulelang.load(source)
        except RulesetError as error:
            assert error.diagnostics
            assert not any(linter.is_internal_error(d) for d in error.diagnostics), (source, error)
        if isinstance(source, str) and "\ud800" not in source:
            found = lint_text(source)
            assert not any(linter.is_internal_error(d) for d in found), (source, found)
