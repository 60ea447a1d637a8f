"""Parts in variants: ``override part OWNER.PART { ... }`` gives the part ``PART`` of the
setup, phase or procedure ``OWNER`` a new body and leaves the rest of it as it is.

A wrong target is E502 (no such setup, phase or procedure; no such part in it), a part
given without ``override`` E504, a name given to two parts of one body E507, a
replacement that nests its owner deeper than one file may E005. Once a
ruleset's variants are merged, every part is spliced into its block (``splice_bodies``):
the checks after the front end and the compiler see only statements.
"""
from __future__ import annotations

from dataclasses import replace

from rulelang import ast
from rulelang.diagnostics import Diagnostic
from rulelang.errors import RulesetError
from rulelang.syntax.parser import depth_problem
from rulelang.syntax.parts import parts_in, splice_parts, with_part_body

Body = ast.SetupDecl | ast.PhaseDecl | ast.ProcedureDecl
BODIED = (ast.SetupDecl, ast.PhaseDecl, ast.ProcedureDecl)


def override_part(merged: list[ast.Decl], decl: ast.PartDecl) -> Diagnostic | None:
    """Give the part that ``decl`` names its new body, in ``merged`` (in place); or the
    diagnostic that says why it cannot."""
    written = f"{'override ' if decl.override else ''}part {decl.name}"
    index = next((i for i, d in enumerate(merged) if isinstance(d, BODIED) and d.name == decl.owner), None)
    if index is None:
        return Diagnostic("E502", f"'{written}': the base has no setup, phase or procedure "
                                  f"'{decl.owner}'", decl.name_span or decl.span)
    owner = merged[index]
    assert isinstance(owner, BODIED)
    names = [part.name for part in parts_in(owner.body)] if owner.body is not None else []
    if decl.part not in names:
        hint = (f"its parts: {', '.join(names)}" if names
                else f"name the statements to replace in the base: part {decl.part} {{ ... }}")
        return Diagnostic("E502", f"'{written}': {owner.kind} '{decl.owner}' has no part "
                                  f"'{decl.part}'", decl.part_span or decl.span, hint=hint)
    if not decl.override:
        return Diagnostic("E504", f"part '{decl.name}' is already in the base; write 'override part {decl.name}' "
                                  f"to replace it", decl.name_span or decl.span)
    assert owner.body is not None and decl.body is not None
    changed = replace(owner, body=with_part_body(owner.body, decl.part, decl.body))
    merged[index] = changed
    return _too_deep(changed, decl)


def _too_deep(owner: Body, decl: ast.PartDecl) -> Diagnostic | None:
    """E005 at the override when its body, in place, nests the owner deeper than a file may."""
    problem = depth_problem(_spliced(owner))
    if problem is None:
        return None
    return Diagnostic("E005", f"'override part {decl.name}': with this part in place, {owner.kind} "
                              f"'{owner.name}' {problem.message.removeprefix('this ')}",
                      decl.part_span or decl.span, hint="nest less here, or move some statements into a procedure")


def outside_variant(decl: ast.PartDecl) -> Diagnostic:
    """E502 for a part declared in a file that extends nothing."""
    return Diagnostic("E502", f"'part {decl.name}' replaces a part of a base: this file extends nothing",
                      decl.name_span or decl.span,
                      hint="write 'part NAME { ... }' inside the setup, phase or procedure itself")


def check_unique_parts(decls: list[ast.Decl]) -> list[ast.Decl]:
    """``decls``, or RulesetError E507 where a setup, phase or procedure names two parts alike."""
    problems = [problem for d in decls if isinstance(d, BODIED) for problem in _twice_named(d)]
    if problems:
        raise RulesetError(problems)
    return decls


def _twice_named(owner: Body) -> list[Diagnostic]:
    first: dict[str, ast.Part] = {}
    problems: list[Diagnostic] = []
    for part in parts_in(owner.body) if owner.body is not None else ():
        earlier = first.setdefault(part.name, part)
        if earlier is not part:
            at = earlier.name_span or earlier.span
            problems.append(Diagnostic("E507", f"{owner.kind} '{owner.name}' already has a part '{part.name}' "
                                               f"(line {at.line}): a variant could not tell them apart",
                                       part.name_span or part.span, hint="give each part of a body its own name"))
    return problems


def splice_bodies(decls: list[ast.Decl]) -> list[ast.Decl]:
    """``decls`` with the parts of every setup, phase and procedure spliced into their blocks."""
    return [_spliced(d) if isinstance(d, BODIED) else d for d in decls]


def _spliced(owner: Body) -> Body:
    body = splice_parts(owner.body) if owner.body is not None else None
    return owner if body is owner.body else replace(owner, body=body)
