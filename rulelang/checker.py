"""Checks on a merged ruleset that need no running: names, settings, duplicates.

Each check is a small generator of diagnostics registered in CHECKS; ``check`` runs them.
"""
from __future__ import annotations

from . import ast
from .diagnostics import Diagnostic

KNOWN_SETTINGS = {"players", "max_decisions", "max_steps", "start", "dummies"}


def check_settings(decls, path):
    import difflib
    for d in decls:
        if isinstance(d, ast.GameDecl):
            for s in d.settings:
                if s.name not in KNOWN_SETTINGS:
                    close = difflib.get_close_matches(s.name, KNOWN_SETTINGS, n=1)
                    yield Diagnostic("E202", f"unknown setting '{s.name}'", s.span,
                                     hint=f"did you mean '{close[0]}'?" if close else
                                     "settings are: " + ", ".join(sorted(KNOWN_SETTINGS)))


def check_duplicates(decls, path):
    seen = {}
    for d in decls:
        if isinstance(d, (ast.GameDecl, ast.Extends, ast.SetupDecl, ast.InvariantDecl, ast.ScoreDecl,
                          ast.TiebreakDecl)):
            continue
        key = d.name
        if key in seen:
            yield Diagnostic("E102", f"'{d.name}' is declared twice (first at line {seen[key].span.line})",
                             d.name_span or d.span)
        else:
            seen[key] = d


def check_phases(decls, path):
    from .diagnostics import Span
    if not any(isinstance(d, ast.PhaseDecl) for d in decls):
        yield Diagnostic("E304", "the ruleset declares no phase, so nothing can run", Span.point(path, 1, 1),
                         hint="add 'phase NAME { ... }'")


CHECKS = [check_settings, check_duplicates, check_phases]


def check(decls, path: str) -> list[Diagnostic]:
    """Every diagnostic the static checks find."""
    found = []
    for check_fn in CHECKS:
        found.extend(check_fn(decls, path))
    return found
