"""The ASTs of files read before, kept on disk: a ruleset or a test file whose text, path
and reader are unchanged since it was last parsed is read back from rulelang's private
cache folder (``rulelang.files.cache_file``) in a few milliseconds instead of parsed again
(a tenth of a second and more for a seed game, half a second for its tests).

One cache file per path and grammar rule, holding the AST of the last text parsed there,
under a key that hashes the text, the path (the AST's spans name it), the grammar rule and
the source of everything that builds an AST (the grammars, the AST builder, the AST's
classes) with lark's version, so a change to any of them is a miss; Python's version is in
the file's name. Only ASTs are kept (a text with an error is parsed again, to say what is
wrong), whole or not at all, at most ``MAX_FILES`` of them (the oldest go). Texts without
a file (``<text>``) are not kept. A cache that cannot be read or written is a miss, never
an error.
"""
from __future__ import annotations

import hashlib
import importlib.util
import pickle
from collections.abc import Callable
from functools import cache
from pathlib import Path

from rulelang import ast
from rulelang.files import cache_file, prune_oldest, write_whole

MAX_FILES = 256
_PREFIX = "ast-"
_SOURCES = ("syntax/grammar.lark", "syntax/tests_grammar.lark", "syntax/ast_builder.py", "syntax/parser.py",
            "syntax/parts.py", "syntax/parse_cache.py", "ast.py", "scenario_ast.py", "nodes.py",
            "diagnostics.py")


def cached_parse(start: str, text: str, path: str, parse: Callable[[], ast.Node]) -> ast.Node:
    """The AST of ``text`` (read as ``path`` from grammar rule ``start``): the one kept when
    the same text was parsed there before, else ``parse()``, which is then kept."""
    if not path or path.startswith("<"):
        return parse()
    file = cache_file(_PREFIX + _digest(f"{start}\0{path}")[:24], "pickle")
    key = _digest(f"{_reader_version()}\0{start}\0{path}\0{text}")
    kept = _read(file, key)
    if kept is not None:
        return kept
    tree = parse()
    _keep(file, key, tree)
    return tree


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@cache
def _reader_version() -> str:
    """A hash of the sources that make an AST from a text, and of lark's ``__init__.py``
    (which holds its version: lark itself is not imported until a text is parsed)."""
    folder = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    lark = importlib.util.find_spec("lark")
    for file in [*(folder / name for name in _SOURCES), *([Path(lark.origin)] if lark and lark.origin else [])]:
        digest.update(file.read_bytes())
    return digest.hexdigest()


def _read(file: Path | None, key: str) -> ast.Node | None:
    """The AST kept in ``file`` under ``key``, or None."""
    try:
        if file is None or not file.is_file():
            return None
        kept = pickle.loads(file.read_bytes())   # our own private cache folder (mode 0o700), like lark's
    except Exception:   # a file cut short, from another version...: parse again
        return None
    if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == key and isinstance(kept[1], ast.Node):
        return kept[1]
    return None


def _keep(file: Path | None, key: str, tree: ast.Node) -> None:
    """Write ``tree`` under ``key`` to ``file`` (whole or not at all), then leave out the
    oldest ASTs beyond ``MAX_FILES``; no cache is no error."""
    if file is None:
        return
    try:
        data = pickle.dumps((key, tree), protocol=pickle.HIGHEST_PROTOCOL)
    except (RecursionError, pickle.PicklingError):
        return
    if write_whole(file, data):
        prune_oldest(file.parent, f"{_PREFIX}*-py{file.name.rsplit('-py', 1)[-1]}", MAX_FILES)
