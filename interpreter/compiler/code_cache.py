"""The code objects of a game's generated functions, kept on disk across runs.

Python's ``compile`` of the source the compiler writes (``Module.define``) is about a
sixth of the CPU that compiling a seed game's rules takes. A code object depends on
nothing but its source, its file name (``<rules:NAME>``, which ``Module.locate`` reads back
from tracebacks), the compiler flags (fixed here) and the Python that compiled it (its
version, its bytecode magic and its optimisation level, ``-O``); each is
kept under a hash of the first three, in a file of the cache folder
(``rulelang.files.cache_file``) named by Python's version, bytecode magic and optimisation
level and by the game it was compiled for (its files, its player counts): the next compile of that game
reads every unchanged function back (marshal) instead of compiling it again. The key is
the source itself, so a changed ruleset, other options or player count, or a changed
compiler finds no stale entry: a function whose source changed misses, and one whose
source is the same to the letter is the very code object it was (the generated code, the
``rulelang code`` listing, is written as before: only Python's compile of it is kept).
A file holds the functions of the last compile of its game, whole or not at all, at most
``MAX_FILES`` files (the oldest go); one that cannot be read, or is not what it should be,
is a miss, never an error.
"""
from __future__ import annotations
import __future__

import hashlib
import importlib.util
import marshal
import sys
import types
from pathlib import Path

from rulelang.files import cache_file, prune_oldest, write_whole

from .short_jumps import compiled as compiled_code

__all__ = ["FLAGS", "MAX_FILES", "CodeCache"]

MAX_FILES = 128
FLAGS = __future__.annotations.compiler_flag
"""The flags generated source is compiled with (module.py's own, which ``compile`` inherited
there before)."""
_PREFIX = "code-"
_FORM = "short-jumps"
"""What the code compiled from a source is besides the source (short_jumps.py rewrites
tests; a code object kept before that is not found)."""


class CodeCache:
    """The code objects kept for one game (``group``: what names it, its files and player
    counts), and those compiled or read back by this compile, which ``keep`` writes."""

    def __init__(self, group: str):
        python = f"{importlib.util.MAGIC_NUMBER.hex()}\0{sys.flags.optimize}"
        self.file = cache_file(_PREFIX + _digest(f"{python}\0{group}")[:24], "marshal")
        self.kept = _read(self.file)
        self.used: dict[bytes, types.CodeType] = {}
        self.missed = 0

    def compiled(self, source: str, filename: str) -> types.CodeType:
        """The code of ``source`` compiled as ``filename`` (a SyntaxError as ``compile``
        raises it): the one kept, if any, else compiled now."""
        key = hashlib.sha256(f"{_FORM}\0{filename}\0{source}".encode("utf-8", "surrogatepass")).digest()
        code = self.kept.get(key)
        if code is None:
            code = compiled_code(source, filename, FLAGS)
            self.missed += 1
        self.used[key] = code
        return code

    def keep(self) -> None:
        """Write the code objects of this compile, unless they are those read (no cache is no
        error)."""
        if self.file is None or (not self.missed and len(self.used) == len(self.kept)):
            return
        try:
            data = marshal.dumps(self.used)
        except ValueError:
            return
        if write_whole(self.file, data):
            prune_oldest(self.file.parent, f"{_PREFIX}*-py{self.file.name.rsplit('-py', 1)[-1]}", MAX_FILES)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _read(file: Path | None) -> dict[bytes, types.CodeType]:
    """The code objects kept in ``file``, by key; none when it cannot be read or holds
    anything else."""
    try:
        if file is None or not file.is_file():
            return {}
        kept = marshal.loads(file.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(kept, dict) or not all(type(key) is bytes and len(key) == 32 and type(code) is types.CodeType
                                             for key, code in kept.items()):
        return {}
    return kept
