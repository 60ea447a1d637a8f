"""A ruleset is parsed one declaration's piece of text at a time, each piece's AST kept, so
that an editor's text parsed again after an edit parses only what changed: the AST is the
whole text's, spans included, and a text that does not parse gets the whole text's
diagnostics."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulelang import ast
from rulelang.errors import RulesetError
from rulelang.syntax import parser
from rulelang.syntax.parser import declaration_pieces, grammar_parser
from rulelang.syntax.syntax_errors import grammar_words

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(p for folder in ("games", "examples", "tests") for p in (ROOT / folder).rglob("*.rules"))


def spans(node: ast.Node) -> list[tuple[str, object]]:
    """Every node's class and span, in order (the AST's equality leaves spans out)."""
    found = [(type(node).__name__, node.span)]
    for child in ast.children(node):
        found += spans(child)
    return found


def read(path: Path, text: str, reader: object) -> ast.Node | list[object]:
    try:
        tree: ast.Node = reader(text, str(path))  # type: ignore[operator]
        return tree
    except RulesetError as error:
        return list(error.diagnostics)


@pytest.mark.parametrize("path", RULESETS, ids=[str(p.relative_to(ROOT)) for p in RULESETS])
def test_the_pieces_give_the_whole_texts_ast_and_spans_or_its_diagnostics(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    whole = read(path, text, lambda t, p: parser._parse_as("start", t, p))
    pieces = read(path, text, parser._parse_by_declarations)
    assert pieces == whole
    if isinstance(whole, ast.Node):
        assert isinstance(pieces, ast.Node) and spans(pieces) == spans(whole)


def test_an_edit_parses_again_only_the_piece_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "games" / "tobago.rules").read_text(encoding="utf-8")
    parser._parse_by_declarations(text, "pieces.rules")
    parsed: list[str] = []
    real = parser._parse_as

    def counted(start: str, piece: str, path: str, nesting_checked: bool = False) -> ast.Node:
        parsed.append(piece)
        return real(start, piece, path, nesting_checked)

    monkeypatch.setattr(parser, "_parse_as", counted)
    at = text.index("procedure ")
    edited = text[:at] + text[at:].replace("(", "( ", 1)   # one character typed, no line added
    again = parser._parse_by_declarations(edited, "pieces.rules")
    assert len(parsed) == 1 and "procedure " in parsed[0]
    assert again == real("start", edited, "pieces.rules")


def test_a_piece_that_does_not_parse_alone_gives_the_whole_texts_diagnostics() -> None:
    text = 'game "G" {\n  players 1\n}\n\nphase a {\n  end game\n\nphase b {\n  end game\n}\n'
    with pytest.raises(RulesetError) as whole:
        parser._parse_as("start", text, "unclosed.rules")
    with pytest.raises(RulesetError) as pieces:
        parser._parse_by_declarations(text, "unclosed.rules")
    assert pieces.value.diagnostics == whole.value.diagnostics


def test_pieces_start_at_the_lines_that_open_a_declaration() -> None:
    start = grammar_words(grammar_parser()).declaration_start
    text = '# a comment\ngame "G" {\n  players 1\n}\nvar n: int = 0\n\nplayer var score: int = 0\n'
    assert declaration_pieces(text, start) == [(1, '# a comment\ngame "G" {\n  players 1\n}\n'),
                                              (5, "var n: int = 0\n\n"), (7, "player var score: int = 0\n")]
