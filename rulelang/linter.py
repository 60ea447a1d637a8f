"""The linter: every problem of a ruleset, found before it runs, as diagnostics.

Stages run in pipeline order: parse, merge variants, static checks, building the game
for its lowest player count (which lowers every procedure), then the graph checks. Each
stage is a small function in ``STAGES`` taking a ``LintContext`` and yielding diagnostics;
the driver guards each one, so no input ever ends in a traceback (an unexpected failure
becomes an E602 diagnostic naming the file, told apart by ``is_internal_error``). The
static checks run both those of loading and the linter's own (kinds, empty choices).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import ast
from .checker import BINDERS, check, walk
from .diagnostics import Diagnostic, Span, errors_in
from .errors import RulesetError

NUMBER_SETTINGS = ("max_decisions", "max_steps")


@dataclass
class LintContext:
    """What the stages share: the file, its declarations once merged, what was found so far."""

    text: str
    path: str
    base_dir: Path
    declarations: list | None = None
    found: list = field(default_factory=list)


def _stage_parse(ctx: LintContext):
    from .parser import parse
    from .variants import resolve
    ruleset = parse(ctx.text, ctx.path)
    chain = (str(Path(ctx.path).resolve()),)
    ctx.declarations = resolve(ruleset, ctx.base_dir, chain)
    return ()


def _stage_check(ctx: LintContext):
    return check(ctx.declarations, ctx.path, lint=True)


def _stage_settings(ctx: LintContext):
    """E202 for game settings whose values the engine cannot use."""
    for decl in ctx.declarations:
        if isinstance(decl, ast.GameDecl):
            for setting in decl.settings:
                problem = _setting_problem(setting)
                if problem:
                    yield Diagnostic("E202", problem, setting.value.span)


def _setting_problem(setting: ast.Setting) -> str | None:
    value = setting.value
    if setting.name == "players":
        if _is_count(value) or (isinstance(value, ast.BinaryOp) and value.op == ".."
                                and _is_count(value.left) and _is_count(value.right)
                                and value.left.value <= value.right.value):
            return None
        return "setting 'players' needs a number or a range like 2..4"
    if setting.name in NUMBER_SETTINGS and not _is_count(value):
        return f"setting '{setting.name}' needs a whole number above 0"
    if setting.name == "start" and not isinstance(value, ast.Name):
        return "setting 'start' needs the name of a phase"
    return None


def _is_count(expr) -> bool:
    return isinstance(expr, ast.Literal) and type(expr.value) is int and expr.value > 0


GLOBAL_KINDS = (ast.VarDecl, ast.ZoneDecl, ast.DeckDecl, ast.EnumDecl, ast.SupplyDecl, ast.DieDecl, ast.BoardDecl)


def _global_names(declarations) -> dict:
    """Names usable bare anywhere: shared variables and zones, decks, enums and their values..."""
    names = {}
    for d in declarations:
        if isinstance(d, GLOBAL_KINDS) and getattr(d, "owner", None) is None:
            names.setdefault(d.name, d)
        if isinstance(d, ast.EnumDecl):
            for value in d.values:
                names.setdefault(value, d)
    return names


def _stage_shadowing(ctx: LintContext):
    """W106: a local name (let, for, choose, a parameter...) that hides a declaration."""
    names = _global_names(ctx.declarations)
    for decl in ctx.declarations:
        for node in walk(decl):
            for attr in BINDERS.get(type(node), ()):
                local = getattr(node, attr)
                if local in names:
                    yield Diagnostic("W106", f"local name '{local}' hides the {names[local].kind} '{local}' "
                                             f"declared at line {names[local].span.line}",
                                     node.name_span if isinstance(node, ast.Decl) else node.span,
                                     hint="rename the local name")


UNUSED_KINDS = (ast.VarDecl, ast.ZoneDecl, ast.SupplyDecl, ast.DieDecl, ast.EnumDecl, ast.ComponentDecl)


def _referenced(declarations) -> set:
    """Every name that some expression, statement, type or setting mentions."""
    found = set()
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


def _stage_unused(ctx: LintContext):
    """W107: a variable, zone, supply, die, enum or component that nothing mentions."""
    used = _referenced(ctx.declarations)
    for d in ctx.declarations:
        if not isinstance(d, UNUSED_KINDS) or d.name in used:
            continue
        if isinstance(d, ast.EnumDecl) and used & set(d.values):
            continue
        yield Diagnostic("W107", f"{d.kind} '{d.name}' is declared but never used", d.name_span or d.span,
                         hint="remove it, or use it")


# Errors that leave the declarations sound enough to build the game and report more.
INDEPENDENT_ERRORS = {"E206"}


def _stage_build(ctx: LintContext):
    """Build the game for its lowest player count: lowering finds name and type errors."""
    if any(d.code not in INDEPENDENT_ERRORS for d in errors_in(ctx.found)):
        return ()
    from rulelang.interpreter.game import Game
    from rulelang.interpreter.lower import CompileError

    from .loader import game_settings, player_range
    try:
        title, settings, _ = game_settings(ctx.declarations)
        low, _ = player_range(settings)
        Game(ctx.declarations, low, ctx.base_dir, settings, title)
    except CompileError as error:
        return [Diagnostic(e.code, e.message, e.span or Span.point(ctx.path, 1, 1), hint=e.hint)
                for e in error.all]
    return ()


def _stage_graph(ctx: LintContext):
    from .graph import graph_diagnostics
    return graph_diagnostics(ctx.declarations, ctx.path)


STAGES = [_stage_parse, _stage_check, _stage_settings, _stage_shadowing, _stage_unused, _stage_build,
          _stage_graph]


def lint_text(text: str, path: str = "<text>") -> list[Diagnostic]:
    """Every diagnostic for the ruleset ``text`` (shown as ``path``), sorted by location.

    A file is linted under its full path, the name variants give their base, so a base
    that is also linted on its own is parsed once; diagnostics show ``path`` again."""
    is_file = bool(path) and not path.startswith("<")
    full = str(Path(path).resolve()) if is_file else path
    ctx = LintContext(text, full, Path(full).parent if is_file else Path.cwd())
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


def _run_stage(stage, ctx: LintContext) -> bool:
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
    return Diagnostic("E602", f"{INTERNAL}: {type(error).__name__}: {error}",
                      Span.point(path, 1, 1), hint="this is a bug in rulelang; please report it with the file")


def is_internal_error(diagnostic: Diagnostic) -> bool:
    """Whether ``diagnostic`` reports a failure of rulelang itself, not a problem of the rules."""
    return diagnostic.code == "E602" and diagnostic.message.startswith(INTERNAL)


def sort_diagnostics(diagnostics, path: str = "<text>") -> list[Diagnostic]:
    """Diagnostics with a location each, without repeats, sorted by file, line, column, code."""
    unique = {}
    for d in diagnostics:
        d = d.with_file(path)
        unique.setdefault((d.code, d.span.file, d.span.line, d.span.column, d.message), d)
    return sorted(unique.values(), key=lambda d: (d.span.file, d.span.line, d.span.column, d.code))


def read_ruleset_file(path: Path) -> tuple[str | None, list[Diagnostic]]:
    """(text, []) for a readable UTF-8 file of reasonable size, else (None, [E001])."""
    from .variants import read_source
    try:
        return read_source(path), []
    except RulesetError as error:
        return None, error.diagnostics


def lint_file(path: Path) -> list[Diagnostic]:
    """Every diagnostic for one ruleset file."""
    text, problems = read_ruleset_file(path)
    if text is None:
        return problems
    return lint_text(text, str(path))


def collect_rulesets(paths) -> tuple[list[Path], list[Diagnostic]]:
    """The ruleset files named by ``paths`` (directories searched recursively) and E001
    diagnostics for paths that do not exist or hold no ruleset."""
    files, problems = [], []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*.rules") if p.is_file())
            if not found:
                problems.append(Diagnostic("E001", f"no rulesets (*.rules) in directory {raw}",
                                           Span.point(str(raw), 1, 1)))
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            problems.append(Diagnostic("E001", f"no such file or directory: {raw}", Span.point(str(raw), 1, 1)))
    return list(dict.fromkeys(files)), problems


def lint_paths(paths) -> list[Diagnostic]:
    """Every diagnostic for the files and directories ``paths``, sorted by location."""
    files, found = collect_rulesets(paths)
    for file in files:
        found.extend(lint_file(file))
    return sort_diagnostics(found)
