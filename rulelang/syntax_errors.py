"""Friendly syntax errors: turn a Lark failure into a diagnostic that says what to fix.

Lark reports where it gave up; this module looks at what it expected and at the text
around that place to point where the fix belongs (an unclosed block points at its '{').
"""
from __future__ import annotations

import difflib

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .diagnostics import Diagnostic, Span

KEYWORDS = (
    "game extends enum component deck zone var supply die board setup phase procedure score "
    "tiebreak invariant override player space let roll random call if elif else for in while "
    "repeat until break continue choose by otherwise option when simultaneous move to shuffle "
    "gain pay from return next end log then and or not true false none visible shown as list"
).split()

_READABLE = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "COLON": "':'", "EQUAL": "'='", "NAME": "a name", "INT": "a number",
    "STRING": "a string", "$END": "the end of the file", "DOT": "'.'", "ASSIGN_OP": "'='",
    "COMP_OP": "a comparison", "_NOT": "'not'",
}


def describe_syntax_error(error: UnexpectedInput, text: str, path: str) -> Diagnostic:
    """The diagnostic for one Lark parse failure."""
    unclosed = _unclosed_bracket(text, path)
    if isinstance(error, UnexpectedEOF) or _is_end_token(error):
        if unclosed:
            return unclosed
        line = text.rstrip().count("\n") + 1
        return Diagnostic("E004", "the file ends in the middle of a declaration",
                          Span.point(path, line, 1), hint=_expected_hint(error))
    if isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else "?"
        return Diagnostic("E002", f"unexpected character {char!r}",
                          Span.point(path, error.line, error.column), hint=_expected_hint(error))
    return _misspelled_statement_keyword(error, text, path) or _unexpected_token(error, path)


def _misspelled_statement_keyword(error: UnexpectedInput, text: str, path: str) -> Diagnostic | None:
    """'chose x in ...': a statement that starts with a bare name the parser then takes for the
    target of an assignment; when that name is close to a keyword, say so, at the name."""
    if not isinstance(error, UnexpectedToken) or "ASSIGN_OP" not in error.expected:
        return None
    end = getattr(error.token, "start_pos", None)
    if end is None:
        return None
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    begin = end
    while begin > 0 and (text[begin - 1].isalnum() or text[begin - 1] == "_"):
        begin -= 1
    word = text[begin:end]
    before = text[:begin].rstrip()
    if not word or word in KEYWORDS or not (word[0].isalpha() or word[0] == "_") or before.endswith("."):
        return None
    close = difflib.get_close_matches(word, KEYWORDS, n=1, cutoff=0.75)
    if not close:
        return None
    line = text.count("\n", 0, begin) + 1
    column = begin - text.rfind("\n", 0, begin)
    return Diagnostic("E002", f"unknown keyword '{word}'", Span(path, line, column, line, column + len(word)),
                      hint=f"did you mean '{close[0]}'?")


def _is_end_token(error: UnexpectedInput) -> bool:
    return isinstance(error, UnexpectedToken) and error.token.type == "$END"


def _unexpected_token(error: UnexpectedToken, path: str) -> Diagnostic:
    token = error.token
    span = Span(path, token.line, token.column, token.end_line or token.line,
                token.end_column or token.column + max(len(token), 1))
    if token.type == "NAME":
        close = difflib.get_close_matches(str(token), KEYWORDS, n=1, cutoff=0.75)
        expected_words = {e.lower() for e in error.expected}
        if close and close[0] in expected_words:
            return Diagnostic("E002", f"unknown keyword '{token}'", span, hint=f"did you mean '{close[0]}'?")
        if "RBRACE" in error.expected or "COMMA" in error.expected:
            return Diagnostic("E002", f"unexpected name '{token}'", span,
                              hint="a separator or operator may be missing before it")
    return Diagnostic("E002", f"unexpected {_describe_token(token)}", span, hint=_expected_hint(error))


def _describe_token(token) -> str:
    if token.type in ("NAME", "INT", "STRING"):
        return f"{_READABLE[token.type].split(' ', 1)[1]} {str(token)!r}"  # "name 'x'", not "a name"
    return repr(str(token))


def _expected_hint(error: UnexpectedInput) -> str | None:
    expected = sorted(getattr(error, "expected", None) or getattr(error, "allowed", None) or [])
    if not expected:
        return None
    words = [_READABLE.get(e, f"'{e.lower()}'") for e in expected[:8]]
    more = ", ..." if len(expected) > 8 else ""
    return "expected " + ", ".join(words) + more


def _unclosed_bracket(text: str, path: str) -> Diagnostic | None:
    """The innermost bracket left open at the end of the text, skipping strings and comments."""
    stack = []
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
            elif ch == '"' or ch == "\n":
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
                      hint=f"add '{closer}' where this block ends")
