"""The linter: every problem of a ruleset, found before it runs, as diagnostics.

Stages run in pipeline order: parse, merge variants, static checks (settings, names,
kinds), the linter's own warnings, the graph checks, then an optional data check. Each
stage is a small function in ``STAGES`` taking a ``LintContext`` and yielding diagnostics;
the driver guards each one, so no input ever ends in a traceback (an unexpected failure
becomes an E602 diagnostic naming the file, told apart by ``is_internal_error``).

The linter is front end: it never imports the runtime. The problems only building the
data can show (a deck that makes no components, or not its declared size) come from a
``data_check`` the caller passes in; ``rulelang.loader``'s lint functions pass the runtime's.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulelang import ast
from rulelang.check.checker import check
from rulelang.check.settings import Settings, read_settings
from rulelang.check.tree import bound_names, walk
from rulelang.diagnostics import Diagnostic, Span, errors_in
from rulelang.errors import BUG_HINT, RulesetError
from rulelang.files import real_path
from rulelang.memory import collector_paused

DataCheck = Callable[[list[ast.Decl], Settings, Path], Iterable[Diagnostic]]


@dataclass
class LintContext:
    """What the stages share: the file, its declarations once merged, what was found so far."""

    text: str
    path: str
    base_dir: Path
    data_check: DataCheck | None = None
    root: Path | None = None
    declarations: list[ast.Decl] | None = None
    found: list[Diagnostic] = field(default_factory=list)

    @property
    def decls(self) -> list[ast.Decl]:
        """The merged declarations (the stages after parsing run only once there are some)."""
        if self.declarations is None:
            raise RuntimeError("no declarations: the parse stage did not run")
        return self.declarations


def _stage_parse(ctx: LintContext) -> Iterable[Diagnostic]:
    from rulelang.check.variants import resolve
    from rulelang.syntax.parser import parse
    ruleset = parse(ctx.text, ctx.path)
    chain = (real_path(ctx.path),)
    ctx.declarations = resolve(ruleset, ctx.base_dir, chain, ctx.root)
    if ctx.root is not None:   # the files the ruleset names are read relative to the root now
        ctx.base_dir = ctx.root
    return ()


def _stage_check(ctx: LintContext) -> Iterable[Diagnostic]:
    return check(ctx.decls, ctx.path, ctx.base_dir, lint=True)


GLOBAL_KINDS = (ast.VarDecl, ast.ZoneDecl, ast.DeckDecl, ast.EnumDecl, ast.SupplyDecl, ast.DieDecl, ast.BoardDecl)


def _global_names(declarations: Sequence[ast.Decl]) -> dict[str, ast.Decl]:
    """Names usable bare anywhere: shared variables and zones, decks, enums and their values..."""
    names: dict[str, ast.Decl] = {}
    for d in declarations:
        if isinstance(d, GLOBAL_KINDS) and getattr(d, "owner", None) is None:
            names.setdefault(d.name, d)
        if isinstance(d, ast.EnumDecl):
            for value in d.values:
                names.setdefault(value, d)
    return names


def _stage_shadowing(ctx: LintContext) -> Iterable[Diagnostic]:
    """W106: a local name (let, for, choose, a parameter...) that hides a declaration."""
    names = _global_names(ctx.decls)
    for node in walk(tuple(ctx.decls)):
        for local in bound_names(node):
            if local in names:
                hidden = names[local]
                yield Diagnostic("W106", f"local name '{local}' hides the {hidden.kind} '{local}' "
                                         f"declared at line {hidden.span.line}",
                                 node.name_span if isinstance(node, ast.Decl) else node.span,
                                 hint="rename the local name")


UNUSED_KINDS = (ast.VarDecl, ast.ZoneDecl, ast.SupplyDecl, ast.DieDecl, ast.EnumDecl, ast.ComponentDecl,
                ast.FunctionDecl)


def _referenced(declarations: Sequence[ast.Decl]) -> set[str]:
    """Every name that some expression, statement, type or setting mentions."""
    found: set[str] = set()
    for node in walk(tuple(declarations)):
        for attr in ("name", "function", "supply", "die", "procedure", "phase"):
            if attr == "name" and not isinstance(node, (ast.Name, ast.Attribute, ast.TypeRef)):
                continue
            value = getattr(node, attr, None)
            if isinstance(value, str):
                found.add(value)
        if isinstance(node, ast.DeckDecl):
            found.add(node.zone)
    return found


def _stage_unused(ctx: LintContext) -> Iterable[Diagnostic]:
    """W107: a variable, zone, supply, die, enum, component or function that nothing mentions."""
    used = _referenced(ctx.decls)
    for d in ctx.decls:
        if not isinstance(d, UNUSED_KINDS) or d.name in used:
            continue
        if isinstance(d, ast.EnumDecl) and used & set(d.values):
            continue
        yield Diagnostic("W107", f"{d.kind} '{d.name}' is declared but never used", d.name_span or d.span,
                         hint="remove it, or use it")


def _stage_leaks(ctx: LintContext) -> Iterable[Diagnostic]:
    from rulelang.check.leaks import information_leaks
    return information_leaks(ctx.decls)


def _stage_graph(ctx: LintContext) -> Iterable[Diagnostic]:
    from rulelang.check.graph import graph_diagnostics
    found: Iterable[Diagnostic] = graph_diagnostics(ctx.decls, ctx.path)
    return found


# Errors that leave the declarations sound enough to build the data and report more.
INDEPENDENT_ERRORS = {"E206", "E208"}


def _stage_data(ctx: LintContext) -> Iterable[Diagnostic]:
    """The caller's data check (decks built from their declarations...), once the ruleset
    has no error that would stop building its data."""
    if ctx.data_check is None or any(d.code not in INDEPENDENT_ERRORS for d in errors_in(ctx.found)):
        return ()
    settings, _ = read_settings(ctx.decls, ctx.path)
    return ctx.data_check(ctx.decls, settings, ctx.base_dir)


Stage = Callable[[LintContext], Iterable[Diagnostic]]

STAGES: list[Stage] = [_stage_parse, _stage_check, _stage_shadowing, _stage_unused, _stage_leaks, _stage_graph,
                       _stage_data]


@collector_paused()   # (linear in the file's size: see rulelang/memory.py)
def lint_text(text: str, path: str = "<text>", data_check: DataCheck | None = None,
              root: str | Path | None = None) -> list[Diagnostic]:
    """Every diagnostic for the ruleset ``text`` (shown as ``path``), sorted by location;
    ``data_check`` finds the problems of its data when it has no other error.

    A file is linted under its full path, the name variants give their base, so a base
    that is also linted on its own is parsed once; diagnostics show ``path`` again."""
    is_file = bool(path) and not path.startswith("<") and "\0" not in path
    full = os.path.realpath(path) if is_file else path
    folder = Path(full).parent if is_file else Path.cwd()
    ctx = LintContext(text, full, folder, data_check, Path(root) if root is not None else folder)
    for stage in STAGES:
        if not _run_stage(stage, ctx):
            break
    return sort_diagnostics([_shown_as(d, full, path) for d in ctx.found], path)


def _shown_as(diagnostic: Diagnostic, full: str, path: str) -> Diagnostic:
    """``diagnostic`` with the full path of the linted file (and of the files beside or
    below it: a base, a board) written as the user gave it."""
    if full == path:
        return diagnostic
    span = diagnostic.span
    if span is not None:
        span = replace(span, file=_shown_file(span.file, full, path))
    hint = diagnostic.hint.replace(full + ":", path + ":") if diagnostic.hint else diagnostic.hint
    return replace(diagnostic, span=span, hint=hint)


def _shown_file(file: str, full: str, path: str) -> str:
    if file == full:
        return path
    folder = os.path.dirname(full) + os.sep
    return os.path.join(os.path.dirname(path), file[len(folder):]) if file.startswith(folder) else file


def _run_stage(stage: Stage, ctx: LintContext) -> bool:
    """Run one stage into ``ctx.found``; False when the later stages cannot run."""
    try:
        ctx.found.extend(stage(ctx))
        return True
    except RulesetError as error:
        ctx.found.extend(error.diagnostics)
    except RecursionError:
        ctx.found.append(Diagnostic("E005", "the text nests too deeply", Span.point(ctx.path, 1, 1)))
    except Exception as error:
        ctx.found.append(internal_error(error, ctx.path))
    return ctx.declarations is not None


INTERNAL = "rulelang failed on this file"


def internal_error(error: BaseException, path: str) -> Diagnostic:
    """The diagnostic for a failure inside rulelang itself."""
    return Diagnostic("E900", f"{INTERNAL}: {type(error).__name__}: {error}", Span.point(path, 1, 1), hint=BUG_HINT)


def is_internal_error(diagnostic: Diagnostic) -> bool:
    """Whether ``diagnostic`` reports a failure of rulelang itself, not a problem of the rules."""
    return diagnostic.code == "E900"


def sort_diagnostics(diagnostics: Iterable[Diagnostic], path: str = "<text>") -> list[Diagnostic]:
    """Diagnostics with a location each, without repeats, sorted by file, line, column, code."""
    unique: dict[tuple[str, str, int, int, str], Diagnostic] = {}
    for d in diagnostics:
        located = d.with_file(path)
        span = _span_of(located)
        unique.setdefault((located.code, span.file, span.line, span.column, located.message), located)
    return sorted(unique.values(), key=_location_key)


def _span_of(diagnostic: Diagnostic) -> Span:
    return diagnostic.span if diagnostic.span is not None else Span.point("<text>", 1, 1)


def _location_key(diagnostic: Diagnostic) -> tuple[str, int, int, str]:
    span = _span_of(diagnostic)
    return span.file, span.line, span.column, diagnostic.code


def read_ruleset_file(path: Path) -> tuple[str | None, list[Diagnostic]]:
    """(text, []) for a readable UTF-8 file of reasonable size, else (None, [E001])."""
    from rulelang.check.variants import read_source
    try:
        return read_source(path, str(path)), []
    except RulesetError as error:
        return None, error.diagnostics


def lint_file(path: Path, data_check: DataCheck | None = None,
              root: str | Path | None = None) -> list[Diagnostic]:
    """Every diagnostic for one ruleset file (``data_check``, ``root``: as for ``lint_text``)."""
    text, problems = read_ruleset_file(path)
    if text is None:
        return problems
    return lint_text(text, str(path), data_check, root)


def collect_rulesets(paths: Iterable[str | Path], suffixes: tuple[str, ...] = (".rules",),
                     what: str = "rulesets (*.rules)") -> tuple[list[Path], list[Diagnostic]]:
    """The ruleset files (or the files of other ``suffixes``, ``what`` they are) named by
    ``paths`` (directories searched recursively) and E001 diagnostics for paths that do not
    exist or hold no such file."""
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in suffixes and p.is_file())
            if not found:
                problems.append(Diagnostic("E001", f"no {what} in directory {raw}",
                                           Span.point(str(raw), 1, 1)))
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            problems.append(Diagnostic("E001", f"no such file or directory: {raw}", Span.point(str(raw), 1, 1)))
    return list(dict.fromkeys(files)), problems


def lint_paths(paths: Iterable[str | Path], data_check: DataCheck | None = None,
               root: str | Path | None = None) -> list[Diagnostic]:
    """Every diagnostic for the files and directories ``paths``, sorted by location
    (``data_check``: as for ``lint_text``)."""
    files, found = collect_rulesets(paths)
    for file in files:
        found.extend(lint_file(file, data_check, root))
    return sort_diagnostics(found)
