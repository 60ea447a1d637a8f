"""Tokenizing position text: the tokens of one line of a position, and a cursor that reads
them (names, punctuation, whole numbers, quoted texts), raising ``LineProblem`` at the token
that does not fit. position_read.py reads the lines with it.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

MAX_INT_DIGITS = 4000
"""The longest integer literal read (decimal digits or hexadecimal ones)."""

_TOKEN = re.compile(r"""
    (?P<blank>[ \t\r]+)
  | (?P<comment>\#.*)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<int>-?0x[0-9a-fA-F]+|-?[0-9]+)
  | (?P<name>\$?[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[\[\]{}:,=.@])
""", re.VERBOSE)


@dataclass(frozen=True)
class Token:
    """One token of a line, at ``column`` (1-based)."""

    kind: str      # string, int, name, punct, end
    text: str
    column: int


class LineProblem(Exception):
    """A problem at one token of a line: the line is skipped, reading goes on."""

    def __init__(self, token: Token, message: str, hint: str | None = None):
        super().__init__(message)
        self.token, self.message, self.hint = token, message, hint


def line_tokens(line: str) -> list[Token]:
    """The tokens of one line, ending with an ``end`` token."""
    found: list[Token] = []
    at = 0
    while at < len(line):
        match = _TOKEN.match(line, at)
        if match is None:
            raise LineProblem(Token("end", line[at], at + 1), f"unexpected character {line[at]!r}")
        kind = match.lastgroup or ""
        if kind not in ("blank", "comment"):
            found.append(Token(kind, match.group(), at + 1))
        at = match.end()
    found.append(Token("end", "", len(line) + 1))
    return found


class TokenLine:
    """A cursor over the tokens of one line."""

    def __init__(self, tokens: list[Token]):
        self.tokens, self.at = tokens, 0

    @property
    def next(self) -> Token:
        """The token at the cursor (the line's ``end`` token once all are taken)."""
        return self.tokens[self.at]

    def peek(self, offset: int = 1) -> Token:
        """The token ``offset`` places after the cursor, or the ``end`` token."""
        return self.tokens[min(self.at + offset, len(self.tokens) - 1)]

    def take(self) -> Token:
        """The token at the cursor, moving past it (never past the ``end`` token)."""
        token = self.tokens[self.at]
        if token.kind != "end":
            self.at += 1
        return token

    def accept(self, text: str) -> bool:
        """Take the name or punctuation ``text`` if it is next; whether it was."""
        if self.next.kind in ("punct", "name") and self.next.text == text:
            self.take()
            return True
        return False

    def expect(self, text: str) -> Token:
        """Take the name or punctuation ``text``, which must come next."""
        token = self.next
        if not self.accept(text):
            raise LineProblem(token, f"expected '{text}', found {shown(token)}")
        return token

    def name(self, what: str = "a name") -> Token:
        """Take a name, which must come next (``what`` says what one was expected)."""
        token = self.take()
        if token.kind != "name":
            raise LineProblem(token, f"expected {what}, found {shown(token)}")
        return token

    def integer(self, what: str = "a whole number") -> tuple[int, Token]:
        """Take a whole number (decimal or ``0x`` hexadecimal) and its token."""
        token = self.take()
        if token.kind != "int":
            raise LineProblem(token, f"expected {what}, found {shown(token)}")
        if len(token.text) > MAX_INT_DIGITS:
            raise LineProblem(token, f"a number of more than {MAX_INT_DIGITS} digits")
        return int(token.text, 0) if "x" in token.text else int(token.text), token

    def string(self) -> tuple[str, Token]:
        """Take a quoted text (escaped as in JSON) and its token."""
        token = self.take()
        if token.kind != "string":
            raise LineProblem(token, f"expected a quoted text, found {shown(token)}")
        try:
            text: str = json.loads(token.text)
        except ValueError:
            raise LineProblem(token, "a quoted text with a bad escape (write it as in JSON)") from None
        return text, token

    def end(self) -> None:
        """The line must have no tokens left."""
        token = self.next
        if token.kind != "end":
            raise LineProblem(token, f"unexpected {shown(token)} at the end of the line")


def shown(token: Token) -> str:
    """A token as a message quotes it (a long one cut short)."""
    if token.kind == "end":
        return "the end of the line"
    text = token.text if len(token.text) <= 40 else token.text[:40] + "..."
    return f"'{text}'"
