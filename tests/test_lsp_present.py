"""`rulelang lsp` over stdio inside a ``present { }`` block (docs/language.md, "Presentation"):
a property word (``colour``, ``within``...) is the property, not a name it shares (an enum, a
builtin): hover gives its help, references and rename of that name leave it alone, and
completion inside an entry offers the properties that entry allows (the checker's tables)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsp_client import Editor, at, uri_of, where
from lsprotocol import types as lsp

from rulelang.check.presentation import (
    BOARD_PROPERTIES,
    BOARD_VALUE_PROPERTIES,
    COMPONENT_PROPERTIES,
    ENUM_VALUE_PROPERTIES,
)

SHOWN = '''game "Shown" {
  players 2
}

enum colour { red, blue }
component card { tint: colour  rank: int  spot: space }
board strip = square_grid(3, 1)
zone row: card
deck cards: card in row = [card(tint: c, rank: 1, spot: space(strip, "a1")) for c in values(colour)]
var lead: colour = red

phase main {
  log lead
  end game
}

present {
  colour.red { name "Red"  colour "#c62828" }
  colour.blue { colour "navy" }
  card { title "{rank}"  colour tint  on spot  within row }
  strip { label "{name}" }
  show lead
}
'''


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Editor, Path]]:
    root = tmp_path_factory.mktemp("present")
    path = root / "shown.rules"
    path.write_text(SHOWN)
    editor = Editor(root)
    assert editor.open(path) == []
    yield editor, path
    editor.close()


def hover(editor: Editor, path: Path, needle: str, nth: int = 0, text: str = SHOWN) -> str | None:
    return editor.hover(path, *where(text, needle, nth))


def test_hover_on_a_property_word_gives_the_propertys_help_not_the_name_it_shares(
        shown: tuple[Editor, Path]) -> None:
    editor, path = shown
    card_colour = hover(editor, path, "colour tint")
    assert card_colour is not None and card_colour.startswith("**`colour`** (a property of a component kind")
    assert "enum" not in card_colour.split("\n")[0]
    value_colour = hover(editor, path, 'colour "navy"')
    assert value_colour is not None and "a property of an enum value" in value_colour
    within = hover(editor, path, "within row")
    assert within is not None and within.startswith("**`within`**") and "zone" in within   # not the builtin
    label = hover(editor, path, "label")
    assert label is not None and "a property of a board" in label
    show = hover(editor, path, "show lead")
    assert show is not None and show.startswith("**`show a, b, ...`**")
    target = hover(editor, path, "colour.red")   # an entry's target is still the name it is
    assert target is not None and "enum colour" in target and "enum `colour`" in target


def test_references_of_an_enum_leave_the_property_words_of_the_same_name_out(shown: tuple[Editor, Path]) -> None:
    editor, path = shown
    uses = editor.run(editor.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=True), **at(path, *where(SHOWN, "colour {")))))
    assert uses is not None and all(u.uri == uri_of(path) for u in uses)
    places = sorted((u.range.start.line + 1, u.range.start.character + 1) for u in uses)
    assert places == sorted([where(SHOWN, "colour {"), where(SHOWN, "colour  rank"), where(SHOWN, "colour)"),
                             where(SHOWN, "colour = red"), where(SHOWN, "colour.red"), where(SHOWN, "colour.blue")])


def test_completion_inside_an_entry_offers_the_properties_it_allows(shown: tuple[Editor, Path]) -> None:
    editor, path = shown
    assert editor.labels(path, *where(SHOWN, 'title "')) == set(COMPONENT_PROPERTIES)   # at an entry's start
    assert editor.labels(path, *where(SHOWN, "on spot")) == set(COMPONENT_PROPERTIES)   # after a property
    assert editor.labels(path, *where(SHOWN, 'name "Red"')) == set(ENUM_VALUE_PROPERTIES)
    line, column = where(SHOWN, "label")
    assert editor.labels(path, line, column + 2) == set(BOARD_PROPERTIES)   # a word half typed: 'la'
    value = editor.labels(path, *where(SHOWN, "tint  on"))   # a value goes there: the names in scope
    assert "title" not in value and "lead" in value


COLOURED = '''game "Coloured" {
  players 2
}

board track = load_board("track.yaml")
var round: int = 0

phase main {
  round += 1
  end game
}

present {
  track { colour ground }
  track.water { name "open water"  colour "#8ec5ea" }
}
'''

TRACK = """kind: graph
spaces:
  - {id: start, next: shore, ground: meadow}
  - {id: shore, next: start, ground: water}
"""


def test_a_boards_colouring_attribute_and_its_values_have_their_help_and_completions(
        tmp_path: Path) -> None:
    (tmp_path / "track.yaml").write_text(TRACK)
    path = tmp_path / "coloured.rules"
    path.write_text(COLOURED)
    editor = Editor(tmp_path)
    try:
        assert editor.open(path) == []
        by_attribute = hover(editor, path, "colour ground", text=COLOURED)
        assert by_attribute is not None and "a property of a board" in by_attribute
        assert "the attribute whose values colour its spaces" in by_attribute
        by_value = hover(editor, path, 'colour "#8ec5ea"', text=COLOURED)
        assert by_value is not None and "a property of a board's colouring value" in by_value
        assert editor.labels(path, *where(COLOURED, 'name "open')) == set(BOARD_VALUE_PROPERTIES)
    finally:
        editor.close()
