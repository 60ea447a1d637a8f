"""Friendly syntax errors: turn a Lark failure into a diagnostic that says what to fix.

Lark reports where it gave up; this module looks at what it expected and at the text
around that place to point where the fix belongs (an unclosed block points at its '{').
After one error, ``syntax_diagnostics`` resumes at the next declaration that starts a line
and parses the rest on its own, so independent mistakes are all reported in one run, and
a mistake is never reported again as the cause of others.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeAlias

from lark import Lark, Token
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.grammar import Symbol
from lark.lexer import PatternStr

from .diagnostics import Diagnostic, Span

_READABLE = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "COLON": "':'", "EQUAL": "'='", "NAME": "a name", "INT": "a number",
    "STRING": "a string", "$END": "the end of the file", "DOT": "'.'", "ASSIGN_OP": "'='",
    "COMP_OP": "a comparison", "_NOT": "'not'",
}

_LINE_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*", re.M)
MAX_SYNTAX_ERRORS = 20


# ---------------------------------------------------------------- what the grammar says

@dataclass(frozen=True)
class GrammarWords:
    """The words of the grammar that syntax hints use, read from its parser (one source of truth)."""

    keywords: tuple[str, ...]              # every keyword, for "did you mean"
    terminal_keywords: Mapping[str, str]   # the keyword of each keyword terminal: {"PHASE": "phase", "_OR": "or"}
    declaration_words: tuple[str, ...]     # the keywords that open a declaration ('override' included)
    declaration_start: re.Pattern[str]     # a line that starts a declaration: where parsing can start again

    def expected_keywords(self, error: UnexpectedToken) -> list[str]:
        """The keywords that the parser would have taken instead of the token of ``error``."""
        return [self.terminal_keywords[name] for name in error.expected if name in self.terminal_keywords]


Expansions: TypeAlias = "dict[str, list[Sequence[Symbol]]]"   # each rule's alternatives


@cache
def grammar_words(parser: Lark) -> GrammarWords:
    """The keywords of ``parser``'s grammar, and those that open a declaration (its ``decl``
    rule, after the prefixes of its ``item`` rule)."""
    keywords = {t.name: t.pattern.value for t in parser.terminals
                if isinstance(t.pattern, PatternStr) and t.pattern.value.isidentifier()}
    expansions: Expansions = {}
    for rule in parser.rules:
        expansions.setdefault(rule.origin.name, []).append(rule.expansion)
    prefixes = {word for expansion in expansions["item"] for s in expansion if (word := _keyword(s, keywords))}
    openings = _openings(expansions, "decl", keywords)
    return GrammarWords(keywords=tuple(sorted(set(keywords.values()))), terminal_keywords=keywords,
                        declaration_words=tuple(sorted({opening[-1] for opening in openings} | prefixes)),
                        declaration_start=_line_start_pattern(prefixes, openings))


def _keyword(symbol: Symbol, keywords: Mapping[str, str]) -> str | None:
    """The word of a keyword terminal ('phase'); None for other symbols."""
    return keywords.get(symbol.name) if symbol.is_term else None


def _openings(expansions: Expansions, rule: str, keywords: Mapping[str, str]) -> set[tuple[str, ...]]:
    """The runs of keywords that can open ``rule``: ('game',), ('deck',), ('player', 'deck')...
    A rule that opens with another rule (an owner) continues with its own first keyword."""
    found: set[tuple[str, ...]] = set()
    for first, *rest in (e for e in expansions[rule] if e and e[0].name != rule):
        if first.is_term:
            word = _keyword(first, keywords)
            found |= {(word,)} if word else set()
            continue
        then = _keyword(rest[0], keywords) if rest else None
        found |= {(*lead, then) if then else lead for lead in _openings(expansions, first.name, keywords)}
    return found


def _line_start_pattern(prefixes: set[str], openings: set[tuple[str, ...]]) -> re.Pattern[str]:
    """A line that starts with an optional prefix, then one of ``openings``, blanks between words."""
    alternatives = "|".join(r"[ \t]+".join(map(re.escape, words)) for words in sorted(openings))
    optional_prefix = rf"(?:(?:{'|'.join(map(re.escape, sorted(prefixes)))})[ \t]+)?"
    return re.compile(rf"^{optional_prefix}(?:{alternatives})\b", re.M)


# ---------------------------------------------------------------- every error of a text

def syntax_diagnostics(error: UnexpectedInput, text: str, path: str, parser: Lark) -> list[Diagnostic]:
    """The diagnostic for ``error``, then one for each later independent syntax error.

    ``parser`` is the Lark parser that raised ``error``. After an error, parsing starts
    again at the next line that begins a declaration, with the text before it blanked (so
    lines and columns stay right); no text is parsed twice.
    """
    words = grammar_words(parser)
    found = [describe_syntax_error(error, text, path, words)]
    resumed_at = 0
    while len(found) < MAX_SYNTAX_ERRORS:
        start = _resume_point(text, _error_offset(error, text), resumed_at, words)
        if start is None:
            break
        resumed_at = start
        rest = _blank(text[:start]) + text[start:]
        try:
            parser.parse(rest)
            break
        except UnexpectedInput as later:
            error = later
            found.append(describe_syntax_error(later, rest, path, words))
    return found


def _error_offset(error: UnexpectedInput, text: str) -> int:
    """Where in ``text`` the parser gave up (the end of the text when the text ended early)."""
    if isinstance(error, UnexpectedEOF) or _is_end_token(error):
        return len(text)
    offset: int | None = getattr(error, "pos_in_stream", None)   # lark types it None on the base class
    return len(text) if offset is None else offset


def _resume_point(text: str, offset: int, after: int, words: GrammarWords) -> int | None:
    """The start of the first line at or past ``offset`` (and past ``after``) that starts a
    declaration, or would but for a misspelled keyword ('phse main {')."""
    for match in _LINE_WORD.finditer(text, max(offset, after + 1)):
        if words.declaration_start.match(text, match.start()):
            return match.start()
        if match.start() > offset and _close_word(match.group(), words.declaration_words):
            return match.start()   # not at the error itself: that would report it again
    return None


def _close_word(word: str, candidates: Collection[str]) -> str | None:
    """The candidate ``word`` is most likely a misspelling of, if any is close enough."""
    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.75)
    return close[0] if close else None


def _blank(text: str) -> str:
    """The text with everything but line breaks turned into spaces."""
    return re.sub(r"[^\n]", " ", text)


# ---------------------------------------------------------------- one error

def describe_syntax_error(error: UnexpectedInput, text: str, path: str, words: GrammarWords) -> Diagnostic:
    """The diagnostic for one Lark parse failure."""
    if isinstance(error, UnexpectedEOF) or _is_end_token(error):
        return _unexpected_end(error, text, path)
    if isinstance(error, UnexpectedToken):
        return (_unclosed_before_declaration(error, text, path, words)
                or _misspelled_statement_keyword(error, text, path, words)
                or _unfinished_line(error, text, path) or _unexpected_token(error, path, words))
    return _unexpected_character(error, text, path)


def _unexpected_end(error: UnexpectedInput, text: str, path: str) -> Diagnostic:
    unclosed = _unclosed_bracket(text, path)
    if unclosed:
        return unclosed
    line, column = _end_of_text_before(text, len(text)) or (1, 1)
    return Diagnostic("E004", "the file ends in the middle of a declaration",
                      Span.point(path, line, column), hint=_expected_hint(error))


def _unexpected_character(error: UnexpectedInput, text: str, path: str) -> Diagnostic:
    offset = _error_offset(error, text)
    char = text[offset] if offset < len(text) else "?"
    return Diagnostic("E002", f"unexpected character {char!r}",
                      Span.point(path, error.line, error.column), hint=_expected_hint(error))


def _unclosed_before_declaration(error: UnexpectedToken, text: str, path: str,
                                 words: GrammarWords) -> Diagnostic | None:
    """A declaration where a block should go on: the block before it is never closed."""
    token: Token = error.token
    if not _starts_declaration(text, token, words) or token.start_pos is None:
        return None
    return _unclosed_bracket(text[: token.start_pos], path,
                             f"before line {token.line}, where the next declaration starts")


def _unfinished_line(error: UnexpectedToken, text: str, path: str) -> Diagnostic | None:
    """A token that cannot follow an unfinished line ('let y = (2 +' then '}'): the fix
    belongs at the end of that line, so point there. Not when the token could instead
    close the block (then the token itself is the likelier mistake)."""
    token: Token = error.token
    if {"RBRACE", "PHASE", "$END"} & set(error.expected) or token.start_pos is None:
        return None   # the text before could end there: it is not unfinished
    line_start = text.rfind("\n", 0, token.start_pos) + 1
    if _code_part(text[line_start:token.start_pos]).strip():
        return None
    end = _end_of_text_before(text, line_start)
    if end is None:
        return None
    return Diagnostic("E002", f"unfinished: {_describe_token(token)} on line {token.line} cannot "
                              f"come next", Span.point(path, *end), hint=_expected_hint(error))


def _end_of_text_before(text: str, offset: int) -> tuple[int, int] | None:
    """(line, column) just after the last character before ``offset`` that is neither
    blank nor in a comment."""
    lines = text[:offset].split("\n")
    for number in range(len(lines), 0, -1):
        code = _code_part(lines[number - 1]).rstrip()
        if code:
            return number, len(code) + 1
    return None


def _code_part(line: str) -> str:
    """A line without its comment ('#' outside a string)."""
    in_string = escaped = False
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif in_string and ch == "\\":
            escaped = True
        elif ch == '"':
            in_string = not in_string
        elif ch == "#" and not in_string:
            return line[:i]
    return line


def _misspelled_statement_keyword(error: UnexpectedToken, text: str, path: str,
                                  words: GrammarWords) -> Diagnostic | None:
    """'chose x in ...': a statement that starts with a bare name the parser then takes for the
    target of an assignment; when that name is close to a keyword, say so, at the name."""
    end = error.token.start_pos
    if "ASSIGN_OP" not in error.expected or end is None:
        return None
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    begin = end
    while begin > 0 and (text[begin - 1].isalnum() or text[begin - 1] == "_"):
        begin -= 1
    word = text[begin:end]
    if not word or word in words.keywords or not (word[0].isalpha() or word[0] == "_") \
            or text[:begin].rstrip().endswith("."):
        return None
    close = _close_word(word, words.keywords)
    if not close:
        return None
    line = text.count("\n", 0, begin) + 1
    column = begin - text.rfind("\n", 0, begin)
    return Diagnostic("E002", f"unknown keyword '{word}'", Span(path, line, column, line, column + len(word)),
                      hint=f"did you mean '{close}'?")


def _starts_declaration(text: str, token: Token, words: GrammarWords) -> bool:
    """Whether ``token`` is the first word of a line that starts a declaration."""
    start = token.start_pos
    return start is not None and (start == 0 or text[start - 1] == "\n") \
        and bool(words.declaration_start.match(text, start))


def _is_end_token(error: UnexpectedInput) -> bool:
    return isinstance(error, UnexpectedToken) and error.token.type == "$END"


def token_span(path: str, token: Token) -> Span:
    """The span of ``token`` (one character wide when it is empty or has no end)."""
    line, column = token.line or 1, token.column or 1
    return Span(path, line, column, token.end_line or line, token.end_column or column + max(len(token), 1))


def _unexpected_token(error: UnexpectedToken, path: str, words: GrammarWords) -> Diagnostic:
    token: Token = error.token
    span = token_span(path, token)
    if token.type == "NAME":
        close = _close_word(str(token), words.expected_keywords(error))
        if close:
            return Diagnostic("E002", f"unknown keyword '{token}'", span, hint=f"did you mean '{close}'?")
        if "RBRACE" in error.expected or "COMMA" in error.expected:
            return Diagnostic("E002", f"unexpected name '{token}'", span,
                              hint="a separator or operator may be missing before it")
    return Diagnostic("E002", f"unexpected {_describe_token(token)}", span, hint=_expected_hint(error))


def _describe_token(token: Token) -> str:
    if token.type in ("NAME", "INT", "STRING"):
        return f"{_READABLE[token.type].split(' ', 1)[1]} {str(token)!r}"  # "name 'x'", not "a name"
    return repr(str(token))


def _expected_hint(error: UnexpectedInput) -> str | None:
    expected: Collection[str] = getattr(error, "expected", None) or getattr(error, "allowed", None) or []
    if not expected:
        return None
    names = sorted(expected)
    words = [_READABLE.get(e, f"'{e.lower()}'") for e in names[:8]]
    more = ", ..." if len(names) > 8 else ""
    return "expected " + ", ".join(words) + more


def _unclosed_bracket(text: str, path: str, fix_at: str = "where this block ends") -> Diagnostic | None:
    """The innermost bracket left open at the end of the text, skipping strings and comments;
    the hint says to close it ``fix_at``."""
    stack: list[tuple[str, int, int]] = []
    pairs = {"}": "{", "]": "[", ")": "("}
    line, col, i = 1, 1, 0
    in_string = in_comment = False
    while i < len(text):
        ch = text[i]
        if in_comment:
            in_comment = ch != "\n"
        elif in_string:
            if ch == "\\":
                i, col = i + 1, col + 1
            elif ch in ('"', "\n"):
                in_string = False
        elif ch == "#":
            in_comment = True
        elif ch == '"':
            in_string = True
        elif ch in "{[(":
            stack.append((ch, line, col))
        elif ch in pairs and stack and stack[-1][0] == pairs[ch]:
            stack.pop()
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
        i += 1
    if not stack:
        return None
    ch, line, col = stack[-1]
    closer = {"{": "}", "[": "]", "(": ")"}[ch]
    return Diagnostic("E003", f"'{ch}' is never closed", Span.point(path, line, col),
                      hint=f"add '{closer}' {fix_at}")
