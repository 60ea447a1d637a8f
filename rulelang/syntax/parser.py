"""Text -> Lark tree -> AST. Nothing else: no checks, no semantics.

Nothing here recurses over the text: Lark's LALR parser and the transformer that builds
the AST (``AstBuilder`` of ast_builder.py) both work with explicit stacks, so no input can
exhaust Python's stack while it is read. The AST is then refused when it nests deeper than
``MAX_DEPTH`` (E005), a bound that the later stages, which do recurse, handle within
Python's default recursion limit.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, cast, get_args

from rulelang import ast, scenario_ast
from rulelang.diagnostics import UNNAMED_TEXT, Diagnostic, Span
from rulelang.errors import RulesetError
from rulelang.files import cache_file
from rulelang.memory import collector_paused
from rulelang.syntax.parse_cache import cached_parse

if TYPE_CHECKING:
    from lark import Lark, Token, Tree

    from rulelang.syntax.ast_builder import AstBuilder

GRAMMAR = Path(__file__).with_name("grammar.lark")
TESTS_GRAMMAR = Path(__file__).with_name("tests_grammar.lark")
MAX_NESTING = 200   # brackets
MAX_DEPTH = 100     # AST levels (real rulesets nest under 20)

_EXPRESSION_NODES: tuple[type[ast.Node], ...] = (*get_args(ast.Expr), ast.CompClause)


@lru_cache(maxsize=1)
def grammar_parser() -> Lark:
    """The LALR parser of the grammar, built once (and kept on disk, see ``_grammar_cache``).
    Lark is imported here, when a text is first parsed: an AST read back from the cache
    (parse_cache.py) needs none of it."""
    from lark import Lark
    return Lark(GRAMMAR.read_text(), parser="lalr", propagate_positions=True, maybe_placeholders=True,
                cache=_grammar_cache("grammar"))


@lru_cache(maxsize=1)
def tests_parser() -> Lark:
    """The parser of scenario test files: the grammar of rulesets (for statements and
    expressions) with the rules of tests_grammar.lark, whose start rule is ``tests_file``.
    A parser of its own, so that no word of a test file is a keyword in a ruleset."""
    from lark import Lark
    return Lark(GRAMMAR.read_text() + "\n" + TESTS_GRAMMAR.read_text(), parser="lalr", start="tests_file",
                propagate_positions=True, maybe_placeholders=True, cache=_grammar_cache("tests-grammar"))


def _grammar_cache(name: str) -> str | bool:
    """A private file where Lark keeps an analysed grammar (checked against the grammar's
    hash on loading), so a command starts 0.2 s sooner; False when there is no such place."""
    file = cache_file(name, "lark-cache")
    return str(file) if file is not None else False


def parse(text: str, path: str = UNNAMED_TEXT) -> ast.Ruleset:
    """Parse ruleset text into an AST; raises RulesetError with every syntax diagnostic.
    The AST is immutable, so the same text read again (a base file that several variants
    extend) is parsed once, and a file's text parsed before is read back from the cache
    folder (parse_cache.py)."""
    return _parse(text, path)


@lru_cache(maxsize=32)
def _parse(text: str, path: str) -> ast.Ruleset:
    return cast(ast.Ruleset, cached_parse("start", text, path, lambda: _parse_by_declarations(text, path)))


def _parse_by_declarations(text: str, path: str) -> ast.Ruleset:
    """The AST of a ruleset, its declarations parsed one piece of text at a time (a piece
    starts at a line that opens a declaration), each piece's AST kept in memory: an editor's
    text parsed again after an edit parses again only the pieces that changed (and those
    below it, where the edit added or removed lines). Where a piece does not parse alone,
    the whole text is parsed, for its exact syntax diagnostics."""
    from rulelang.syntax.syntax_errors import grammar_words
    too_deep = _nesting_problem(text, path)   # (once for the whole text and its pieces)
    if too_deep:
        raise RulesetError([too_deep])
    pieces = declaration_pieces(text, grammar_words(grammar_parser()).declaration_start)
    if len(pieces) > 1:
        try:
            with collector_paused():   # (once for every piece)
                declarations = tuple(d for first, piece in pieces
                                     for d in _parse_piece(piece, first, path).declarations)
        except RulesetError:
            declarations = ()
        if declarations:
            first_span, last_span = declarations[0].span, declarations[-1].span
            span = Span(path, first_span.line, first_span.column, last_span.end_line, last_span.end_column)
            return ast.Ruleset(span, path, declarations)
    return cast(ast.Ruleset, _parse_as("start", text, path, nesting_checked=True))


def declaration_pieces(text: str, declaration_start: re.Pattern[str]) -> list[tuple[int, str]]:
    """``text`` cut before each line that opens a declaration: (the first line's number, the
    piece's text) in order; the text before the first such line goes with the first piece."""
    starts = [m.start() for m in declaration_start.finditer(text)]
    starts = [0, *starts[1:]]   # (the text before the first declaration goes with it)
    pieces: list[tuple[int, str]] = []
    line = 1
    for start, end in zip(starts, [*starts[1:], len(text)], strict=True):
        pieces.append((line, text[start:end]))
        line += text.count("\n", start, end)
    return pieces


@lru_cache(maxsize=1024)
def _parse_piece(piece: str, first_line: int, path: str) -> ast.Ruleset:
    """The AST of one piece of a ruleset whose first line is ``first_line`` of its file (the
    lines before it given as blank lines, so that every span is the file's own)."""
    return cast(ast.Ruleset, _parse_as("start", "\n" * (first_line - 1) + piece, path, nesting_checked=True))


def parse_tests(text: str, path: str = UNNAMED_TEXT) -> scenario_ast.TestsFile:
    """Parse a scenario test file (``NAME.tests``); raises RulesetError with every syntax
    diagnostic. Its statements and expressions are the ruleset language's own. As for a
    ruleset, the same text read again (a test file that another uses) is parsed once."""
    return _parse_tests(text, path)


@lru_cache(maxsize=32)
def _parse_tests(text: str, path: str) -> scenario_ast.TestsFile:
    return cast(scenario_ast.TestsFile,
                cached_parse("tests_file", text, path, lambda: _parse_as("tests_file", text, path)))


@collector_paused()   # (linear in the text's size: see rulelang/memory.py)
def _parse_as(start: str, text: str, path: str, nesting_checked: bool = False) -> ast.Node:
    """The AST of ``text`` read from the grammar rule ``start`` (its brackets' nesting
    checked first, unless ``nesting_checked``)."""
    from lark.exceptions import VisitError

    too_deep = None if nesting_checked else _nesting_problem(text, path)
    if too_deep:
        raise RulesetError([too_deep])
    try:
        tree = _ast_builder(path).transform(parse_tree(text, path, start))
    except VisitError as error:   # a problem found while building the AST (a number too large...)
        if isinstance(error.orig_exc, RulesetError):
            raise error.orig_exc from None
        raise
    too_deep = depth_problem(tree)
    if too_deep:
        raise RulesetError([too_deep])
    return tree


@lru_cache(maxsize=16)
def _ast_builder(path: str) -> AstBuilder:
    """The AST builder of the texts of ``path`` (it holds nothing else: one serves every
    piece of a file, and making one wraps each of its hundred methods)."""
    from rulelang.syntax.ast_builder import AstBuilder
    return AstBuilder(path)


def parse_tree(text: str, path: str, start: str = "start") -> Tree[Token]:
    """Lark's parse tree of ``text`` (a ruleset, or a test file when ``start`` is
    "tests_file"), or RulesetError with every syntax diagnostic."""
    from lark.exceptions import LarkError, UnexpectedInput

    from rulelang.syntax.syntax_errors import syntax_diagnostics
    parser = tests_parser() if start == "tests_file" else grammar_parser()
    try:
        return parser.parse(text)
    except UnexpectedInput as error:
        raise RulesetError(syntax_diagnostics(error, text, path, parser, start)) from None
    except LarkError as error:  # pragma: no cover - lark internal failure
        raise RulesetError([Diagnostic("E002", f"cannot parse: {error}", Span.point(path, 1, 1))]) from None


def depth_problem(ruleset: ast.Node) -> Diagnostic | None:
    """Refuse an AST deeper than MAX_DEPTH (a chain like 1+1+...+1 of a hundred terms), which
    the recursive later stages could not handle; point at the statement (or part) holding it."""
    stack: list[tuple[ast.Node, int, ast.Node]] = [(ruleset, 0, ruleset)]
    while stack:
        node, depth, holder = stack.pop()
        if not isinstance(node, _EXPRESSION_NODES):
            holder = node
        if depth > MAX_DEPTH:
            return Diagnostic("E005", f"this nests more than {MAX_DEPTH} deep", holder.span,
                              hint="split it with 'let' or into procedures")
        stack.extend((child, depth + 1, holder) for child in ast.children(node))
    return None


def _nesting_problem(text: str, path: str) -> Diagnostic | None:
    """Refuse absurd nesting of brackets before the parser sees it."""
    depth = 0
    line = col = 1
    for ch in text:
        if ch in "{[(":
            depth += 1
            if depth > MAX_NESTING:
                return Diagnostic("E005", f"brackets nest more than {MAX_NESTING} deep",
                                  Span.point(path, line, col), hint="split the rule into procedures")
        elif ch in "}])":
            depth -= 1
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
    return None
