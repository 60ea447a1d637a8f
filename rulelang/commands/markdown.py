"""Markdown of the docs (``rulelang explain``) for a reader: rendered by rich's Markdown
renderer, with its styles on a terminal and as plain text elsewhere (a pipe, a file, NO_COLOR).

rich is imported when a text is rendered, never when the command line starts."""

from __future__ import annotations

import io
import re

PLAIN_WIDTH = 80   # columns of the plain text (a pipe has no width of its own)
FENCED_BLOCK = re.compile(r"^```.*?^```[ \t]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")   # what a backslash keeps from meaning Markdown


def render_markdown(text: str, *, terminal: bool) -> str:
    """``text`` (Markdown) rendered for reading: with styles (bold, code) for a terminal of
    the width it has, else as plain text of ``PLAIN_WIDTH`` columns without trailing spaces or
    escape codes. Headings and emphasis become styles or nothing, code spans styles or quotes
    ('repeat'); code blocks are indented."""
    from rich.console import Console
    from rich.markdown import Markdown
    out = io.StringIO()
    if terminal:
        console = Console(file=out, force_terminal=True, highlight=False)
    else:
        console = Console(file=out, force_terminal=False, color_system=None, width=PLAIN_WIDTH, highlight=False)
        text = quote_code_spans(text)
    console.print(Markdown(text))
    if terminal:
        return out.getvalue()
    plain = "\n".join(line.rstrip() for line in out.getvalue().splitlines())
    return re.sub(r"\n{3,}", "\n\n", plain).strip("\n") + "\n"   # one blank line between blocks


def quote_code_spans(text: str) -> str:
    """``text`` with each code span outside fenced blocks written as quoted text ('x'), so
    that plain text still shows where code is."""
    parts, start = [], 0
    for block in FENCED_BLOCK.finditer(text):
        parts += [CODE_SPAN.sub(_quoted, text[start:block.start()]), block.group(0)]
        start = block.end()
    return "".join([*parts, CODE_SPAN.sub(_quoted, text[start:])])


def _quoted(span: re.Match[str]) -> str:
    return "'" + PUNCTUATION.sub(r"\\\1", span.group(2).strip()) + "'"
