"""Where each name of a ruleset is declared and where it is used: the index an editor's
hover, go to definition, references and rename read.

A ruleset is parsed and its variants merged as the linter does; its files (the ruleset and
the bases it extends) are split into tokens by the grammar's own lexer, and each name token
is resolved the way the language reads it: after a dot, an attribute (a per-player or
per-space declaration, a component's field); inside a procedure, phase or function, a local
bound before it (a parameter, a ``let``, a loop's or a choice's variable); else a declaration
of the ruleset, an enum value, or a builtin function.
"""
from __future__ import annotations

import bisect
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rulelang import ast
from rulelang.check.signatures import SIGNATURES, Signature
from rulelang.check.tree import bound_names, walk
from rulelang.diagnostics import Span
from rulelang.editor.present_words import property_word_spans

SCOPED = (ast.SetupDecl, ast.PhaseDecl, ast.ProcedureDecl, ast.FunctionDecl, ast.ScoreDecl, ast.TiebreakDecl,
          ast.InvariantDecl)


@dataclass(frozen=True)
class Symbol:
    """A name as declared: what it is (a declaration's kind, 'parameter', 'local', 'field',
    'enum value' or 'builtin'), where (None for a builtin) and one line that shows it."""

    name: str
    kind: str
    span: Span | None
    detail: str


@dataclass(frozen=True)
class Occurrence:
    """One name token of a file and the symbol it names."""

    span: Span
    symbol: Symbol


@dataclass(frozen=True)
class NameToken:
    name: str
    span: Span
    after_dot: bool


@dataclass(frozen=True)
class Binding:
    """A local name: its symbol and where its scope starts (and ends: its declaration's end)."""

    symbol: Symbol
    starts: tuple[int, int]
    ends: tuple[int, int]


@dataclass
class NameIndex:
    """The names of one ruleset: the declared symbols and every occurrence, file by file."""

    path: str
    declarations: list[ast.Decl]               # the file's own, in order (for its outline)
    globals: dict[str, Symbol] = field(default_factory=dict)
    attributes: dict[str, list[Symbol]] = field(default_factory=dict)
    locals: list[Binding] = field(default_factory=list)
    declared_at: dict[Span, Symbol] = field(default_factory=dict)   # each symbol by its name's span
    board_files: dict[str, str] = field(default_factory=dict)   # a board loaded from a file: that file
    occurrences: dict[str, list[Occurrence]] = field(default_factory=dict)

    def at(self, file: str, line: int, column: int) -> Occurrence | None:
        """The occurrence whose token holds the position (1-based), if any."""
        found = self.occurrences.get(file, [])
        keys = [(o.span.line, o.span.column) for o in found]
        index = bisect.bisect_right(keys, (line, column)) - 1
        if index >= 0:
            span = found[index].span
            if span.line == line and span.column <= column <= span.end_column:
                return found[index]
        return None

    def references(self, symbol: Symbol) -> list[Occurrence]:
        """Every occurrence of ``symbol``, its declaration included, in every file."""
        return [o for file in sorted(self.occurrences) for o in self.occurrences[file] if o.symbol == symbol]

    def locals_at(self, file: str, line: int, column: int) -> list[Symbol]:
        """The local names in scope at a position: bound before it in its declaration."""
        here = (line, column)
        return [b.symbol for b in self.locals
                if b.symbol.span is not None and b.symbol.span.file == file and b.starts <= here <= b.ends]


def build_index(ruleset: ast.Ruleset, merged: list[ast.Decl], path: str,
                texts: Mapping[str, str]) -> NameIndex:
    """The index of ``ruleset`` (the file ``path``) whose merged declarations are ``merged``;
    ``texts`` gives the text of a file where the editor holds one (others are read from disk)."""
    sources = _Sources(texts)
    files = {path} | {d.span.file for d in merged if d.span.file and not d.span.file.startswith("<")}
    index = NameIndex(path, list(ruleset.declarations))
    tokens = {file: sources.tokens(file) for file in sorted(files)}
    for decl in merged:
        _declare(index, decl, tokens.get(decl.span.file, []), sources)
    for symbol in [*index.globals.values(), *(s for found in index.attributes.values() for s in found),
                   *(b.symbol for b in index.locals)]:
        if symbol.span is not None:
            index.declared_at.setdefault(symbol.span, symbol)
    property_words = set(property_word_spans(merged))   # a presentation's property words name nothing declared
    for file, names in tokens.items():
        index.occurrences[file] = [o for o in _resolve(index, file, names) if o.span not in property_words]
    return index


# ---------------------------------------------------------------- declarations

def _declare(index: NameIndex, decl: ast.Decl, tokens: list[NameToken], sources: _Sources) -> None:
    span = decl.name_span or decl.span
    symbol = Symbol(decl.name, decl.kind, span, sources.line(decl.span))
    if isinstance(decl, (ast.VarDecl, ast.ZoneDecl, ast.DeckDecl)) and decl.owner is not None:
        index.attributes.setdefault(decl.name, []).append(symbol)
    elif not isinstance(decl, (ast.GameDecl, ast.Extends, ast.ScoreDecl, ast.TiebreakDecl, ast.InvariantDecl)):
        index.globals.setdefault(decl.name, symbol)
    if isinstance(decl, ast.EnumDecl):
        for value in decl.values:
            where = _token_in(tokens, decl.span, value)
            index.globals.setdefault(value, Symbol(value, "enum value", where, f"{value}: a value of enum {decl.name}"))
    if isinstance(decl, ast.ComponentDecl):
        for item in decl.fields:
            where = _token_in(tokens, item.span, item.name)
            index.attributes.setdefault(item.name, []).append(
                Symbol(item.name, "field", where, f"{item.name}: {item.type} (a field of {decl.name})"))
    if isinstance(decl, SCOPED):
        index.locals.extend(_bindings(decl, tokens, sources))
    file = board_file(decl)
    if file is not None:
        index.board_files[decl.name] = file


def board_file(decl: ast.Decl) -> str | None:
    """The data file of a board built by ``load_board("FILE")``, beside its ruleset."""
    source = decl.source if isinstance(decl, ast.BoardDecl) else None
    if not (isinstance(source, ast.Call) and source.function == "load_board" and len(source.args) == 1):
        return None
    name = source.args[0]
    if not (isinstance(name, ast.Literal) and isinstance(name.value, str)):
        return None
    return os.path.join(os.path.dirname(decl.span.file), name.value)


def _bindings(decl: ast.Decl, tokens: list[NameToken], sources: _Sources) -> Iterator[Binding]:
    """The local names ``decl`` binds, each with the part of the text where it is in scope."""
    ends = (decl.span.end_line, decl.span.end_column)
    for node in walk(decl):
        if isinstance(node, (ast.Comprehension, ast.Generator)):   # in scope from the element on
            for clause in node.clauses:
                yield from _binding(clause.var, "local", clause.span, (node.span.line, node.span.column),
                                    ends, tokens, sources)
            continue
        if isinstance(node, (ast.CompClause, ast.Decl)) and not isinstance(node, (ast.ScoreDecl, ast.TiebreakDecl)):
            continue
        kind = "parameter" if isinstance(node, ast.Param) else "local"
        for name in bound_names(node):
            yield from _binding(name, kind, node.span, (node.span.line, node.span.column), ends, tokens, sources)


def _binding(name: str, kind: str, within: Span, starts: tuple[int, int], ends: tuple[int, int],
             tokens: list[NameToken], sources: _Sources) -> Iterator[Binding]:
    where = _token_in(tokens, within, name)
    if where is not None:
        yield Binding(Symbol(name, kind, where, sources.line(within)), starts, ends)


def _token_in(tokens: list[NameToken], span: Span, name: str) -> Span | None:
    """The span of the first token ``name`` inside ``span`` (``tokens`` in order)."""
    start, end = (span.line, span.column), (span.end_line, span.end_column)
    first = bisect.bisect_left(tokens, start, key=lambda token: (token.span.line, token.span.column))
    for token in tokens[first:]:
        if (token.span.line, token.span.column) >= end:
            break
        if token.name == name:
            return token.span
    return None


# ---------------------------------------------------------------- uses

def _resolve(index: NameIndex, file: str, tokens: list[NameToken]) -> Iterator[Occurrence]:
    file_locals = [b for b in index.locals if b.symbol.span is not None and b.symbol.span.file == file]
    for token in tokens:
        symbol = _meaning(index, token, file_locals)
        if symbol is not None:
            yield Occurrence(token.span, symbol)


def _meaning(index: NameIndex, token: NameToken, file_locals: list[Binding]) -> Symbol | None:
    if token.span in index.declared_at:
        return index.declared_at[token.span]
    if token.after_dot:
        candidates = index.attributes.get(token.name)
        return candidates[0] if candidates else None
    here = (token.span.line, token.span.column)
    bound = [b for b in file_locals if b.symbol.name == token.name and b.starts <= here <= b.ends]
    if bound:
        return max(bound, key=lambda b: b.starts).symbol
    if token.name in index.globals:
        return index.globals[token.name]
    if token.name in SIGNATURES:
        return builtin_symbol(SIGNATURES[token.name])
    return None


def builtin_symbol(signature: Signature) -> Symbol:
    """The symbol of a builtin function: its signature as its line."""
    return Symbol(signature.name, "builtin", None, describe_signature(signature))


def describe_signature(signature: Signature) -> str:
    """``top(zone, number?) -> component``: a builtin as it is called."""
    required = len(signature.params) if signature.required is None else signature.required
    params = [kind + ("?" if i >= required else "") for i, kind in enumerate(signature.params)]
    params += [f"{word}: bool?" for word in signature.keywords]
    return f"{signature.name}({', '.join(params)}) -> {signature.result}"


# ---------------------------------------------------------------- the files' text and tokens

class _Sources:
    """The text and name tokens of each file, from the editor where it holds the file."""

    def __init__(self, texts: Mapping[str, str]):
        self.texts = dict(texts)

    def text(self, file: str) -> str:
        if file not in self.texts:
            try:
                self.texts[file] = Path(file).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                self.texts[file] = ""
        return self.texts[file]

    def line(self, span: Span) -> str:
        """The first line of ``span``'s text, without its opening brace."""
        lines = self.text(span.file).splitlines()
        line = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        return line.strip().removesuffix("{").strip()

    def tokens(self, file: str) -> list[NameToken]:
        return list(name_tokens(self.text(file), file))


def name_tokens(text: str, file: str) -> Iterable[NameToken]:
    """The name tokens of ``text`` in order, split as the formatter splits a text (the
    grammar's own tokens: ``format_pieces.scan``), each knowing whether a dot stands before
    it; none for a text with a character no token holds (such a text does not parse)."""
    from rulelang.syntax.format_pieces import UnknownCharacter, scan
    try:
        pieces = [piece for piece in scan(text) if not piece.is_comment]
    except UnknownCharacter:
        return
    for previous, piece in zip([None, *pieces], pieces, strict=False):
        if piece.kind == "word" and piece.text.isidentifier():
            span = Span(file, piece.line, piece.column, piece.line, piece.column + len(piece.text))
            yield NameToken(piece.text, span, previous is not None and previous.text == ".")


def real_file(path: str) -> str:
    """The full path the linter gives a file's spans."""
    return os.path.realpath(path)
