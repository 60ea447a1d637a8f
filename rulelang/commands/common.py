"""What the commands of the command line share: the options' limits and help, whether a
stream is a terminal, and loading a ruleset or its game, with its problems printed as lint
prints them (and exit 1) when it cannot be loaded.

The command line must start at once (``rulelang --help``): the modules of this package
import the front end and the runtime inside the commands that need them, never at the top."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from rulelang.diagnostics import Diagnostic, errors_in
from rulelang.errors import RulesetError

if TYPE_CHECKING:
    from rulelang.ast import Decl
    from rulelang.interpreter import Game

COMMAND_STARTED = time.perf_counter()   # the command line's start: this module is among its first imports
SEED_LIMIT = 2**63 - 1   # seeds of simulate and play lie in -SEED_LIMIT..SEED_LIMIT
ROOT_HELP = ("The folder that files named by the ruleset (extends, load_board) must lie in. "
             "Default: the current folder when the ruleset lies in it, else the ruleset's folder.")


def command_root(path: str | Path, root: str | None) -> str | None:
    """The root of a ruleset or test file a command reads: ``--root`` when given; else the
    current folder when the file lies in it (the project a person works in, where a variant
    of ``examples/`` may extend a ruleset of ``games/``); else None: the file's own folder,
    as ``load`` takes it."""
    if root is not None:
        return root
    here = Path.cwd().resolve()
    return str(here) if here in Path(path).resolve().parents else None


def is_terminal(stream_name: str) -> bool:
    """Whether ``sys.<stream_name>`` is a terminal that may be coloured (NO_COLOR unset)."""
    stream = getattr(sys, stream_name)
    return bool(getattr(stream, "isatty", lambda: False)()) and "NO_COLOR" not in os.environ


def fail(diagnostics: Iterable[Diagnostic], path: str) -> NoReturn:
    """Print diagnostics as lint does, to stderr, and exit 1."""
    from rulelang.check.linter import sort_diagnostics
    from rulelang.report import SourceCache, render_text
    colour = is_terminal("stderr")
    text = render_text(sort_diagnostics(diagnostics, path), 1, SourceCache(), colour)
    click.echo(text, nl=False, err=True, color=colour)
    sys.exit(1)


def declarations(path: str, root: str | None = None) -> list[Decl]:
    """The merged declarations of ``path``, or diagnostics on stderr and exit 1."""
    from rulelang.check.linter import internal_error
    from rulelang.loader import lint_file, read_ruleset
    root = command_root(path, root)
    problems = errors_in(lint_file(Path(path), root))
    if problems:
        fail(problems, path)
    try:
        return read_ruleset(Path(path), root=root)[0]
    except RulesetError as error:
        fail(error.diagnostics, path)
    except Exception as error:
        fail([internal_error(error, path)], path)


def load_game(path: str, players: int | None, root: str | None = None) -> Game:
    """The Game of ``path``, or diagnostics on stderr and exit 1."""
    from rulelang.check.linter import internal_error
    from rulelang.loader import load
    root = command_root(path, root)
    declarations(path, root)
    try:
        return load(Path(path), players=players, root=root)
    except RulesetError as error:
        fail(error.diagnostics, path)
    except Exception as error:
        fail([internal_error(error, path)], path)
