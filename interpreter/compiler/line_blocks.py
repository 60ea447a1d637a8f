"""The block structure of generated lines, as the passes over a function's text read it: a
line's indent, lines that hold no statement, and where the block a line opens ends."""
from __future__ import annotations

__all__ = ["end_of_block", "indent_of", "is_blank"]


def indent_of(text: str) -> int:
    """The spaces before the line's text."""
    return len(text) - len(text.lstrip(" "))


def is_blank(text: str) -> bool:
    """Whether the line holds no statement (empty, or a comment only)."""
    stripped = text.strip()
    return not stripped or stripped.startswith("#")


def end_of_block(texts: list[str], at: int) -> int:
    """The line after the block that the line ``at`` opens (its deeper lines)."""
    indent, end = indent_of(texts[at]), at + 1
    while end < len(texts) and (is_blank(texts[end]) or indent_of(texts[end]) > indent):
        end += 1
    return end
