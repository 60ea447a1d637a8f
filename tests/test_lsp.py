"""`rulelang lsp` driven over stdio by pygls's own language client, as an editor drives it:
diagnostics as the text changes, hover, definition (into a base file too), references,
completion, rename, a quick fix that makes its diagnostic go away, and the outline."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsp_client import Editor, at, uri_of, where
from lsprotocol import types as lsp

BASE = '''game "Marks" {
  players 2
}

enum colour { red, blue }
var lead: colour = red
player var score: int = 0
zone pile: card
component card { rank: int }

procedure award(p: player, n: int) {
  p.score += n
  let bonus = n + 1
  p.score += bonus
}

phase main {
  for p in players {
    call award(p, 2)
  }
  if lead == blue {
    log size(pile)
  }
  end game
}
'''

VARIANT = '''extends "base.rules"

override phase main {
  for q in players {
    call award(q, 3)
  }
  end game
}
'''


BOARDED = '''game "Boarded" {
  players 1
}

board track = load_board("loop/board.yaml")
var at: space = space(track, "far")

phase main {
  log at
  end game
}
'''

BOARD = "kind: graph\nspaces:\n  - {id: start, next: far}\n  - {id: far, next: start}\n"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lsp")
    (root / "base.rules").write_text(BASE)
    (root / "variant.rules").write_text(VARIANT)
    (root / "boarded.rules").write_text(BOARDED)
    (root / "loop").mkdir()
    (root / "loop" / "board.yaml").write_text(BOARD)
    return root


@pytest.fixture(scope="module")
def editor(workspace: Path) -> Iterator[Editor]:
    opened = Editor(workspace)
    yield opened
    opened.close()


def test_a_typo_gets_its_diagnostic_at_its_range_and_the_quick_fix_removes_it(editor: Editor, workspace: Path) -> None:
    base = workspace / "base.rules"
    assert editor.open(base) == []
    typo = BASE.replace("p.score += bonus", "p.score += bonsu")
    found = editor.change(base, typo)
    assert [d.code for d in found] == ["E101"]
    line, column = where(typo, "bonsu")
    assert found[0].range == lsp.Range(lsp.Position(line - 1, column - 1), lsp.Position(line - 1, column + 4))
    assert found[0].severity == lsp.DiagnosticSeverity.Error
    actions = editor.run(editor.client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri_of(base)), range=found[0].range,
        context=lsp.CodeActionContext(diagnostics=found))))
    assert actions is not None and [a.title for a in actions if isinstance(a, lsp.CodeAction)] == \
        ["change 'bonsu' to 'bonus'"]
    action = actions[0]
    assert isinstance(action, lsp.CodeAction) and action.edit is not None and action.edit.changes is not None
    (edit,) = action.edit.changes[uri_of(base)]
    fixed = apply(typo, edit)
    assert fixed == BASE
    assert editor.change(base, fixed) == []


def apply(text: str, edit: lsp.TextEdit) -> str:
    lines = text.split("\n")
    start, end = edit.range.start, edit.range.end
    assert start.line == end.line
    line = lines[start.line]
    lines[start.line] = line[:start.character] + edit.new_text + line[end.character:]
    return "\n".join(lines)


def test_hover_says_what_a_name_is(editor: Editor, workspace: Path) -> None:
    base = workspace / "base.rules"
    editor.open(base)

    def hover(needle: str, nth: int = 0) -> str:
        return str(editor.hover(base, *where(BASE, needle, nth)))

    assert "player var score: int = 0" in hover("score", 1) and "var `score`" in hover("score", 1)
    assert "procedure award(p: player, n: int)" in hover("award", 1)
    assert "let bonus = n + 1" in hover("bonus", 1) and "local `bonus`" in hover("bonus", 1)
    assert "a value of enum colour" in hover("blue")


def test_definition_and_references_reach_into_the_base_file(editor: Editor, workspace: Path) -> None:
    base, variant = workspace / "base.rules", workspace / "variant.rules"
    editor.open(base)
    assert editor.open(variant) == []
    found = editor.run(editor.client.text_document_definition_async(lsp.DefinitionParams(
        **(at(variant, *where(VARIANT, "award"))))))
    assert isinstance(found, lsp.Location) and found.uri == uri_of(base)
    line, column = where(BASE, "award")
    assert found.range.start == lsp.Position(line - 1, column - 1)
    local = editor.run(editor.client.text_document_definition_async(lsp.DefinitionParams(
        **(at(variant, *where(VARIANT, "q", 1))))))
    assert isinstance(local, lsp.Location) and local.uri == uri_of(variant)
    assert local.range.start == lsp.Position(*(n - 1 for n in where(VARIANT, "q")))
    uses = editor.run(editor.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=True), **(at(base, *where(BASE, "award"))))))
    assert uses is not None
    assert sorted((Path(u.uri).name, u.range.start.line + 1) for u in uses) == \
        [("base.rules", 11), ("base.rules", 19), ("variant.rules", 5)]


def test_completion_after_a_dot_gives_attributes_and_at_a_statement_keywords_and_names(
        editor: Editor, workspace: Path) -> None:
    base = workspace / "base.rules"
    editor.open(base)
    text = BASE.replace("  let bonus = n + 1\n", "  let bonus = n + 1\n  p.\n  \n")
    editor.change(base, text)

    dot_line, dot_column = where(text, "p.\n")
    after_dot = editor.labels(base, dot_line, dot_column + 2)
    assert {"score", "rank", "index"} <= after_dot and "move" not in after_dot
    statement = editor.labels(base, dot_line + 1, 3)
    assert {"move", "let", "choose", "bonus", "n", "p", "award", "pile", "top"} <= statement
    editor.change(base, BASE)


def test_rename_rewrites_every_use_across_the_files(editor: Editor, workspace: Path) -> None:
    base, variant = workspace / "base.rules", workspace / "variant.rules"
    editor.open(base)
    editor.open(variant)
    edit = editor.run(editor.client.text_document_rename_async(lsp.RenameParams(
        new_name="reward", **(at(variant, *where(VARIANT, "award"))))))
    assert edit is not None and edit.changes is not None
    assert {Path(uri).name: len(edits) for uri, edits in edit.changes.items()} == {"base.rules": 2, "variant.rules": 1}
    assert all(e.new_text == "reward" for edits in edit.changes.values() for e in edits)
    with pytest.raises(Exception, match="already declared"):
        editor.run(editor.client.text_document_rename_async(lsp.RenameParams(
            new_name="pile", **(at(base, *where(BASE, "award"))))))


def test_the_outline_lists_the_declarations(editor: Editor, workspace: Path) -> None:
    base = workspace / "base.rules"
    editor.open(base)
    found = editor.run(editor.client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        lsp.TextDocumentIdentifier(uri_of(base)))))
    assert found is not None
    shown = [(s.name, s.kind) for s in found if isinstance(s, lsp.DocumentSymbol)]
    assert shown == [("Marks", lsp.SymbolKind.Module), ("colour", lsp.SymbolKind.Enum),
                     ("lead", lsp.SymbolKind.Variable), ("score", lsp.SymbolKind.Variable),
                     ("pile", lsp.SymbolKind.Array),
                     ("card", lsp.SymbolKind.Struct), ("award", lsp.SymbolKind.Function),
                     ("main", lsp.SymbolKind.Event)]


def test_semantic_tokens_name_what_each_name_is(editor: Editor, workspace: Path) -> None:
    base = workspace / "base.rules"
    editor.open(base)
    legend = ["function", "variable", "parameter", "property", "enumMember", "type", "event", "namespace"]
    found = editor.run(editor.client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        lsp.TextDocumentIdentifier(uri_of(base)))))
    assert found is not None
    tokens: dict[str, set[str]] = {}
    line, column = 0, 0
    data = found.data
    for i in range(0, len(data), 5):
        line, column = line + data[i], (column + data[i + 1] if data[i] == 0 else data[i + 1])
        word = BASE.split("\n")[line][column:column + data[i + 2]]
        tokens.setdefault(word, set()).add(legend[data[i + 3]])
    assert tokens["award"] == {"function"} and tokens["size"] == {"function"}
    assert tokens["score"] == {"property"} or tokens["score"] == {"variable"}
    assert tokens["blue"] == {"enumMember"} and tokens["card"] == {"type"} and tokens["n"] == {"parameter"}
    assert tokens["bonus"] == {"variable"} and tokens["main"] == {"event"}


def test_a_text_that_does_not_parse_keeps_the_names_of_the_last_that_did(editor: Editor, workspace: Path) -> None:
    base = workspace / "base.rules"
    editor.open(base)
    broken = BASE.replace("  end game\n}", "  end game\n", 1)   # the last phase never closed
    assert [d.code for d in editor.change(base, broken)][:1] in (["E003"], ["E004"])
    found = editor.hover(base, *where(BASE, "award", 1))
    assert found is not None and "procedure award" in found
    editor.change(base, BASE)


def test_formatting_gives_the_text_in_rulelang_fmts_layout(editor: Editor, workspace: Path) -> None:
    from rulelang.syntax.format import format_source
    base = workspace / "base.rules"
    editor.open(base)
    messy = BASE.replace("  p.score += n\n", "  p.score   +=n\n").replace("phase main {", "phase  main{")
    editor.change(base, messy)
    edits = editor.run(editor.client.text_document_formatting_async(lsp.DocumentFormattingParams(
        lsp.TextDocumentIdentifier(uri_of(base)), lsp.FormattingOptions(tab_size=2, insert_spaces=True))))
    assert edits is not None and len(edits) == 1
    assert edits[0].range.start == lsp.Position(0, 0) and edits[0].new_text == format_source(messy, "base.rules")
    assert "  p.score += n\n" in edits[0].new_text and "phase main {" in edits[0].new_text
    editor.change(base, BASE)


def test_a_choice_without_otherwise_gets_one_added_by_its_quick_fix(editor: Editor, workspace: Path) -> None:
    base = workspace / "base.rules"
    editor.open(base)
    choice = "  choose c in [x for x in 1..3 if x > 1] by players[0]   # pick\n"
    risky = BASE.replace("  if lead == blue {\n", choice + "  if lead == blue {\n")
    found = editor.change(base, risky)
    assert [d.code for d in found] == ["W308"]
    actions = editor.run(editor.client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri_of(base)), range=found[0].range,
        context=lsp.CodeActionContext(diagnostics=found))))
    assert actions is not None and len(actions) == 1
    action = actions[0]
    assert isinstance(action, lsp.CodeAction) and action.edit is not None and action.edit.changes is not None
    fixed = apply(risky, action.edit.changes[uri_of(base)][0])
    assert "by players[0] otherwise { }   # pick" in fixed
    assert editor.change(base, fixed) == []
    editor.change(base, BASE)


def test_hover_on_a_keyword_gives_its_section_of_the_language_docs(editor: Editor, workspace: Path) -> None:
    base = workspace / "base.rules"
    editor.open(base)
    found = editor.hover(base, *where(BASE, "log"))
    assert found is not None and found.startswith("**`log`**") and "game log" in found
    assert editor.hover(base, *where(BASE, "Marks")) is None


def test_definition_of_a_space_named_in_quotes_is_its_line_in_the_board_file(editor: Editor, workspace: Path) -> None:
    boarded = workspace / "boarded.rules"
    assert editor.open(boarded) == []
    line, column = where(BOARDED, '"far"')
    found = editor.run(editor.client.text_document_definition_async(lsp.DefinitionParams(
        **at(boarded, line, column + 2))))
    assert isinstance(found, lsp.Location) and found.uri == uri_of(workspace / "loop" / "board.yaml")
    row = BOARD.split("\n")[3]   # the id itself, as references list it
    assert found.range == lsp.Range(lsp.Position(3, row.index("far")), lsp.Position(3, row.index("far") + 3))


def test_saving_a_base_lints_the_open_variant_that_extends_it_again(editor: Editor, workspace: Path) -> None:
    base, variant = workspace / "base.rules", workspace / "variant.rules"
    editor.open(base)
    assert editor.open(variant) == []

    def saved(text: str) -> list[lsp.Diagnostic]:
        """The variant's diagnostics once the base is saved with ``text`` (a base is read as saved)."""
        base.write_text(text)
        params = lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri_of(base)))
        return editor.diagnostics_after(lambda: editor.client.text_document_did_save(params), uri_of(variant))

    renamed = BASE.replace("procedure award(", "procedure grant(").replace("call award(", "call grant(")
    try:
        assert [d.code for d in saved(renamed)] == ["E105"]   # the variant still calls award()
    finally:
        assert saved(BASE) == []


def test_a_variant_reads_the_names_of_its_open_base_as_saved_as_its_diagnostics_do(
        editor: Editor, workspace: Path) -> None:
    """A base open with unsaved lines above its declarations: the variant's definitions and
    references into it are at the base's saved places, where its merged declarations (and so
    its diagnostics) come from (docs/editors.md)."""
    base, variant = workspace / "base.rules", workspace / "variant.rules"
    editor.open(base)
    editor.change(base, "# a note\n# not saved yet\n" + BASE)
    editor.open(variant)
    found = editor.run(editor.client.text_document_definition_async(lsp.DefinitionParams(
        **(at(variant, *where(VARIANT, "award"))))))
    assert isinstance(found, lsp.Location)
    assert found.range.start == lsp.Position(*(n - 1 for n in where(BASE, "award")))
    uses = editor.run(editor.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=True), **(at(variant, *where(VARIANT, "award"))))))
    assert uses is not None
    assert sorted((Path(u.uri).name, u.range.start.line + 1) for u in uses if u.uri == uri_of(base)) == \
        [("base.rules", 11), ("base.rules", 19)]
    editor.change(base, BASE)


def test_rename_of_a_space_named_in_quotes_reaches_the_board_file(editor: Editor, workspace: Path) -> None:
    """Renaming ``far`` at ``space(track, "far")``: its id and the ``next`` that names it in
    the board file, and the quoted id in the ruleset; a taken id and a bad one are refused."""
    boarded, board = workspace / "boarded.rules", workspace / "loop" / "board.yaml"
    editor.open(boarded)
    line, column = where(BOARDED, '"far"')
    edit = editor.run(editor.client.text_document_rename_async(lsp.RenameParams(
        new_name="away", **at(boarded, line, column + 2))))
    assert edit is not None and edit.changes is not None
    assert all(e.new_text == "away" for edits in edit.changes.values() for e in edits)
    places = {Path(uri).name: sorted((e.range.start.line + 1, e.range.start.character + 1, e.range.end.character + 1)
                                     for e in edits) for uri, edits in edit.changes.items()}
    rows = BOARD.split("\n")
    assert places == {
        "board.yaml": [(3, rows[2].index("far") + 1, rows[2].index("far") + 4),      # start's next
                       (4, rows[3].index("far") + 1, rows[3].index("far") + 4)],     # far's id
        "boarded.rules": [(line, column + 1, column + 4)]}
    assert edit.changes.keys() == {uri_of(board), uri_of(boarded)}
    for taken_or_bad in ("start", "two words"):
        with pytest.raises(Exception, match=r"already has a space 'start'|not a space id"):
            editor.run(editor.client.text_document_rename_async(lsp.RenameParams(
                new_name=taken_or_bad, **at(boarded, line, column + 2))))


BOARDED_VARIANT = '''extends "boarded.rules"

var back: space = space(track, "far")
'''


def references_at(editor: Editor, path: Path, line: int, column: int, declaration: bool) -> list[tuple[str, int, int]]:
    """The places references list for a 1-based position: file name, line and column, 1-based."""
    found = editor.run(editor.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=declaration), **at(path, line, column))))
    assert found is not None
    return sorted((Path(u.uri).name, u.range.start.line + 1, u.range.start.character + 1) for u in found)


def test_references_of_a_space_named_in_quotes_reach_the_board_file_and_the_rulesets_that_load_it(
        editor: Editor, workspace: Path) -> None:
    """At ``space(track, "far")`` of a variant: the board file's id and the ``next`` that names
    far, the base's ``space(track, "far")`` and the variant's own; without the declaration, no id."""
    boarded, variant = workspace / "boarded.rules", workspace / "boarded_variant.rules"
    variant.write_text(BOARDED_VARIANT)
    editor.open(boarded)
    try:
        editor.open(variant)
        rows = BOARD.split("\n")
        line, column = where(BOARDED_VARIANT, '"far"')
        in_base = where(BOARDED, '"far"')
        expected = [("board.yaml", 3, rows[2].index("far") + 1), ("board.yaml", 4, rows[3].index("far") + 1),
                    ("boarded.rules", in_base[0], in_base[1] + 1), ("boarded_variant.rules", line, column + 1)]
        assert references_at(editor, variant, line, column + 2, declaration=True) == expected
        assert references_at(editor, variant, line, column + 2, declaration=False) == \
            [place for place in expected if place[1:] != (4, rows[3].index("far") + 1)]
    finally:
        editor.client.text_document_did_close(lsp.DidCloseTextDocumentParams(
            text_document=lsp.TextDocumentIdentifier(uri_of(variant))))
        variant.unlink()


def test_definition_and_references_from_inside_the_board_file(editor: Editor, workspace: Path) -> None:
    """Asked about board.yaml (not linted): from the ``next: far`` of start, definition is far's
    id and references are the board file's places and the open ruleset's ``space(track, "far")``;
    rename from far's id rewrites the same places."""
    boarded, board = workspace / "boarded.rules", workspace / "loop" / "board.yaml"
    editor.open(boarded)
    editor.client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri_of(board), language_id="yaml", version=1, text=BOARD)))
    rows = BOARD.split("\n")
    try:
        found = editor.run(editor.client.text_document_definition_async(lsp.DefinitionParams(
            **at(board, 3, rows[2].index("far") + 2))))
        assert isinstance(found, lsp.Location) and found.uri == uri_of(board)
        assert found.range.start == lsp.Position(3, rows[3].index("far"))
        in_ruleset = where(BOARDED, '"far"')
        assert references_at(editor, board, 3, rows[2].index("far") + 2, declaration=True) == [
            ("board.yaml", 3, rows[2].index("far") + 1), ("board.yaml", 4, rows[3].index("far") + 1),
            ("boarded.rules", in_ruleset[0], in_ruleset[1] + 1)]
        assert uri_of(board) not in editor.published   # a board file is not linted as a ruleset
        edit = editor.run(editor.client.text_document_rename_async(lsp.RenameParams(
            new_name="away", **at(board, 4, rows[3].index("far") + 2))))
        assert edit is not None and edit.changes is not None
        assert {Path(uri).name: len(edits) for uri, edits in edit.changes.items()} == \
            {"board.yaml": 2, "boarded.rules": 1}
    finally:
        editor.client.text_document_did_close(lsp.DidCloseTextDocumentParams(
            text_document=lsp.TextDocumentIdentifier(uri_of(board))))
