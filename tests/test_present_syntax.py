"""The ``present { ... }`` block: parsed into frozen AST nodes with spans, kept by the
formatter, checked by the linter (the golden files tests/lint/present_*.rules hold one case
per code), and listed by the language server's outline."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import rulelang
from rulelang.check.presentation import is_colour
from rulelang.editor.features import outline, outline_name
from rulelang.present_ast import PresentDecl
from rulelang.syntax.format import format_source
from rulelang.syntax.parser import parse

RULES = """game "presented" { players 2 }
enum suit { hearts, spades }
component card { suit: suit  rank: int } shown as "{suit} {rank}"
zone table: card visible all
deck cards: card in table = [card(suit: s, rank: r) for s in values(suit) for r in 1..2]
var show: int = 0
phase main { show += 1 end game }
present {
  suit.hearts { name "Hearts"  colour "#c62828"  symbol "H" }
  card { title "{suit}"  corner "{rank}"  colour suit }
  show show
}
"""


def _present() -> PresentDecl:
    (decl,) = parse(RULES, "p.rules").of_kind(PresentDecl)
    return decl


def test_the_block_parses_into_frozen_nodes_with_spans() -> None:
    decl = _present()
    hearts, card = decl.looks
    assert (hearts.target, hearts.member, hearts.value("name")) == ("suit", "hearts", "Hearts")
    assert [(p.name, p.value, p.quoted) for p in card.properties] == [
        ("title", "{suit}", True), ("corner", "{rank}", True), ("colour", "suit", False)]
    assert decl.shown_variables == ("show",)
    assert decl.span.line == 8 and hearts.span.line == 9 and card.properties[2].value_span is not None
    assert card.target_span is not None and card.target_span.column == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        hearts.target = "other"  # type: ignore[misc]


def test_its_words_stay_names_elsewhere() -> None:
    game = rulelang.load(RULES, players=2)     # a variable called 'show', read and set
    assert game.new_initial_state().observation(0)["globals"] == {"show": 1}


def test_the_formatter_keeps_it_one_entry_a_line() -> None:
    formatted = format_source(RULES, "p.rules")
    assert parse(formatted, "p.rules") == parse(RULES, "p.rules")
    assert formatted.endswith('present {\n  suit.hearts { name "Hearts" colour "#c62828" symbol "H" }\n'
                              '  card { title "{suit}" corner "{rank}" colour suit }\n  show show\n}\n')


def test_a_ruleset_without_it_has_no_presentation() -> None:
    assert parse(RULES.split("present {")[0], "p.rules").of_kind(PresentDecl) == []


def test_loading_refuses_a_wrong_presentation_with_a_located_diagnostic() -> None:
    with pytest.raises(rulelang.RulesetError) as error:
        rulelang.load(RULES.replace('"#c62828"', '"rouge"'), players=2)
    (found,) = error.value.diagnostics
    assert (found.code, found.span.line, found.span.column) == ("E803", 9, 39)


@pytest.mark.parametrize(("text", "ok"), [("#abc", True), ("#A1b2C3", True), ("navy", True), ("Gold", True),
                                          ("#abcd", False), ("rouge", False), ("", False)])
def test_colours(text: str, ok: bool) -> None:
    assert is_colour(text) is ok


def test_the_outline_lists_it() -> None:
    decls = parse(RULES, "p.rules").declarations
    assert "present" in [outline_name(d) for d, _ in outline(decls)]


def test_a_variant_replaces_its_bases_presentation_with_override(tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(RULES, encoding="utf-8")
    variant = 'extends "base.rules"\noverride present {\n  suit.spades { name "Pikes" }\n}\n'
    (tmp_path / "variant.rules").write_text(variant, encoding="utf-8")
    (tmp_path / "again.rules").write_text('extends "base.rules"\npresent {\n  show show\n}\n', encoding="utf-8")
    game = rulelang.load(tmp_path / "variant.rules", players=2)
    (decl,) = [d for d in game.catalog.decls if isinstance(d, PresentDecl)]
    assert [look.title for look in decl.looks] == ["suit.spades"] and decl.shown_variables is None
    with pytest.raises(rulelang.RulesetError) as error:
        rulelang.load(tmp_path / "again.rules", players=2)
    assert [d.code for d in error.value.diagnostics] == ["E504"]


def test_the_language_server_hovers_names_in_the_block() -> None:
    from rulelang.editor.features import Analysis, hover_text
    path = str(Path("games/jamaica.rules").resolve())
    text = Path(path).read_text(encoding="utf-8")
    index = Analysis(text, path).index
    assert index is not None
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("  marker {"))
    found = index.at(path, line, 3)
    assert found is not None and "component marker" in hover_text(found.symbol, path)
