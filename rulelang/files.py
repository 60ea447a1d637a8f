"""Confined file access: the one place where rulelang reads a file named by a ruleset.

A ruleset names other files in two places, ``extends "..."`` and ``load_board("...")``.
Such a name is resolved relative to the folder of the file that contains it and must stay
inside a root folder (by default the folder of the ruleset loaded first). Refused: absolute
paths, ``..`` that leads out of the root, symbolic links that lead out of the root,
anything that is not a regular file (a directory, a named pipe, a device) and files larger
than a limit. The file itself is checked with ``os.stat`` before it is opened, and opened
without blocking, so a named pipe never hangs a load.

Errors are ``FileAccessError``: the caller turns one into its diagnostic (E001 for a
ruleset, E501 for a base, E401 for a board). Its message names the path and the reason and
never holds any of the file's content.

The module also names rulelang's private cache folder (``cache_file``), where what is slow
to build and the same on every start is kept, and compiles JSON Schemas to code kept there
(``compiled_schema``).
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import marshal
import os
import stat
import sys
import threading
import types
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import cast

MAX_RULESET_BYTES = 256 * 1024   # twenty times the largest shipped game; parsing more takes seconds
MAX_BOARD_BYTES = 1024 * 1024    # a board file (YAML or JSON)


class FileAccessError(Exception):
    """A file named by a ruleset that cannot or may not be read; ``reason`` says why."""

    def __init__(self, shown: str, reason: str):
        super().__init__(f"{shown}: {reason}")
        self.shown = shown
        self.reason = reason


def real_path(path: str) -> str:
    """``os.path.realpath(path)``, or ``path`` itself for a name no file can have (a NUL in it)."""
    return path if "\0" in path else os.path.realpath(path)


def resolved(path: Path) -> Path:
    """``path`` with every symbolic link resolved; never raises for a link loop."""
    return Path(os.path.realpath(path))


def inside(path: Path, root: Path) -> bool:
    """Whether ``path`` is ``root`` or lies under it (both already resolved)."""
    return path == root or root in path.parents


def confined_path(name: str, folder: Path, root: Path) -> Path:
    """The real path of the file ``name`` written in a file of ``folder``, which must lie in
    ``root``; FileAccessError for an absolute name or one that leads out of the root."""
    if not name or "\0" in name:
        raise FileAccessError(repr(name), "not a file name")
    if PurePosixPath(name).is_absolute() or PureWindowsPath(name).is_absolute() or PureWindowsPath(name).drive:
        raise FileAccessError(name, "absolute paths are not allowed; write a path relative to this file")
    real_root = resolved(root)
    lexical = Path(os.path.normpath(resolved(folder) / name))
    if not inside(lexical, real_root):
        raise FileAccessError(name, f"the path leads out of the root folder {real_root} "
                                    "(widen it with root= or --root)")
    target = resolved(lexical)
    if not inside(target, real_root):
        raise FileAccessError(name, f"the path is a symbolic link that leads out of the root folder {real_root}")
    return target


def read_confined(path: Path, what: str, limit: int, shown: str | None = None) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``), else FileAccessError.
    ``what`` ("ruleset", "board file") words the size message; ``shown`` names the file."""
    name = shown if shown is not None else str(path)
    try:
        info = os.stat(path)
    except (OSError, ValueError) as error:
        raise FileAccessError(name, _reason(error)) from None
    if stat.S_ISDIR(info.st_mode):
        raise FileAccessError(name, "is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise FileAccessError(name, "not a regular file (a device, a named pipe or a socket)")
    if info.st_size > limit:
        raise FileAccessError(name, f"the file is larger than {_size(limit)}, the limit for a {what}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise FileAccessError(name, _reason(error)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):   # replaced between the two checks
            raise FileAccessError(name, "not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise FileAccessError(name, _reason(error)) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileAccessError(name, f"the file is larger than {_size(limit)}, the limit for a {what}")
    return data


def decode_text(data: bytes) -> str:
    """UTF-8 text (a leading byte-order mark dropped); UnicodeDecodeError otherwise."""
    return data.decode("utf-8-sig")


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        return {errno.ENOENT: "no such file", errno.EACCES: "permission denied",
                errno.ENOTDIR: "a folder on the path is a file", errno.EISDIR: "is a directory, not a file",
                errno.ELOOP: "too many levels of symbolic links"}.get(
                    error.errno or 0, error.strerror or "cannot read it")
    return "not a file name"


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit % (1024 * 1024) == 0 else f"{limit // 1024} KiB"


def cache_file(name: str, suffix: str) -> Path | None:
    """The file ``NAME-pyXY.SUFFIX`` of rulelang's private cache folder
    (``$XDG_CACHE_HOME/rulelang``, made with mode 0o700), where what is slow to build and the
    same on every start is kept (the analysed grammar, the compiled board schema), one file a
    Python version (X.Y) since what is kept is Python's; None when there is no such place."""
    try:
        home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulelang"
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        return home / f"{name}-py{sys.version_info[0]}{sys.version_info[1]}.{suffix}"
    except (OSError, RuntimeError):
        return None


def compiled_schema(name: str, schema: Mapping[str, object]) -> Callable[[object], object]:
    """The JSON Schema ``schema`` as a Python function, written by fastjsonschema (the very
    function ``fastjsonschema.compile`` gives, raising the same errors), whose compiled code
    is kept in the cache folder as ``NAME-KEY`` (KEY: a hash of the schema and of
    fastjsonschema's version): writing it takes tens of milliseconds, loading it one or two."""
    import fastjsonschema
    from fastjsonschema.ref_resolver import RefResolver

    text = json.dumps(schema, sort_keys=True) + fastjsonschema.VERSION
    file = cache_file(f"{name}-{hashlib.sha256(text.encode()).hexdigest()[:16]}", "marshal")
    kept = _kept_code(file)
    if kept is None:
        root = RefResolver.from_schema(dict(schema), store={}).get_scope_name()   # as compile() finds it
        kept = root, compile(fastjsonschema.compile_to_code(dict(schema)), f"<{name}>", "exec")
        _keep_code(file, kept)
    namespace: dict[str, object] = {}
    exec(kept[1], namespace)   # the code fastjsonschema wrote from one of our own schemas
    return cast("Callable[[object], object]", namespace[kept[0]])


def _kept_code(file: Path | None) -> tuple[str, types.CodeType] | None:
    """The name of the root function and the code kept in ``file``, or None."""
    try:
        if file is None or not file.is_file():
            return None
        kept = marshal.loads(file.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[0], str) \
            and isinstance(kept[1], types.CodeType):
        return kept[0], kept[1]
    return None


def _keep_code(file: Path | None, kept: tuple[str, types.CodeType]) -> None:
    """Write ``kept`` to ``file`` (whole or not at all); no cache is no error."""
    if file is not None:
        write_whole(file, marshal.dumps(kept))


def write_whole(file: Path, data: bytes) -> bool:
    """Write ``data`` to ``file`` whole or not at all (a file of its own, named by the process
    and the thread, then put in ``file``'s place): whether it was written. A write that fails
    (a full disk, a folder gone) leaves no partial file; no cache is no error."""
    partial = file.with_name(f"{file.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        partial.write_bytes(data)
        os.replace(partial, file)
        return True
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        return False


def prune_oldest(folder: Path, pattern: str, keep: int) -> None:
    """Remove the least recently written files of ``folder`` that match ``pattern`` (glob)
    beyond the ``keep`` newest (at the first that cannot be removed, the rest are left)."""
    files = list(folder.glob(pattern))
    if len(files) <= keep:
        return
    with contextlib.suppress(OSError):   # (one that cannot be removed leaves the rest)
        for old in sorted(files, key=_written)[:len(files) - keep]:
            old.unlink(missing_ok=True)


def _written(file: Path) -> float:
    try:
        return file.stat().st_mtime
    except OSError:
        return 0.0
