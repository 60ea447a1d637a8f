"""Reading a ruleset's or a test file's text without parsing it: what lies outside strings
and comments, and text blanked so that lines and columns stay where they were. The syntax
errors' hints (``syntax_errors``) and the test files read one scenario at a time
(``scenario_blocks``) use them; no Lark here.
"""
from __future__ import annotations

import re
from collections.abc import Iterator


def outside_strings(text: str) -> Iterator[tuple[int, str]]:
    """(index, character) of each character of ``text`` outside string literals (quotes
    left out)."""
    in_string = escaped = False
    for i, ch in enumerate(text):
        if escaped:
            escaped = False
        elif in_string and ch == "\\":
            escaped = True
        elif ch == '"':
            in_string = not in_string
        elif not in_string:
            yield i, ch


def code_part(line: str) -> str:
    """A line without its comment ('#' outside a string)."""
    return next((line[:i] for i, ch in outside_strings(line) if ch == "#"), line)


def blank(text: str) -> str:
    """The text with everything but line breaks turned into spaces."""
    return re.sub(r"[^\n]", " ", text)
