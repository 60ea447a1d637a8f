"""Variants: a ruleset that ``extends`` another and overrides named parts of it.

Merging happens on the AST: the base's declarations, then the variant's. A declaration
marked ``override`` replaces the base's one of the same kind and name (the game header
merges setting by setting); a new name is added; redeclaring without ``override`` is an
error, and so is overriding something the base does not have.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from . import ast
from .diagnostics import Diagnostic, Span
from .errors import RulesetError
from .parser import parse

MAX_DEPTH = 16
MAX_BYTES = 256 * 1024   # 20 times the largest shipped game; parsing more would take seconds


def read_source(path: Path) -> str:
    """The text of a ruleset file, or RulesetError E001 (unreadable, not a regular file, larger
    than MAX_BYTES, not UTF-8). Never reads more than MAX_BYTES + 1 bytes."""
    try:
        if not path.is_file():
            raise IsADirectoryError(0, "not a regular file")
        with path.open("rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise RulesetError([Diagnostic("E001", f"cannot read {path}: {error.strerror or error}",
                                       Span.point(str(path), 1, 1))]) from None
    if len(data) > MAX_BYTES:
        raise RulesetError([Diagnostic("E001", f"the file is larger than {MAX_BYTES // 1024} KiB, the limit "
                                               f"for a ruleset", Span.point(str(path), 1, 1),
                                       hint="split it: a variant can 'extends' a base file")])
    try:
        return data.decode("utf-8-sig")   # a byte-order mark some editors write is not text
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise RulesetError([Diagnostic("E001", "the file is not UTF-8 text", Span.point(str(path), line, 1))]) from None


def resolve(ruleset: ast.Ruleset, base_dir: Path, chain: tuple[str, ...] = ()) -> list[ast.Decl]:
    """The flat list of declarations of ``ruleset`` with every base it extends merged in.
    ``chain`` holds the resolved paths of the files already on the way (to find cycles)."""
    extends = ruleset.of_kind(ast.Extends)
    own = [d for d in ruleset.declarations if not isinstance(d, ast.Extends)]
    if not extends:
        return _check_no_override(own)
    if len(extends) > 1:
        raise RulesetError([Diagnostic("E505", "a ruleset can extend only one base", extends[1].span)])
    ext = extends[0]
    base_path = (base_dir / ext.path).resolve()
    if str(base_path) in chain or len(chain) > MAX_DEPTH:
        raise RulesetError([Diagnostic("E503", f"'{ext.path}' extends, directly or not, this same file",
                                       ext.span)])
    if not base_path.is_file():
        raise RulesetError([Diagnostic("E501", f"cannot find the base ruleset '{ext.path}'", ext.name_span,
                                       hint=f"looked for {base_path}")])
    base = parse(read_source(base_path), str(base_path))
    this_file = str(ruleset.path and Path(ruleset.path).resolve())
    base_decls = resolve(base, base_path.parent, (*chain, this_file, str(base_path)))
    return merge(base_decls, own)


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
        elif key in index and d.kind not in ("invariant",):
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
