"""The rulesets a server shares among its sessions: the paths its clients name, confined to
the root folder (P007 otherwise), the games loaded from them (kept until their file changes),
and the list of ruleset files under the root with their titles and player ranges.
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulelang.check.settings import read_settings
from rulelang.diagnostics import Diagnostic
from rulelang.errors import RulesetError
from rulelang.files import inside, resolved
from rulelang.loader import load, read_ruleset

from ..game import Game
from .budgets import RulesetBudget
from .protocol import JSON, ProtocolError, check_encodable, shorten

GAMES_CACHED = 32              # loaded rulesets a server keeps for its sessions
MAX_RULESETS = 500             # ruleset files 'rulesets' lists at most
MAX_FOLDERS_SCANNED = 5000     # folders 'rulesets' looks in at most
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "site-packages"})
RULESET_SUFFIX = ".rules"


@dataclass
class GameLibrary:
    """The rulesets a server has loaded, shared by its sessions: a ruleset file is read again
    only when its size or time changes. ``root`` confines the paths clients may name."""

    root: Path | None = None
    budget: RulesetBudget = field(default_factory=RulesetBudget)
    cached: OrderedDict[tuple[str, int, int, int | None], Game] = field(default_factory=OrderedDict)
    summaries: dict[tuple[str, int, int], JSON] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)   # the tables above, for sessions in threads
    loading: dict[tuple[str, int, int, int | None], threading.Lock] = field(default_factory=dict)

    def game(self, name: str, players: int | None) -> Game:
        """The Game of the ruleset file ``name`` (relative to the root, or to the server's
        folder without one) for ``players``; RulesetError or ProtocolError P007 if refused."""
        path = self.path_of(name)
        try:
            info = os.stat(path)
        except OSError:
            return load(path, players, root=self.root)   # the engine says why it cannot be read
        key = (os.path.realpath(path), info.st_mtime_ns, info.st_size, players)
        with self.lock:
            loading = self.loading.setdefault(key, threading.Lock())
        with loading:   # one load of a ruleset at a time: the sessions asking for it meanwhile wait for it
            with self.lock:
                game = self.cached.get(key)
            if game is None:
                game = self.within_budget(name, lambda: load(path, players, root=self.root))
            with self.lock:
                self.cached[key] = game
                self.cached.move_to_end(key)
                while len(self.cached) > GAMES_CACHED:
                    self.cached.popitem(last=False)
                self.loading.pop(key, None)
        return game

    def path_of(self, name: str) -> Path:
        """The path the client names; P007 when it leads out of the root."""
        check_encodable(name, "the path")   # no file name is made of text that is not
        if "\0" in name or not name:
            raise ProtocolError("P007", f"{name!r} is not a file name")
        path = (self.root or Path()) / name
        if self.root is not None and not inside(resolved(path), resolved(self.root)):
            raise ProtocolError("P007", f"{name}: the path leads out of the server's root folder")
        return path

    def game_of_text(self, name: str, text: str, players: int | None) -> Game:
        """The Game of ``text`` read as the ruleset file ``name`` (its ``extends`` and boards
        resolve from that file's folder); never cached: an editor's text changes."""
        path = self.path_of(name)
        self.budget.check_size(text)
        try:
            return self.within_budget(name, lambda: load(text, players, path=str(path), root=self.root))
        except RulesetError as error:   # located as the client named the files, as 'lint' does
            raise RulesetError([self.as_named(d, str(path), name) for d in error.diagnostics]) from None

    def within_budget(self, name: str, loading: Callable[[], Game]) -> Game:
        """The game that ``loading`` makes, within the server's budget (P012 past its time),
        held to the server's bound on steps."""
        return self.budget.capped(self.budget.within_load_time(f"loading {shorten(name)}", loading))

    def as_named(self, diagnostic: Diagnostic, full: str, name: str) -> Diagnostic:
        """``diagnostic`` with its file as a client of the root names it (``shown_file``)."""
        if diagnostic.span is None:
            return diagnostic
        file = shown_file(diagnostic.span.file, full, name, self.root)
        return replace(diagnostic, span=replace(diagnostic.span, file=file))

    def ruleset_file(self, name: str) -> Path:
        """The path of the ruleset file ``name``: P007 unless it names a ``.rules`` file in the
        root that is no symbolic link and, resolved, a regular ``.rules`` file (or none yet)."""
        if not name.endswith(RULESET_SUFFIX):
            raise ProtocolError("P007", f"{shorten(name)}: not a ruleset file (*{RULESET_SUFFIX})")
        path = self.path_of(name)
        if path.is_symlink():
            raise ProtocolError("P007", f"{shorten(name)}: a symbolic link, not a ruleset file")
        real = resolved(path)
        if not real.name.endswith(RULESET_SUFFIX) or (os.path.lexists(real) and not real.is_file()):
            raise ProtocolError("P007", f"{shorten(name)}: not a regular ruleset file")
        return path

    def as_client_error(self, error: RulesetError) -> RulesetError:
        """``error`` with the root's folder left out of its files, messages and hints (a client
        sees paths relative to the root, never where the root lies)."""
        if self.root is None:
            return error
        return RulesetError([self.relative_diagnostic(d, files=True) for d in error.diagnostics])

    def relative_diagnostic(self, diagnostic: Diagnostic, files: bool = False) -> Diagnostic:
        """One diagnostic with the root's folder left out of its message, hint and notes
        (and of its file, with ``files``)."""
        hint = None if diagnostic.hint is None else self.without_root(diagnostic.hint)
        span = diagnostic.span
        if files and span is not None:
            span = replace(span, file=self.without_root(span.file))
        return replace(diagnostic, message=self.without_root(diagnostic.message), hint=hint, span=span,
                       notes=tuple(self.without_root(note) for note in diagnostic.notes))

    def without_root(self, text: str) -> str:
        """``text`` with every spelling of the root's folder (and the "/" after it) left out."""
        if self.root is None:
            return text
        for spelling in sorted({str(resolved(self.root)), os.path.abspath(self.root), str(self.root)},
                               key=len, reverse=True):
            if spelling not in ("", "."):
                text = text.replace(spelling + os.sep, "").replace(spelling, ".")
        return text

    def rulesets(self) -> list[JSON]:
        """Every ruleset file under the root (or the working folder), sorted, at most
        MAX_RULESETS: its path relative to the root, its title and its player range."""
        top = self.root or Path()
        return [self.summary(top, name) for name in ruleset_names(top)]

    def summary(self, top: Path, name: str) -> JSON:
        """A ruleset's path, title and player range (None when it does not read), kept
        until its file changes."""
        path = top / name
        info = os.stat(path)
        key = (os.path.realpath(path), info.st_mtime_ns, info.st_size)
        with self.lock:
            known = self.summaries.get(key)
        if known is None:
            known = ruleset_summary(path, self.root)
            with self.lock:
                if len(self.summaries) >= 4 * MAX_RULESETS:   # mostly files that changed since
                    self.summaries.clear()
                self.summaries[key] = known
        return {"path": name, **known}


def ruleset_names(top: Path) -> list[str]:
    """The ``.rules`` files under ``top`` as paths relative to it with "/", sorted; hidden
    folders, virtual environments and links out of ``top`` skipped; at most MAX_RULESETS."""
    found: list[str] = []
    real_top = resolved(top)
    for scanned, (folder, folders, files) in enumerate(os.walk(top)):
        if scanned >= MAX_FOLDERS_SCANNED:   # a root far too large (a home folder): what was found so far
            break
        folders[:] = sorted(f for f in folders if not skipped_folder(Path(folder) / f))
        for file in files:
            path = Path(folder) / file
            if file.endswith(RULESET_SUFFIX) and not file.startswith(".") and inside(resolved(path), real_top) \
                    and path.is_file():
                found.append(path.relative_to(top).as_posix())
    return sorted(found)[:MAX_RULESETS]


def skipped_folder(folder: Path) -> bool:
    """A folder 'rulesets' does not look in: hidden, a virtual environment, installed packages."""
    return folder.name.startswith(".") or folder.name in SKIPPED_FOLDERS or (folder / "pyvenv.cfg").exists()


def ruleset_summary(path: Path, root: Path | None) -> JSON:
    """The title and player range of a ruleset file; its file name and None when it does not read."""
    try:
        declarations, _, shown = read_ruleset(path, root=root)
        settings, problems = read_settings(declarations, shown)
    except Exception:   # any problem of the file: the list shows it as not loading
        return {"title": path.stem, "players": None}
    if any(problem.severity == "error" for problem in problems):
        return {"title": settings.title or path.stem, "players": None}
    return {"title": settings.title or path.stem, "players": list(settings.players)}


def shown_file(file: str, full: str, name: str, root: Path | None) -> str:
    """``file`` as a client of the root sees it: ``name`` for the linted file, a path
    relative to the root for another file in it."""
    if file == full:
        return name
    if root is not None and inside(resolved(Path(file)), resolved(root)):
        return resolved(Path(file)).relative_to(resolved(root)).as_posix()
    return file


def write_ruleset(path: Path, data: bytes) -> None:
    """Write ``data`` to the ruleset file ``path``, never through a symbolic link (not even a
    dangling one: ``O_NOFOLLOW``); OSError otherwise."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
