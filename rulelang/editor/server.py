"""``rulelang lsp``: a Language Server Protocol server over stdio, built on pygls.

Each open ruleset is linted as ``rulelang lint`` lints it whenever its text changes (and,
when it is saved, the open rulesets that extend it: the linter reads a base as saved), and
its names indexed (``index``); the requests
read that analysis: hover, definition, references, completion, rename, quick fixes and the
outline. Lines and columns are the linter's, 1-based, turned into the protocol's 0-based
positions here.
"""
from __future__ import annotations

from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from rulelang import ast
from rulelang.diagnostics import Diagnostic, Span
from rulelang.editor.board_spaces import BoardSpace, is_board_file, loading_rulesets, space_at
from rulelang.editor.features import (
    TOKEN_TYPES,
    Analysis,
    Completion,
    QuickFix,
    completions,
    formatted,
    hover_text,
    keyword_help,
    outline,
    outline_name,
    quick_fixes,
    rename_edits,
    semantic_tokens,
    word_at,
)
from rulelang.editor.index import NameIndex, Occurrence, Symbol, real_file
from rulelang.editor.present_words import present_completions, present_hover, present_place
from rulelang.editor.space_rename import declared_space, space_places, space_rename_edits

SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
            "info": lsp.DiagnosticSeverity.Information}
SYMBOL_KINDS = {"phase": lsp.SymbolKind.Event, "procedure": lsp.SymbolKind.Function,
                "function": lsp.SymbolKind.Function, "var": lsp.SymbolKind.Variable, "zone": lsp.SymbolKind.Array,
                "deck": lsp.SymbolKind.Array, "enum": lsp.SymbolKind.Enum, "component": lsp.SymbolKind.Struct,
                "supply": lsp.SymbolKind.Variable, "die": lsp.SymbolKind.Variable, "board": lsp.SymbolKind.Object,
                "setup": lsp.SymbolKind.Constructor, "game": lsp.SymbolKind.Module}
COMPLETION_KINDS = {"keyword": lsp.CompletionItemKind.Keyword, "builtin": lsp.CompletionItemKind.Function,
                    "procedure": lsp.CompletionItemKind.Function, "function": lsp.CompletionItemKind.Function,
                    "enum value": lsp.CompletionItemKind.EnumMember, "enum": lsp.CompletionItemKind.Enum,
                    "field": lsp.CompletionItemKind.Field, "attribute": lsp.CompletionItemKind.Property,
                    "component": lsp.CompletionItemKind.Struct, "phase": lsp.CompletionItemKind.Event,
                    "property": lsp.CompletionItemKind.Property}


class RulesServer(LanguageServer):
    """The server and what it knows of each open ruleset, by its file's full path."""

    def __init__(self) -> None:
        super().__init__("rulelang", "1")
        self.analyses: dict[str, Analysis] = {}

    def texts(self) -> dict[str, str]:
        """The text of every open document, by full path."""
        found: dict[str, str] = {}
        for uri, document in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path is not None:
                found[real_file(path)] = document.source
        return found

    def refresh(self, uri: str, saved: bool = False) -> None:
        """Lint and index the document ``uri`` again; once it is ``saved``, the open rulesets
        that extend it too (before, their linter would read the same base as it did)."""
        texts = self.texts()
        changed = _path(uri)
        extending = [p for p in self.analyses if p != changed and changed in self.analyses[p].bases] if saved else []
        for path in [changed, *extending]:
            if path not in texts or is_board_file(path):   # a board file is read, not linted
                continue
            previous = self.analyses.get(path)
            analysis = Analysis(texts[path], path, self.root(), previous)
            self.analyses[path] = analysis
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=from_fs_path(path) or uri,
                diagnostics=[_diagnostic(d) for d in analysis.diagnostics if _in_file(d, path)]))

    def root(self) -> str | None:
        root: str | None = self.workspace.root_path
        return root

    def index(self, uri: str) -> NameIndex | None:
        analysis = self.analyses.get(_path(uri))
        return analysis.index if analysis is not None else None

    def references(self, symbol: Symbol) -> list[Occurrence]:
        """Every occurrence of ``symbol`` in the open rulesets and the files they extend."""
        found: dict[Span, Occurrence] = {}
        for analysis in self.analyses.values():
            index = analysis.index
            if index is not None and symbol.span is not None and symbol.span.file in index.occurrences:
                for occurrence in index.references(symbol):
                    found.setdefault(occurrence.span, occurrence)
        return sorted(found.values(), key=lambda o: (o.span.file, o.span.line, o.span.column))

    def kinds(self, uri: str) -> dict[str, str]:
        """The kind of each name the ruleset declares (a component, a board...)."""
        index = self.index(uri)
        return {name: symbol.kind for name, symbol in index.globals.items()} if index is not None else {}

    def occurrence(self, uri: str, position: lsp.Position) -> Occurrence | None:
        index = self.index(uri)
        return index.at(_path(uri), position.line + 1, position.character + 1) if index is not None else None

    def space(self, uri: str, position: lsp.Position) -> BoardSpace | None:
        """The space of a board file named at the position (board_spaces.py), if any."""
        text = self.workspace.get_text_document(uri).source
        return space_at(self.index(uri), _path(uri), text, position.line + 1, position.character + 1)

    def loading(self, space: BoardSpace) -> dict[str, tuple[str, set[str]]]:
        """The open rulesets that load the space's board file and their bases (board_spaces.py)."""
        indexes = (a.index for a in self.analyses.values() if a.index is not None)
        return loading_rulesets(indexes, self.texts(), space.board_file)

    def board_text(self, space: BoardSpace) -> str | None:
        """The editor's text of the space's board file, if it holds it (else it is read)."""
        return self.texts().get(space.board_file)


def _space_places(ls: RulesServer, space: BoardSpace) -> dict[str, list[Span]]:
    """Every place of a board file's space: its ids in the board file and its
    ``space(BOARD, "ID")`` in the open rulesets that load that file and their bases."""
    return space_places(space.board_file, space.space, ls.loading(space), ls.board_text(space))


def _space_rename(ls: RulesServer, params: lsp.RenameParams) -> dict[str, list[Span]] | None:
    """The edits that rename the space of a board file named at the request's place
    (space_rename.py), in the board file and the open rulesets that load it and their bases
    (None: no space named there)."""
    space = ls.space(params.text_document.uri, params.position)
    if space is None:
        return None
    return space_rename_edits(space.board_file, space.space, params.new_name, ls.loading(space), ls.board_text(space))


def _path(uri: str) -> str:
    return real_file(to_fs_path(uri) or uri)


def _in_file(diagnostic: Diagnostic, path: str) -> bool:
    return diagnostic.span is not None and real_file(diagnostic.span.file) == path


def _range(span: Span) -> lsp.Range:
    return lsp.Range(lsp.Position(span.line - 1, span.column - 1), lsp.Position(span.end_line - 1, span.end_column - 1))


def _location(span: Span) -> lsp.Location:
    return lsp.Location(uri=from_fs_path(span.file) or span.file, range=_range(span))


def _diagnostic(d: Diagnostic) -> lsp.Diagnostic:
    assert d.span is not None
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    return lsp.Diagnostic(range=_range(d.span), message=message, code=d.code, source="rulelang",
                          severity=SEVERITY[d.severity])


def _completion_item(c: Completion) -> lsp.CompletionItem:
    return lsp.CompletionItem(label=c.label, detail=c.detail,
                              kind=COMPLETION_KINDS.get(c.kind, lsp.CompletionItemKind.Variable))


def make_server() -> RulesServer:
    """The server with every feature it serves."""
    server = RulesServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri, saved=True)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.analyses.pop(_path(params.text_document.uri), None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                          diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
        text = ls.workspace.get_text_document(params.text_document.uri).source
        help_text = present_hover(text, params.position.line + 1, params.position.character + 1,
                                  ls.kinds(params.text_document.uri))
        if help_text is not None:   # a property word of 'present', not a name it shares
            return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=help_text))
        found = ls.occurrence(params.text_document.uri, params.position)
        if found is None:
            return _keyword_hover(ls, params)
        text = hover_text(found.symbol, _path(params.text_document.uri))
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                         range=_range(found.span))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RulesServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        found = ls.occurrence(params.text_document.uri, params.position)
        if found is None:
            space = ls.space(params.text_document.uri, params.position)
            declared = declared_space(space.board_file, space.space, ls.board_text(space)) if space else None
            return _location(declared) if declared is not None else None
        return _location(found.symbol.span) if found.symbol.span is not None else None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RulesServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
        found = ls.occurrence(params.text_document.uri, params.position)
        if found is None:
            space = ls.space(params.text_document.uri, params.position)
            return [] if space is None else _space_references(ls, space, params.context.include_declaration)
        return [_location(o.span) for o in ls.references(found.symbol)
                if params.context.include_declaration or o.span != found.symbol.span]

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def completion(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        document = ls.workspace.get_text_document(params.text_document.uri)
        place = present_place(document.source, params.position.line + 1, params.position.character + 1)
        if place is not None and place.target is not None and place.at_property:   # a property's word
            words = present_completions(place, ls.kinds(params.text_document.uri))
            return lsp.CompletionList(is_incomplete=False, items=[
                _completion_item(Completion(word, "property", detail)) for word, detail in words])
        lines = document.lines
        line = lines[params.position.line] if params.position.line < len(lines) else ""
        found = completions(ls.index(params.text_document.uri), line, _path(params.text_document.uri),
                            params.position.line + 1, params.position.character + 1)
        return lsp.CompletionList(is_incomplete=False, items=[_completion_item(c) for c in found])

    @server.feature(lsp.TEXT_DOCUMENT_RENAME)
    def rename(ls: RulesServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
        found, index = ls.occurrence(params.text_document.uri, params.position), ls.index(params.text_document.uri)
        # a ValueError (a builtin, a keyword, a name taken) becomes the reply's error: the client shows why
        if found is None or index is None:
            edits = _space_rename(ls, params)
            if edits is None:
                return None
        else:
            edits = rename_edits(index, found.symbol, params.new_name, ls.references(found.symbol))
        return lsp.WorkspaceEdit(changes={from_fs_path(file) or file: [lsp.TextEdit(_range(s), params.new_name)
                                                                       for s in spans]
                                          for file, spans in edits.items()})

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(ls: RulesServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        analysis = ls.analyses.get(_path(uri))
        if analysis is None:
            return []
        text = ls.workspace.get_text_document(uri).source
        return [_code_action(uri, fix) for d in analysis.diagnostics
                if _in_file(d, _path(uri)) and d.span is not None and _overlaps(_range(d.span), params.range)
                for fix in quick_fixes(d, text)]

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                    lsp.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=[]))
    def semantic_tokens_full(ls: RulesServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
        index = ls.index(params.text_document.uri)
        return lsp.SemanticTokens(data=semantic_tokens(index, _path(params.text_document.uri)) if index else [])

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RulesServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
        text = ls.workspace.get_text_document(params.text_document.uri).source
        new = formatted(text, _path(params.text_document.uri))
        if new is None or new == text:
            return [] if new is not None else None
        lines = text.split("\n")   # the whole text replaced: one edit
        end = lsp.Position(len(lines) - 1, len(lines[-1]))
        return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), new)]

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: RulesServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        index = ls.index(params.text_document.uri)
        if index is None:
            return []
        return [_document_symbol(decl, name_span) for decl, name_span in outline(index.declarations)]

    return server


def _space_references(ls: RulesServer, space: BoardSpace, with_declaration: bool) -> list[lsp.Location]:
    """The places of a board file's space (its declaring ``id`` left out unless asked for)."""
    declared = declared_space(space.board_file, space.space, ls.board_text(space))
    return [_location(span) for spans in _space_places(ls, space).values() for span in spans
            if with_declaration or span != declared]


def _keyword_hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
    """The help of the keyword under the position (its section of docs/language.md), if any."""
    lines = ls.workspace.get_text_document(params.text_document.uri).lines
    line = lines[params.position.line] if params.position.line < len(lines) else ""
    word = word_at(line, params.position.character + 1)
    text = keyword_help(word) if word is not None else None
    if text is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


def _code_action(uri: str, fix: QuickFix) -> lsp.CodeAction:
    return lsp.CodeAction(title=fix.title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[_diagnostic(fix.diagnostic)],
                          edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(_range(fix.span), fix.text)]}))


def _document_symbol(decl: ast.Decl, name_span: Span) -> lsp.DocumentSymbol:
    whole = _range(decl.span)
    return lsp.DocumentSymbol(name=outline_name(decl), kind=SYMBOL_KINDS.get(decl.kind, lsp.SymbolKind.Variable),
                              detail=decl.kind, range=whole, selection_range=_range(name_span))


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    def key(p: lsp.Position) -> tuple[int, int]:
        return p.line, p.character
    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def serve_stdio(**_: Any) -> None:
    """Serve over standard input and output until the client says exit."""
    make_server().start_io()
