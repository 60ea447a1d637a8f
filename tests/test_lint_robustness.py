"""No input makes the linter print a traceback or hang.

Hostile files go through the command line (click's CliRunner): each gets a diagnostic with
a location and the right exit code. A hypothesis test mutates every ruleset in games/
(deletes, duplicates or swaps lines, replaces tokens, cuts the file anywhere) and checks
that the linter never fails itself (an E900 "rulelang failed on this file", which a bug
in rulelang gives, as opposed to a diagnostic about the rules) and that every location it
reports lies inside the file.
"""
from __future__ import annotations

import itertools
import os
import re
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulelang.check.linter import is_internal_error
from rulelang.check.variants import MAX_BYTES
from rulelang.cli import main
from rulelang.diagnostics import Diagnostic
from rulelang.loader import lint_text

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").rglob("*.rules"))
TEXTS = {path: path.read_text(encoding="utf-8") for path in GAMES}   # read once: a run sees one version
LOCATION = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[EWI]\d{3}) ", re.M)
TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\.\.|[=!<>+\-]=|\S')


def lint_cli(*paths, seconds: float = 10.0):
    """Run `rulelang lint` on ``paths``: (exit code, output, codes reported). Fails on a
    traceback, an uncaught exception or a run of more than ``seconds`` of this process's CPU
    (CPU, not the clock: other work on the machine, such as the browser tests beside it, must
    not make it fail)."""
    started = time.process_time()
    result = CliRunner().invoke(main, ["lint", *map(str, paths)])
    elapsed = time.process_time() - started
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert "rulelang failed on this file" not in result.output, result.output
    assert elapsed < seconds, f"lint took {elapsed:.1f} s"
    return result.exit_code, result.output, [m["code"] for m in LOCATION.finditer(result.output)]


def write(tmp_path, content, name="hostile.rules") -> Path:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def lines_of(text: str) -> list[str]:
    """The lines as the parser counts them: only '\\n' ends one."""
    return text.split("\n")


def assert_inside(diagnostic: Diagnostic, text: str) -> None:
    """The diagnostic's start lies inside ``text``: a line of it, a column of that line or
    just past its end."""
    lines = lines_of(text)
    span = diagnostic.span
    assert 1 <= span.line <= len(lines), str(diagnostic)
    assert 1 <= span.column <= len(lines[span.line - 1]) + 1, str(diagnostic)
    assert (span.end_line, span.end_column) >= (span.line, span.column), str(diagnostic)


# ---------------------------------------------------------------- hostile files, through the CLI

def test_empty_file_is_a_ruleset_without_phases(tmp_path):
    code, _output, codes = lint_cli(write(tmp_path, b""))
    assert code == 1 and codes == ["E304"]


def test_only_comments(tmp_path):
    code, _, codes = lint_cli(write(tmp_path, "# nothing here yet\n# really\n"))
    assert code == 1 and codes == ["E304"]


def test_binary_file(tmp_path):
    code, output, codes = lint_cli(write(tmp_path, bytes(range(256)) * 40))
    assert code == 1 and codes == ["E001"] and "not UTF-8" in output


def test_non_utf8_text_points_at_the_line_of_the_first_bad_byte(tmp_path):
    text = 'game "caf\u00e9" { players 2 }\nphase main {\n  log "cr\u00e8me"\n}\n'
    path = write(tmp_path, text.replace('game "caf\u00e9"', 'game "cafe"').encode("latin-1"))
    code, output, codes = lint_cli(path)
    assert code == 1 and codes == ["E001"] and f"{path}:3:1:" in output


def test_nul_and_control_characters_are_syntax_errors(tmp_path):
    code, _output, codes = lint_cli(write(tmp_path, 'game "x" { players 2 }\nphase main {\x00\x07 end game }\n'))
    assert code == 1 and codes == ["E002"]


def test_byte_order_mark_is_ignored(tmp_path):
    text = (ROOT / "games" / "tic_tac_toe.rules").read_text(encoding="utf-8")
    code, output, _codes = lint_cli(write(tmp_path, b"\xef\xbb\xbf" + text.encode("utf-8")))
    assert code == 0, output


def test_windows_line_ends_lint_like_unix_ones(tmp_path):
    text = (ROOT / "tests" / "lint" / "names_e101.rules").read_text(encoding="utf-8")
    unix = lint_cli(write(tmp_path, text, "unix.rules"))
    windows = lint_cli(write(tmp_path, text.replace("\n", "\r\n"), "windows.rules"))
    assert unix[0] == windows[0] == 1
    assert unix[1].replace("unix.rules", "X") == windows[1].replace("windows.rules", "X")


@pytest.mark.parametrize("cut", [0.1, 0.25, 0.5, 0.75, 0.9, 0.999])
@pytest.mark.parametrize("game", GAMES, ids=[p.stem for p in GAMES])
def test_truncated_games(tmp_path, game, cut):
    data = game.read_bytes()
    cut_at = int(len(data) * cut)
    path = write(tmp_path, data[:cut_at].decode("utf-8", errors="ignore"), game.name)
    for extra in game.parent.glob("*"):   # board files the ruleset loads
        if extra.is_dir() and not (tmp_path / extra.name).exists():
            (tmp_path / extra.name).symlink_to(extra)
    code, _output, codes = lint_cli(path)
    assert code in (0, 1) and (code == 1) == bool(codes)


@pytest.mark.parametrize("opening,closing", [("(", ")"), ("[", "]"), ("{", "}")])
def test_ten_thousand_deep_brackets(tmp_path, opening, closing):
    text = "phase main { let x = " + opening * 10_000 + "1" + closing * 10_000 + " }\n"
    code, _output, codes = lint_cli(write(tmp_path, text))
    assert code == 1 and codes == ["E005"]


CHAINS = {"not": "not " * 10_000 + "true", "minus": "-" * 10_000 + "1", "plus": "1" + " + 1" * 10_000,
          "attribute": "x" + ".y" * 10_000, "if": "if true then " * 10_000 + "1" + " else 2" * 10_000,
          "index": "a" + "[0]" * 10_000, "and": "true" + " and true" * 10_000}


@pytest.mark.parametrize("chain", CHAINS.values(), ids=CHAINS.keys())
def test_ten_thousand_deep_expressions(tmp_path, chain):
    text = f'game "deep" {{ players 2 }}\nphase main {{\n  let x = {chain}\n}}\n'
    code, output, codes = lint_cli(write(tmp_path, text))
    assert code == 1 and codes == ["E005"], output[:500]


def test_ten_thousand_deep_blocks(tmp_path):
    text = "phase main {\n" + "if true {\n" * 10_000 + "end game\n" + "}\n" * 10_001
    code, _output, codes = lint_cli(write(tmp_path, text))
    assert code == 1 and codes == ["E005"]


def test_fifty_megabytes_are_refused_by_size_at_once(tmp_path):
    path = tmp_path / "huge.rules"
    line = b"# " + b"x" * 97 + b"\n"
    with path.open("wb") as out:
        out.write(line * (50 * 1024 * 1024 // len(line)))
    code, output, codes = lint_cli(path, seconds=3)
    assert code == 1 and codes == ["E001"] and "KiB" in output


def test_largest_accepted_file_lints_in_seconds(tmp_path):
    statement = "  let x = 1 + 2 * 3 - 4\n"
    body = statement * ((MAX_BYTES - 100) // len(statement))
    path = write(tmp_path, 'game "big" { players 2 }\nphase main {\n' + body + "  end game\n}\n")
    assert path.stat().st_size <= MAX_BYTES
    code, output, _codes = lint_cli(path, seconds=30)
    assert code == 0, output[:500]


def test_a_huge_base_file_is_refused_too(tmp_path):
    write(tmp_path, b"# " + b"x" * (2 * MAX_BYTES) + b"\n", "base.rules")
    code, _output, codes = lint_cli(write(tmp_path, 'extends "base.rules"\n', "variant.rules"))
    assert code == 1 and codes == ["E001"]


def test_one_very_long_line(tmp_path):
    text = 'game "long" { players 2 }\nphase main { let x = [' + "1, " * 5_000 + "zzz] end game }\n"
    code, output, codes = lint_cli(write(tmp_path, text))
    assert code == 1 and codes == ["E101"]
    assert max(len(line) for line in output.splitlines()) < 300   # the source line is cut around the caret


def test_missing_path(tmp_path):
    code, _output, codes = lint_cli(tmp_path / "nope.rules")
    assert code == 1 and codes == ["E001"]


def test_directory_without_rulesets(tmp_path):
    (tmp_path / "notes.txt").write_text("not a ruleset")
    code, output, codes = lint_cli(tmp_path)
    assert code == 1 and codes == ["E001"] and "no rulesets" in output


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges on Windows")
def test_directory_with_a_symlink_loop(tmp_path):
    (tmp_path / "loop").symlink_to(tmp_path, target_is_directory=True)
    write(tmp_path, (ROOT / "games" / "tic_tac_toe.rules").read_bytes(), "game.rules")
    code, output, _codes = lint_cli(tmp_path)
    assert code == 0 and "in 1 file" in output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_named_pipe_is_not_read(tmp_path):
    fifo = tmp_path / "pipe.rules"
    os.mkfifo(fifo)
    code, output, codes = lint_cli(fifo, seconds=3)
    assert code == 1 and codes == ["E001"] and "not a regular file" in output


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root reads anything")
def test_unreadable_file(tmp_path):
    path = write(tmp_path, "phase main { end game }\n")
    path.chmod(0)
    code, _output, codes = lint_cli(path)
    assert code == 1 and codes == ["E001"]


def test_every_file_gets_its_own_diagnostics(tmp_path):
    empty = write(tmp_path, b"", "a.rules")
    binary = write(tmp_path, b"\xff\xfe\x00", "b.rules")
    code, _output, codes = lint_cli(empty, binary, tmp_path / "missing.rules")
    assert code == 1 and sorted(codes) == ["E001", "E001", "E304"]


# ---------------------------------------------------------------- mutated games

def check_lint(text: str, path: Path) -> list[Diagnostic]:
    """Lint ``text`` as if it were the file ``path``; no internal failure, every location in
    the file itself inside ``text``."""
    found = lint_text(text, str(path))
    crashes = [d for d in found if is_internal_error(d)]
    assert not crashes, str(crashes[0])
    for d in found:
        if Path(d.span.file) == path:
            assert_inside(d, text)
    return found


@st.composite
def mutated_games(draw):
    """(path, text): a game of games/ with one to three mutations."""
    path = draw(st.sampled_from(GAMES))
    text = TEXTS[path]
    for _ in range(draw(st.integers(1, 3))):
        mutation = draw(st.sampled_from([delete_line, duplicate_line, swap_lines, replace_token, cut]))
        text = draw(mutation(text))
    return path, text


@st.composite
def delete_line(draw, text):
    lines = text.split("\n")
    i = draw(st.integers(0, len(lines) - 1))
    return "\n".join(lines[:i] + lines[i + 1:])


@st.composite
def duplicate_line(draw, text):
    lines = text.split("\n")
    i = draw(st.integers(0, len(lines) - 1))
    return "\n".join(lines[: i + 1] + lines[i:])


@st.composite
def swap_lines(draw, text):
    lines = text.split("\n")
    i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


@st.composite
def replace_token(draw, text):
    """One token replaced by another of the same file, or by a stray one."""
    tokens = list(TOKEN.finditer(text))
    if not tokens:
        return text
    where = draw(st.sampled_from(tokens))
    other = draw(st.one_of(st.sampled_from(tokens).map(lambda m: m.group()),
                           st.sampled_from(["", "{", "}", "(", "]", ",", "0", "-1", '"', "none", "next", "\t"])))
    return text[: where.start()] + other + text[where.end():]


@st.composite
def cut(draw, text):
    return text[: draw(st.integers(0, len(text)))]


@settings(max_examples=int(os.environ.get("LINT_FUZZ_EXAMPLES", 150)), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_games())
def test_mutated_games_never_crash_the_linter(case):
    path, text = case
    check_lint(text, path)


@pytest.mark.parametrize("game", GAMES, ids=[p.stem for p in GAMES])
def test_games_cut_at_declarations(game):
    """Cut each game just before and in the middle of a dozen of its declarations, spread
    over the file (a cut before a declaration leaves a whole ruleset: every check runs)."""
    text = TEXTS[game]
    starts = [m.start() for m in re.finditer(r"^\S", text, re.M)] + [len(text)]
    step = max(1, len(starts) // 12)
    for start, end in list(itertools.pairwise(starts))[::step]:
        for at in (start, (start + end) // 2):
            check_lint(text[:at], game)


def test_internal_failures_are_told_apart_from_runtime_errors(monkeypatch):
    from rulelang.check import linter

    def explode(ctx):
        raise ValueError("boom")
    monkeypatch.setattr(linter, "STAGES", [linter.STAGES[0], explode])
    (found,) = lint_text("phase main { end game }\n", "t.rules")
    assert is_internal_error(found)
    assert not is_internal_error(Diagnostic("E602", "division by zero"))


@pytest.mark.parametrize("contents, message", [
    ("[c(v: i) for i in 1..1000000]", "has more than 100000 numbers"),
    ("[c(v: 1)] * 1000000", "makes more than 100000 items"),
    ("[c(v: i) for i in 1..90000 for j in 1..90000 if i == 0]", "went through more than"),
])
def test_explosive_decks_are_refused_quickly(tmp_path, contents, message):
    text = (f'game "x" {{ players 1 }}\ncomponent c {{ v: int }}\nzone z: c\ndeck d: c in z = {contents}\n'
            "phase p { end game }\n")
    exit_code, output, codes = lint_cli(write(tmp_path, text), seconds=5.0)
    assert exit_code == 1 and codes == ["E402"] and message in output
