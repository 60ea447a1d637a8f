"""Variants: a ruleset that ``extends`` another and overrides named parts of it.

Merging happens on the AST: the base's declarations, then the variant's. A declaration
marked ``override`` replaces the base's one of the same kind and name (the game header
merges setting by setting); a new name is added; redeclaring without ``override`` is an
error, and so is overriding something the base does not have.
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from rulelang import ast
from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import RulesetError
from rulelang.files import MAX_RULESET_BYTES, FileAccessError, confined_path, decode_text, read_confined, real_path
from rulelang.syntax.parser import parse

MAX_BASES = 64   # the bases one ruleset may stand on, through its chain of 'extends' (E506)
MAX_BYTES = MAX_RULESET_BYTES   # 20 times the largest shipped game; parsing more would take seconds


def read_source(path: Path, shown: str | None = None, code: str = "E001",
                at: Span | None = None, what: str = "ruleset") -> str:
    """The text of a ruleset file (or another file of the language: ``what`` names it),
    or RulesetError ``code`` (unreadable, not a regular file, larger than MAX_BYTES, not
    UTF-8) at ``at`` (default: the file's first line). Never reads more than MAX_BYTES + 1
    bytes, never blocks on a named pipe."""
    name = shown if shown is not None else str(path)
    where = at if at is not None else Span.point(name, 1, 1)
    try:
        data = read_confined(path, what, MAX_BYTES, name)
    except FileAccessError as error:
        split = "larger" in error.reason and what == "ruleset"
        hint = "split it: a variant can 'extends' a base file" if split else None
        raise RulesetError([Diagnostic(code, f"cannot read {name}: {error.reason}", where, hint=hint)]) from None
    try:
        return decode_text(data)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        span = at if at is not None else Span.point(name, line, 1)
        message = "the file is not UTF-8 text" if at is None else f"{name} is not UTF-8 text"
        raise RulesetError([Diagnostic(code, message, span)]) from None


def resolve(ruleset: ast.Ruleset, base_dir: Path, chain: tuple[str, ...] = (),
            root: Path | None = None) -> list[ast.Decl]:
    """The flat list of declarations of ``ruleset`` with every base it extends merged in.

    ``base_dir`` is the folder of the file ``ruleset`` was read from; ``root`` (default
    ``base_dir``) the folder that every file it names must lie in. The file names of
    ``load_board("...")`` come out relative to ``root``, where the runtime reads them.
    ``chain`` holds the resolved paths of the files already on the way, this one last (to
    find cycles); a call from outside leaves it empty."""
    root = base_dir if root is None else root
    chain = chain or (real_path(ruleset.path) if ruleset.path else str(ruleset.path),)
    extends = ruleset.of_kind(ast.Extends)
    own = _confine_boards([d for d in ruleset.declarations if not isinstance(d, ast.Extends)], base_dir, root)
    if not extends:
        return _check_no_override(own)
    if len(extends) > 1:
        raise RulesetError([Diagnostic("E505", "a ruleset can extend only one base", extends[1].span)])
    ext = extends[0]
    try:
        base_path = confined_path(ext.path, base_dir, root)
    except FileAccessError as error:
        raise RulesetError([Diagnostic("E501", f"cannot use the base ruleset '{ext.path}': {error.reason}",
                                       ext.name_span or ext.span)]) from None
    if str(base_path) in chain:
        raise RulesetError([Diagnostic("E503", f"'{ext.path}' extends, directly or not, this same file",
                                       ext.span)])
    if len(chain) > MAX_BASES:
        raise RulesetError([Diagnostic("E506", f"'{ext.path}' would be base {len(chain)} of the ruleset loaded: "
                                               f"a chain of 'extends' holds at most {MAX_BASES} bases", ext.span,
                                       hint="extend a base nearer the start of the chain, or merge some of its files")])
    if not base_path.exists():
        raise RulesetError([Diagnostic("E501", f"cannot find the base ruleset '{ext.path}'", ext.name_span or ext.span,
                                       hint=f"looked for {base_path}")])
    text = read_source(base_path, f"base ruleset '{ext.path}'", "E001", ext.name_span or ext.span)
    try:
        base = parse(text, str(base_path))
    except RulesetError as error:
        if not any(d.code.startswith("E00") for d in error.diagnostics):
            raise
        first = error.diagnostics[0].span
        where = f" (line {first.line}, column {first.column})" if first is not None else ""
        raise RulesetError([Diagnostic("E501", f"the base '{ext.path}' is not a valid ruleset: it has a "
                                               f"syntax error{where}", ext.name_span or ext.span,
                                       hint="lint the base file on its own")]) from None
    base_decls = resolve(base, base_path.parent, (*chain, str(base_path)), root)
    return merge(base_decls, own)


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _confine_boards(decls: list[ast.Decl], folder: Path, root: Path) -> list[ast.Decl]:
    """``decls`` with the file of each ``load_board("...")`` rewritten relative to ``root``;
    E401 for a file name that is absolute or leads out of the root."""
    out: list[ast.Decl] = []
    for d in decls:
        call = d.source if isinstance(d, ast.BoardDecl) else None
        if not (isinstance(d, ast.BoardDecl) and isinstance(call, ast.Call) and call.function == "load_board"
                and len(call.args) == 1 and isinstance(call.args[0], ast.Literal)
                and isinstance(call.args[0].value, str)):
            out.append(d)
            continue
        literal = call.args[0]
        name = str(literal.value)
        try:
            target = confined_path(name, folder, root)
        except FileAccessError as error:
            raise RulesetError([Diagnostic("E401", f"cannot load board file '{name}': {error.reason}",
                                           literal.span)]) from None
        relative = os.path.relpath(target, _real(root))
        out.append(replace(d, source=replace(call, args=(replace(literal, value=relative),))))
    return out


def _key(d: ast.Decl) -> tuple[str, str | None]:
    if isinstance(d, (ast.ScoreDecl, ast.TiebreakDecl)):   # one of each; the name is only its player variable
        return (d.kind, None)
    return (d.kind, d.name)


def _check_no_override(decls: list[ast.Decl]) -> list[ast.Decl]:
    problems = [Diagnostic("E502", "'override' needs a base: this file extends nothing", d.span)
                for d in decls if d.override]
    if problems:
        raise RulesetError(problems)
    return decls


def merge(base: list[ast.Decl], variant: list[ast.Decl]) -> list[ast.Decl]:
    """Base declarations with the variant's overrides and additions applied."""
    merged = list(base)
    index = {_key(d): i for i, d in enumerate(merged)}
    problems: list[Diagnostic] = []
    for d in variant:
        key = _key(d)
        if d.override:
            if key not in index:
                problems.append(Diagnostic("E502", f"'override {d.kind} {d.name}': the base has no such {d.kind}",
                                           d.name_span or d.span))
                continue
            merged[index[key]] = _merge_one(merged[index[key]], d)
        elif key in index:
            problems.append(Diagnostic("E504", f"{d.kind} '{d.name}' is already in the base; write 'override' "
                                               f"to replace it", d.name_span or d.span))
        else:
            index[key] = len(merged)
            merged.append(d)
    if problems:
        raise RulesetError(problems)
    return merged


def _merge_one(old: ast.Decl, new: ast.Decl) -> ast.Decl:
    if isinstance(old, ast.GameDecl) and isinstance(new, ast.GameDecl):
        settings = {s.name: s for s in old.settings}
        settings.update({s.name: s for s in new.settings})
        return replace(old, settings=tuple(settings.values()), title=new.title or old.title)
    return replace(new, override=False)
