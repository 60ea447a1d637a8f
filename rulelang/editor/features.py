"""What an editor shows of a ruleset, as plain data: its analysis (diagnostics and the name
index), hover text, completions at a place, the edits of a rename and the quick fixes that
the linter's hints name. ``server`` turns these into Language Server Protocol messages.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from rulelang import ast
from rulelang.check.declared import ALWAYS_ATTRIBUTES
from rulelang.check.signatures import SIGNATURES
from rulelang.diagnostics import Diagnostic, Span
from rulelang.editor.index import NameIndex, Occurrence, Symbol, build_index, builtin_symbol, real_file
from rulelang.errors import RulesetError

SYNTAX_CODES = frozenset({"E002", "E003", "E004", "E005"})


class Analysis:
    """What the editor knows of one open ruleset: its problems, and its names, indexed when
    first asked (after the problems are out); a text that does not parse keeps the names of
    its last good one (``previous``)."""

    def __init__(self, text: str, path: str, root: str | None = None, previous: Analysis | None = None):
        from rulelang.loader import lint_text
        self.text, self.path, self.root = text, path, root
        self.diagnostics: list[Diagnostic] = lint_text(text, path, root)
        self.parses = not any(d.code in SYNTAX_CODES for d in self.diagnostics)
        # the last text that parsed, for the names while this one does not
        self.previous: Analysis | None = None
        if not self.parses and previous is not None:
            self.previous = previous if previous.parses else previous.previous

    @cached_property
    def declarations(self) -> Declarations | None:
        """The ruleset as parsed and with its variants merged (None: it does not parse)."""
        return declarations_of(self.text, self.path, self.root)

    @cached_property
    def bases(self) -> frozenset[str]:
        """The files whose declarations the ruleset takes (those it extends), by full path:
        read from its merged declarations, without indexing its names."""
        found = self.declarations
        if found is None:
            return self.previous.bases if self.previous is not None else frozenset()
        _, merged, full = found
        return frozenset(d.span.file for d in merged) - {full}

    @cached_property
    def index(self) -> NameIndex | None:
        """The names of the ruleset (None until some text of it has parsed)."""
        found = self.declarations
        if found is None:
            return self.previous.index if self.previous is not None else None
        ruleset, merged, full = found   # (its bases read as saved, as their merged declarations are)
        return build_index(ruleset, merged, full, {full: self.text})


Declarations = tuple[ast.Ruleset, list[ast.Decl], str]   # the file's own, merged with its bases, its full path


def declarations_of(text: str, path: str, root: str | None = None) -> Declarations | None:
    """A ruleset's own declarations and those merged with its bases, or None when it does
    not parse."""
    from rulelang.check.variants import resolve
    from rulelang.syntax.parser import parse
    full = real_file(path)
    try:
        ruleset = parse(text, full)
    except RulesetError:
        return None
    folder = Path(full).parent
    try:
        merged = resolve(ruleset, folder, (full,), Path(root) if root is not None else folder)
    except RulesetError:
        merged = list(ruleset.declarations)
    return ruleset, merged, full


# ---------------------------------------------------------------- hover

def hover_text(symbol: Symbol, path: str) -> str:
    """Markdown for a symbol: its line as declared, what it is and where."""
    shown = f"```rulelang\n{symbol.detail}\n```\n"
    if symbol.span is None:
        return shown + "builtin function"
    where = "" if symbol.span.file == path else f" in {Path(symbol.span.file).name}"
    return shown + f"{symbol.kind} `{symbol.name}`, line {symbol.span.line}{where}"


# ---------------------------------------------------------------- a board's spaces

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")   # a name as the grammar spells it
NAME_AT_END = re.compile(NAME.pattern + "$")
SPACE_CALL = re.compile(r"""\bspace\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*,\s*"([^"]*)"\s*\)""")


# ---------------------------------------------------------------- a keyword's help

HEADING = re.compile(r"^### (.+)$", re.M)


def word_at(line: str, column: int) -> str | None:
    """The word of ``line`` under the (1-based) ``column``, if any."""
    for match in NAME.finditer(line):
        if match.start() < column <= match.end() + 1:
            return match.group()
    return None


def keyword_help(word: str) -> str | None:
    """Markdown for a keyword: the section of docs/language.md whose heading names it (its
    heading, first paragraph and first example), or None."""
    if word not in keywords():
        return None
    return _sections().get(word)


@cache
def _sections() -> dict[str, str]:
    """Each keyword a heading of docs/language.md names in backquotes (`log`, `log ... to`),
    with the start of the first such section."""
    from rulelang.report import docs_file
    try:
        text = docs_file("language.md").read_text(encoding="utf-8")
    except OSError:
        return {}
    found: dict[str, str] = {}
    headings = list(HEADING.finditer(text))
    for heading, following in zip(headings, [*headings[1:], None], strict=True):
        body = text[heading.end():following.start() if following else len(text)]
        words = {w for quoted in re.findall(r"`([^`]+)`", heading.group(1)) for w in NAME.findall(quoted)}
        for word in words - set(found):
            found[word] = f"**{heading.group(1)}**\n\n" + _opening(body)
    return found


def _opening(body: str) -> str:
    """The first paragraph of a section and its first example, at most 20 lines."""
    parts = [part.strip("\n") for part in re.split(r"\n\s*\n", body.strip()) if part.strip()]
    paragraph = next((p for p in parts if not p.startswith(("```", "|", "#"))), "")
    example = next((p for p in parts if p.startswith("```")), "")
    shown = "\n\n".join(p for p in (paragraph, example) if p)
    return "\n".join(shown.split("\n")[:20])


# ---------------------------------------------------------------- completion

@dataclass(frozen=True)
class Completion:
    label: str
    kind: str      # a Symbol's kind, or 'keyword'
    detail: str


def completions(index: NameIndex | None, line_text: str, file: str, line: int, column: int) -> list[Completion]:
    """What may be written at a place (1-based ``line``, ``column``; ``line_text`` the
    line's text before it): attributes after a dot, else keywords, locals in scope,
    declared names and builtins."""
    before = line_text[:column - 1]
    word = NAME_AT_END.search(before)
    start = before[:len(before) - len(word.group())] if word else before
    if start.endswith("."):
        return _attributes(index)
    found = [Completion(word, "keyword", "keyword") for word in keywords()]
    if index is not None:
        found += [Completion(s.name, s.kind, s.detail) for s in index.locals_at(file, line, column)]
        found += [Completion(s.name, s.kind, s.detail) for s in index.globals.values()]
    found += [Completion(s.name, "builtin", s.detail) for s in map(builtin_symbol, SIGNATURES.values())]
    return _unique(found)


def _attributes(index: NameIndex | None) -> list[Completion]:
    found = [Completion(name, "attribute", f"{name}: of every space (and index of players)")
             for name in sorted(ALWAYS_ATTRIBUTES)]
    if index is not None:
        found += [Completion(s.name, s.kind, s.detail) for symbols in index.attributes.values() for s in symbols]
    return _unique(found)


def _unique(found: Sequence[Completion]) -> list[Completion]:
    seen: dict[str, Completion] = {}
    for completion in found:
        seen.setdefault(completion.label, completion)
    return list(seen.values())


@cache
def keywords() -> tuple[str, ...]:
    """Every keyword of the grammar, read from its parser."""
    from rulelang.syntax.parser import grammar_parser
    from rulelang.syntax.syntax_errors import grammar_words
    return grammar_words(grammar_parser()).keywords


# ---------------------------------------------------------------- rename

def rename_edits(index: NameIndex, symbol: Symbol, new_name: str,
                 occurrences: Sequence[Occurrence]) -> dict[str, list[Span]]:
    """The spans of ``occurrences`` (the symbol's, in every file) to rewrite as ``new_name``,
    by file; ValueError when it cannot be done."""
    if symbol.span is None:
        raise ValueError(f"'{symbol.name}' is a builtin function: it cannot be renamed")
    if not NAME.fullmatch(new_name) or new_name in keywords():
        raise ValueError(f"'{new_name}' is not a name a ruleset can declare")
    taken = set(index.globals) | set(index.attributes)
    if new_name in taken and new_name != symbol.name:
        raise ValueError(f"'{new_name}' is already declared")
    edits: dict[str, list[Span]] = {}
    for occurrence in occurrences:
        edits.setdefault(occurrence.span.file, []).append(occurrence.span)
    return edits


# ---------------------------------------------------------------- quick fixes

SUGGESTION = re.compile(r"did you mean '([^']+)'\?")
QUOTED = re.compile(r"'([^']+)'")


@dataclass(frozen=True)
class QuickFix:
    """Replace ``span`` by ``text``: what a hint of ``diagnostic`` names."""

    title: str
    diagnostic: Diagnostic
    span: Span
    text: str


def quick_fixes(diagnostic: Diagnostic, text: str) -> list[QuickFix]:
    """The fixes a diagnostic's hint names: "did you mean 'mark'?" (the wrong word inside
    the diagnostic's span replaced by the suggestion), "add 'otherwise { ... }'" (an empty
    one after the choice, where the text then parses)."""
    if diagnostic.code in NEEDS_OTHERWISE:
        return _otherwise_added(diagnostic, text)
    suggested = SUGGESTION.search(diagnostic.hint or "")
    wrong = QUOTED.search(diagnostic.message)
    if suggested is None or wrong is None or diagnostic.span is None:
        return []
    span = _word_in(text, diagnostic.span, wrong.group(1))
    if span is None:
        return []
    return [QuickFix(f"change '{wrong.group(1)}' to '{suggested.group(1)}'", diagnostic, span, suggested.group(1))]


NEEDS_OTHERWISE = frozenset({"W308"})   # a choice over a filtered list without 'otherwise'
ADDED_OTHERWISE = " otherwise { }"


def _otherwise_added(diagnostic: Diagnostic, text: str) -> list[QuickFix]:
    """An empty ``otherwise { }`` at the end of the line where the choice's list ends, if the
    text then parses (a choice whose prompt or label follows on another line gets none)."""
    from rulelang.syntax.parser import parse
    from rulelang.syntax.text_scan import code_part
    if diagnostic.span is None:
        return []
    lines = text.split("\n")
    number = diagnostic.span.end_line
    if not 0 < number <= len(lines):
        return []
    end = len(code_part(lines[number - 1]).rstrip()) + 1
    at = Span(diagnostic.span.file, number, end, number, end)
    line = lines[number - 1]
    fixed = "\n".join([*lines[:number - 1], line[:end - 1] + ADDED_OTHERWISE + line[end - 1:], *lines[number:]])
    try:
        parse(fixed, diagnostic.span.file)
    except RulesetError:
        return []
    return [QuickFix("add 'otherwise { }': do nothing when nothing passes the filter", diagnostic, at, ADDED_OTHERWISE)]


def _word_in(text: str, span: Span, word: str) -> Span | None:
    """The span of the last whole ``word`` inside ``span`` (on its lines)."""
    lines = text.splitlines()
    for number in range(min(span.end_line, len(lines)), span.line - 1, -1):
        line = lines[number - 1]
        low = span.column - 1 if number == span.line else 0
        high = span.end_column - 1 if number == span.end_line else len(line)
        matches = [m for m in re.finditer(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])", line)
                   if m.start() >= low and m.end() <= max(high, low + len(word))]
        if matches:
            found = matches[-1]
            return Span(span.file, number, found.start() + 1, number, found.end() + 1)
    return None


# ---------------------------------------------------------------- outline

def outline(declarations: Sequence[ast.Decl]) -> list[tuple[ast.Decl, Span]]:
    """The file's declarations that an outline lists, each with the span of its name."""
    return [(d, d.name_span or d.span) for d in declarations if not isinstance(d, ast.Extends)]


def outline_name(decl: ast.Decl) -> str:
    """A declaration as its outline names it: the game by its title."""
    return decl.title if isinstance(decl, ast.GameDecl) and decl.title else decl.name


# ---------------------------------------------------------------- semantic tokens

TOKEN_TYPES = ("function", "variable", "parameter", "property", "enumMember", "type", "event", "namespace")
TOKEN_OF_KIND = {"procedure": "function", "function": "function", "builtin": "function", "var": "variable",
                 "local": "variable", "zone": "variable", "deck": "variable", "supply": "variable",
                 "die": "variable", "board": "variable", "parameter": "parameter", "field": "property",
                 "enum value": "enumMember", "enum": "type", "component": "type", "phase": "event"}


def semantic_tokens(index: NameIndex, file: str) -> list[int]:
    """The protocol's relative encoding of every name of ``file`` that the index resolves:
    five integers a token (line and column from the previous token, length, type, no modifiers)."""
    data: list[int] = []
    line, column = 0, 0
    for occurrence in index.occurrences.get(file, []):
        kind = TOKEN_OF_KIND.get(occurrence.symbol.kind)
        span = occurrence.span
        if kind is None or span.end_line != span.line:
            continue
        here_line, here_column = span.line - 1, span.column - 1
        data += [here_line - line, here_column - column if here_line == line else here_column,
                 span.end_column - span.column, TOKEN_TYPES.index(kind), 0]
        line, column = here_line, here_column
    return data


# ---------------------------------------------------------------- formatting

def formatted(text: str, path: str) -> str | None:
    """``text`` in ``rulelang fmt``'s layout, or None where it cannot be formatted (it does
    not parse: the diagnostics say why)."""
    from rulelang.syntax.format import FormatterBug, format_source
    try:
        return format_source(text, path)
    except (RulesetError, FormatterBug):
        return None
