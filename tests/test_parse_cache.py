"""The ASTs kept on disk (rulelang/syntax/parse_cache.py): a file's AST read back is the
one parsing gives, a changed text, path or grammar rule is parsed again, texts without a
file and texts with errors are never kept, a damaged cache file is a miss, and the folder
keeps at most MAX_FILES of them."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from rulelang import ast
from rulelang.diagnostics import Span
from rulelang.errors import RulesetError
from rulelang.syntax import parse_cache
from rulelang.syntax.parse_cache import cached_parse
from rulelang.syntax.parser import _parse_as

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*(ROOT / "games").glob("*.rules"), *(ROOT / "games").glob("*.tests")])


@pytest.fixture(autouse=True)
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "rulelang"


class Counted:
    """A parse that counts its calls and gives a small AST naming its text."""

    def __init__(self, text: str) -> None:
        self.text, self.calls = text, 0

    def __call__(self) -> ast.Node:
        self.calls += 1
        return ast.Literal(Span.point("f.rules", 1, 1), self.text)


def test_a_text_parsed_again_is_read_back() -> None:
    first, again = Counted("a"), Counted("a")
    assert cached_parse("start", "a", "/x/f.rules", first) == first()
    assert cached_parse("start", "a", "/x/f.rules", again) == ast.Literal(Span.point("f.rules", 1, 1), "a")
    assert (first.calls, again.calls) == (2, 0)


@pytest.mark.parametrize("change", ["text", "path", "start"])
def test_another_text_path_or_rule_is_parsed(change: str) -> None:
    cached_parse("start", "a", "/x/f.rules", Counted("a"))
    text, path, start = "a", "/x/f.rules", "start"
    text, path, start = {"text": ("b", path, start), "path": (text, "/y/f.rules", start),
                         "start": (text, path, "tests_file")}[change]
    fresh = Counted(text)
    assert cached_parse(start, text, path, fresh) == Counted(text)()
    assert fresh.calls == 1


def test_a_text_without_a_file_is_never_kept(cache_folder: Path) -> None:
    for _ in range(2):
        counted = Counted("a")
        cached_parse("start", "a", "<text>", counted)
        assert counted.calls == 1
    assert not list(cache_folder.glob("ast-*")) if cache_folder.exists() else True


def test_a_text_with_an_error_is_not_kept(cache_folder: Path) -> None:
    def failing() -> ast.Node:
        raise RulesetError([])
    with pytest.raises(RulesetError):
        cached_parse("start", "x", "/x/f.rules", failing)
    assert not list(cache_folder.glob("ast-*")) if cache_folder.exists() else True


@pytest.mark.parametrize("damage", [b"", b"not a pickle", pickle.dumps(("key", "not an AST")), pickle.dumps(42)])
def test_a_damaged_cache_file_is_a_miss(damage: bytes, cache_folder: Path) -> None:
    cached_parse("start", "a", "/x/f.rules", Counted("a"))
    (kept,) = cache_folder.glob("ast-*")
    kept.write_bytes(damage)
    fresh = Counted("a")
    assert cached_parse("start", "a", "/x/f.rules", fresh) == Counted("a")()
    assert fresh.calls == 1


def test_the_folder_keeps_at_most_max_files(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_cache, "MAX_FILES", 3)
    for i in range(6):
        cached_parse("start", "a", f"/x/f{i}.rules", Counted("a"))
    assert len(list(cache_folder.glob("ast-*"))) == 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_seed_file_read_back_is_its_parse(path: Path) -> None:
    start = "tests_file" if path.suffix == ".tests" else "start"
    text, shown = path.read_text(encoding="utf-8"), str(path)
    parsed = _parse_as(start, text, shown)
    kept = cached_parse(start, text, shown, lambda: _parse_as(start, text, shown))
    read_back = cached_parse(start, text, shown, lambda: pytest.fail("parsed again"))
    assert read_back is not kept
    assert read_back == parsed and repr(read_back) == repr(parsed)


def test_a_lint_of_files_parsed_before_imports_no_parser(tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys
    code = ("import sys, json\nfrom pathlib import Path\nfrom rulelang.loader import lint_file\n"
            "assert lint_file(Path('games/tic_tac_toe.rules')) == []\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('lark', 'rulelang.interpreter')))))")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=120) for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), runs[-1].stderr
    first, second = (json.loads(run.stdout.splitlines()[-1]) for run in runs)
    assert "lark" in first and second == []


def test_a_write_that_fails_leaves_no_partial_file(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(self: Path, data: bytes) -> int:
        Path.write_text(self, "cut short")   # (what a full disk leaves: part of the data)
        raise OSError(28, "No space left on device")

    parse = Counted("x")
    with monkeypatch.context() as patched:
        patched.setattr(Path, "write_bytes", full_disk)
        assert cached_parse("expr", "x", "f.rules", parse) == parse()   # (no cache is no error)
    assert parse.calls == 2
    assert not [file.name for file in cache_folder.iterdir()]
