"""``rulelang fmt``: rulesets and test files rewritten in the canonical layout
(``rulelang/syntax/format.py``; docs/editors.md, "Formatting"), or checked, or shown as a diff.

The formatter is imported inside the command, so that ``rulelang --help`` stays fast."""
from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass, field
from pathlib import Path

import click

from rulelang.commands.common import is_terminal
from rulelang.diagnostics import Diagnostic
from rulelang.errors import RulesetError

SUFFIXES = (".rules", ".tests")


@dataclass
class Outcome:
    """What ``rulelang fmt`` found: the files whose layout changes, those already in it, the
    problems of the files it could not format."""
    changed: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    faults: list[Path] = field(default_factory=list)   # files the formatter failed on, left as they are


@click.command("fmt")
@click.argument("paths", nargs=-1, required=True)
@click.option("--check", is_flag=True, help="Change nothing; list the files that would change and exit 1 if any.")
@click.option("--diff", is_flag=True, help="Change nothing; print a unified diff of the changes.")
def fmt(paths: tuple[str, ...], check: bool, diff: bool) -> None:
    """Rewrite rulesets (*.rules) and test files (*.tests) in the canonical layout: files, or
    directories searched for both. Only whitespace changes: the tokens, the comments and the
    meaning stay; a file that does not parse is reported and left as it is.

    \b
    Exit codes: 0 done (or, with --check, nothing to change); 1 a file would change
    (--check) or could not be read or parsed."""
    from rulelang.check.linter import collect_rulesets
    files, problems = collect_rulesets(paths, SUFFIXES, "rulesets or test files (*.rules, *.tests)")
    outcome = Outcome(problems=problems)
    for file in files:
        _format_file(file, outcome, write=not (check or diff), show_diff=diff)
    _report(outcome, check, diff, len(files))
    sys.exit(1 if outcome.problems or outcome.faults or (check and outcome.changed) else 0)


def _format_file(file: Path, outcome: Outcome, write: bool, show_diff: bool) -> None:
    """Format one file into ``outcome`` (written back when ``write``, a diff printed when ``show_diff``)."""
    from rulelang.check.variants import read_source
    from rulelang.syntax.format import FormatterBug, format_source
    try:
        text = read_source(file, str(file), what="test file" if file.suffix == ".tests" else "ruleset")
        formatted = format_source(text, str(file))
    except RulesetError as error:
        outcome.problems.extend(error.diagnostics)
        return
    except FormatterBug as error:
        click.echo(f"rulelang fmt: internal error: {error}", err=True)   # the formatter's fault
        outcome.faults.append(file)
        return
    if formatted == text:
        outcome.unchanged.append(file)
        return
    outcome.changed.append(file)
    if show_diff:
        click.echo("".join(difflib.unified_diff(text.splitlines(keepends=True), formatted.splitlines(keepends=True),
                                                f"{file} (as it is)", f"{file} (formatted)")), nl=False)
    if write:
        file.write_text(formatted, encoding="utf-8")


def _report(outcome: Outcome, check: bool, diff: bool, files: int) -> None:
    """The problems (on stderr), the files that would change (with --check: on stdout, or on
    stderr below a diff), then the count (on stderr)."""
    from rulelang.check.linter import sort_diagnostics
    from rulelang.report import SourceCache, counted, render_text
    if outcome.problems:
        colour = is_terminal("stderr")
        click.echo(render_text(sort_diagnostics(outcome.problems), files, SourceCache(), colour),
                   nl=False, err=True, color=colour)
    if check:
        for file in outcome.changed:
            click.echo(f"would reformat {file}", err=diff)
    verb = "would be reformatted" if check or diff else "reformatted"
    click.echo(f"{counted(len(outcome.changed), 'file')} {verb}, {len(outcome.unchanged)} left unchanged", err=True)
