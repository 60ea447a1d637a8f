"""A language client for the tests of `rulelang lsp` (test_lsp.py, test_lsp_present.py): pygls's
own client over stdio, on its own event loop, as an editor drives the server; and the places
a request names (a file, a 1-based line and column, the nth occurrence of a text)."""
from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

T = TypeVar("T")


class Editor:
    """A language client on its own event loop, with the diagnostics the server published."""

    def __init__(self, root: Path):
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("rulelang-tests", "1")
        self.published: dict[str, list[lsp.Diagnostic]] = {}
        self.arrived = asyncio.Event()
        self.versions: dict[str, int] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # type: ignore[untyped-decorator]
        def publish(params: lsp.PublishDiagnosticsParams) -> None:
            self.published[params.uri] = list(params.diagnostics)
            self.arrived.set()

        self.run(self.client.start_io(sys.executable, "-m", "rulelang.cli", "lsp"))
        self.run(self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(root)))))
        self.client.initialized(lsp.InitializedParams())

    def run(self, work: Awaitable[T]) -> T:
        return self.loop.run_until_complete(asyncio.wait_for(work, 60))

    def diagnostics_after(self, send: Any, uri: str) -> list[lsp.Diagnostic]:
        """Send a notification and wait for the diagnostics of ``uri`` it brings."""
        self.arrived.clear()
        self.published.pop(uri, None)
        send()

        async def wait() -> list[lsp.Diagnostic]:
            while uri not in self.published:
                self.arrived.clear()
                await self.arrived.wait()
            return self.published[uri]
        return self.run(wait())

    def open(self, path: Path) -> list[lsp.Diagnostic]:
        uri = uri_of(path)
        self.versions[uri] = 1
        item = lsp.TextDocumentItem(uri=uri, language_id="rulelang", version=1, text=path.read_text())
        return self.diagnostics_after(lambda: self.client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(text_document=item)), uri)

    def change(self, path: Path, text: str) -> list[lsp.Diagnostic]:
        uri = uri_of(path)
        self.versions[uri] += 1
        params = lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)])
        return self.diagnostics_after(lambda: self.client.text_document_did_change(params), uri)

    def hover(self, path: Path, line: int, column: int) -> str | None:
        """The text of the hover at a 1-based line and column (None: no hover there)."""
        found = self.run(self.client.text_document_hover_async(lsp.HoverParams(**at(path, line, column))))
        if found is None:
            return None
        assert isinstance(found.contents, lsp.MarkupContent)
        return found.contents.value

    def labels(self, path: Path, line: int, column: int) -> set[str]:
        """The labels of the completions at a 1-based line and column."""
        found = self.run(self.client.text_document_completion_async(lsp.CompletionParams(**at(path, line, column))))
        assert isinstance(found, lsp.CompletionList)
        return {item.label for item in found.items}

    def close(self) -> None:
        self.run(self.client.shutdown_async(None))
        self.client.exit(None)
        self.run(self.client.stop())  # type: ignore[no-untyped-call]
        self.loop.close()


def uri_of(path: Path) -> str:
    return from_fs_path(str(path.resolve())) or ""


def at(path: Path, line: int, column: int) -> dict[str, Any]:
    """The document and position of a 1-based line and column, as a request names them."""
    return {"text_document": lsp.TextDocumentIdentifier(uri_of(path)), "position": lsp.Position(line - 1, column - 1)}


def where(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """The 1-based line and column of the ``nth`` occurrence of ``needle`` in ``text``."""
    offset = -1
    for _ in range(nth + 1):
        offset = text.index(needle, offset + 1)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
