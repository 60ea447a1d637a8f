"""A scenario test file read one scenario at a time, so that a syntax error in one scenario
costs that scenario alone: the others still parse and run (docs/scenarios.md, "Failures").

The file is parsed whole first. Only when that fails is it cut into its blocks: each
``scenario "..." { ... }`` at the top level (found by matching braces outside strings and
comments) is parsed with the file's header and without the other blocks, which are blanked
to spaces so that every line and column stays where it was in the file.
"""
from __future__ import annotations

from dataclasses import replace

from rulelang import scenario_ast
from rulelang.diagnostics import Diagnostic
from rulelang.errors import RulesetError
from rulelang.syntax.parser import parse_tests
from rulelang.syntax.text_scan import blank, code_part, outside_strings

_OPENING = "scenario"


def parse_tests_apart(text: str, path: str) -> tuple[scenario_ast.TestsFile, list[Diagnostic]]:
    """The test file's AST with every scenario that parses, and the syntax diagnostics of
    those that do not; RulesetError if the file's header (what is outside its scenarios)
    does not parse, or the file has no scenario block to set apart."""
    try:
        return parse_tests(text, path), []
    except RulesetError as whole_error:
        blocks = scenario_blocks(text)
        if not blocks:
            raise
        try:
            header = parse_tests(_blanked(text, blocks), path)
        except RulesetError:
            raise whole_error from None
    scenarios: list[scenario_ast.Scenario] = []
    problems: list[Diagnostic] = []
    for block in blocks:
        parsed, found = _parsed_alone(text, blocks, block, path)
        scenarios += parsed
        problems += found
    return replace(header, scenarios=tuple(scenarios)), problems


def _parsed_alone(text: str, blocks: list[tuple[int, int]], block: tuple[int, int],
                  path: str) -> tuple[tuple[scenario_ast.Scenario, ...], list[Diagnostic]]:
    """The scenario of ``block`` parsed with the header and without the other blocks, or its
    syntax diagnostics."""
    try:
        return parse_tests(_blanked(text, [b for b in blocks if b != block]), path).scenarios, []
    except RulesetError as error:
        return (), list(error.diagnostics)


def scenario_blocks(text: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of each ``scenario`` block at the top level of ``text``, from
    its keyword to its closing brace (to the end of the text if it is never closed)."""
    blocks: list[tuple[int, int]] = []
    depth, start, offset = 0, -1, 0
    for line in text.splitlines(keepends=True):
        for i, char in outside_strings(code_part(line)):
            at = offset + i
            if char == "{":
                depth += 1
            elif char == "}" and depth > 0:
                depth -= 1
                if depth == 0 and start >= 0:
                    blocks.append((start, at + 1))
                    start = -1
            elif depth == 0 and _word_at(text, at, _OPENING):
                if start >= 0:   # (the one before never opened its braces)
                    blocks.append((start, at))
                start = at
        offset += len(line)
    if start >= 0:
        blocks.append((start, len(text)))
    return blocks


def _blanked(text: str, blocks: list[tuple[int, int]]) -> str:
    """``text`` with each block's characters but its line breaks made spaces."""
    for start, end in blocks:
        text = text[:start] + blank(text[start:end]) + text[end:]
    return text


def _word_at(text: str, i: int, word: str) -> bool:
    """Whether ``word`` stands alone at offset ``i`` (no letter, digit or _ on either side)."""
    if not text.startswith(word, i):
        return False
    before = text[i - 1] if i > 0 else " "
    after = text[i + len(word)] if i + len(word) < len(text) else " "
    return not (before.isalnum() or before == "_" or after.isalnum() or after == "_")
