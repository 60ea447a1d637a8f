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
from dataclasses import replace

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .diagnostics import Diagnostic, Span

KEYWORDS = ["game", "extends", "enum", "component", "deck", "zone", "var", "supply", "die", "board", "setup", "phase", "procedure", "score", "tiebreak", "invariant", "override", "player", "space", "let", "roll", "random", "call", "if", "elif", "else", "for", "in", "while", "repeat", "until", "break", "continue", "choose", "by", "otherwise", "option", "when", "simultaneous", "move", "to", "shuffle", "gain", "pay", "from", "return", "next", "end", "log", "then", "and", "or", "not", "true", "false", "none", "visible", "shown", "as", "list"]

_READABLE = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "COLON": "':'", "EQUAL": "'='", "NAME": "a name", "INT": "a number",
    "STRING": "a string", "$END": "the end of the file", "DOT": "'.'", "ASSIGN_OP": "'='",
    "COMP_OP": "a comparison", "_NOT": "'not'",
}


# A line that starts a top-level declaration: where parsing can safely start again.
DECLARATION_START = re.compile(
    r"^(?:override[ \t]+)?(?:(?:player|space|component)[ \t]+(?:zone|var|deck)\b|(?:game|extends|enum|"
    r"component|deck|zone|var|supply|die|board|setup|phase|procedure|score|tiebreak|invariant)\b)", re.M)
DECLARATION_WORDS = ["game", "extends", "enum", "component", "deck", "zone", "var", "supply", "die", "board", "setup", "phase", "procedure", "score", "tiebreak", "invariant", "override"]
_LINE_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*", re.M)
MAX_SYNTAX_ERRORS = 20


def syntax_diagnostics(error: UnexpectedInput, text: str, path: str, parse_text) -> list[Diagnostic]:
    """The diagnostic for ``error``, then one for each later independent syntax error.

    ``parse_text(text)`` parses a whole text, raising ``UnexpectedInput``. After an error,
    parsing starts again at the next line that begins a declaration, with the text before
    it blanked (so lines and columns stay right); no text is parsed twice.
    """
    found = [describe_syntax_error(error, text, path)]
    start = 0
    while len(found) < MAX_SYNTAX_ERRORS:
        start = _resume_point(text, _error_offset(error, text), start)
        if start is None:
            break
        rest = _blank(text[:start]) + text[start:]
        try:
            parse_text(rest)
            break
        except UnexpectedInput as later:
            error = later
            found.append(describe_syntax_error(later, rest, path))
    return found


def _error_offset(error: UnexpectedInput, text: str) -> int:
    if isinstance(error, UnexpectedEOF) or _is_end_token(error):
        return len(text)
    offset = getattr(error, "pos_in_stream", None)
    if offset is None:
        offset = getattr(getattr(error, "token", None), "start_pos", None)
    return len(text) if offset is None else offset


def _resume_point(text: str, offset: int, after: int) -> int | None:
    """The start of the first line at or past ``offset`` (and past ``after``) that starts a
    declaration, or would but for a misspelled keyword ('phse main {')."""
    for match in _LINE_WORD.finditer(text, max(offset, after + 1)):
        if DECLARATION_START.match(text, match.start()):
            return match.start()
        if match.start() > offset and difflib.get_close_matches(match.group(), DECLARATION_WORDS, n=1, cutoff=0.75):
            return match.start()   # not at the error itself: that would report it again
    return None


def _blank(text: str) -> str:
    """The text with everything but line breaks turned into spaces."""
    return re.sub(r"[^\n]", " ", text)


def describe_syntax_error(error: UnexpectedInput, text: str, path: str) -> Diagnostic:
    """The diagnostic for one Lark parse failure."""
    if isinstance(error, UnexpectedEOF) or _is_end_token(error):
        unclosed = _unclosed_bracket(text, path)
        if unclosed:
            return unclosed
        line, column = _end_of_text_before(text, len(text)) or (1, 1)
        return Diagnostic("E004", "the file ends in the middle of a declaration",
                          Span.point(path, line, column), hint=_expected_hint(error))
    if isinstance(error, UnexpectedToken) and _starts_declaration(text, error.token):
        block = _unclosed_bracket(text[: error.token.start_pos], path)
        if block:
            return replace(block, hint=block.hint.replace("where this block ends",
                                                          f"before line {error.token.line}, where the next "
                                                          f"declaration starts"))
    if isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else "?"
        return Diagnostic("E002", f"unexpected character {char!r}",
                          Span.point(path, error.line, error.column), hint=_expected_hint(error))
    return (_misspelled_statement_keyword(error, text, path) or _unfinished_line(error, text, path)
            or _unexpected_token(error, path))


def _unfinished_line(error: UnexpectedToken, text: str, path: str) -> Diagnostic | None:
    """A token that cannot follow an unfinished line ('let y = (2 +' then '}'): the fix
    belongs at the end of that line, so point there. Not when the token could instead
    close the block (then the token itself is the likelier mistake)."""
    if {"RBRACE", "PHASE", "$END"} & set(error.expected) or getattr(error.token, "start_pos", None) is None:
        return None   # the text before could end there: it is not unfinished
    start = error.token.start_pos
    line_start = text.rfind("\n", 0, start) + 1
    if _code_part(text[line_start:start]).strip():
        return None
    end = _end_of_text_before(text, line_start)
    if end is None:
        return None
    return Diagnostic("E002", f"unfinished: {_describe_token(error.token)} on line {error.token.line} cannot "
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


def _starts_declaration(text: str, token) -> bool:
    """Whether ``token`` is the first word of a line that starts a declaration."""
    start = getattr(token, "start_pos", None)
    return start is not None and (start == 0 or text[start - 1] == "\n") and bool(DECLARATION_START.match(text, start))


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
