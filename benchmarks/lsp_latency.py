"""How long an editor waits for ``rulelang lsp``: from an edit to its diagnostics, and from a
completion request to its answer, measured as an editor sees them (pygls's client over stdio,
one server process, the clock from the message sent to the message received).

    python benchmarks/lsp_latency.py [--file games/tobago.rules] [--edits 40] [--completions 40]

Each edit changes one character in a line of the ruleset (a digit turned into another, or a
space added at a line's end) as typing does: the diagnostics that follow are those of the
whole file, linted as ``rulelang lint`` lints it. The figures: median and 90th percentile in
milliseconds. A benchmark, not a test: the clock moves with the machine's load.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

ROOT = Path(__file__).resolve().parent.parent


def edited(text: str, chooser: random.Random) -> str:
    """``text`` with one character changed as a person types: a digit into another, or a space
    at the end of a line of code."""
    lines = text.split("\n")
    while True:
        number = chooser.randrange(len(lines))
        line = lines[number]
        digits = [i for i, c in enumerate(line) if c.isdigit() and "#" not in line[:i]]
        if digits:
            at = chooser.choice(digits)
            lines[number] = line[:at] + str((int(line[at]) + 1) % 10) + line[at + 1:]
            return "\n".join(lines)
        if line.strip() and not line.lstrip().startswith("#"):
            lines[number] = line + " "
            return "\n".join(lines)


def statement_places(text: str) -> list[lsp.Position]:
    """The start of every indented line of code: where a statement may be written."""
    return [lsp.Position(n, len(line) - len(line.lstrip())) for n, line in enumerate(text.split("\n"))
            if line.startswith("  ") and line.strip() and not line.lstrip().startswith("#")]


async def measure(path: Path, edits: int, completions: int) -> tuple[list[float], list[float]]:
    client = LanguageClient("rulelang-latency", "1")
    arrived: asyncio.Queue[float] = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # type: ignore[untyped-decorator]
    def publish(params: lsp.PublishDiagnosticsParams) -> None:
        arrived.put_nowait(time.perf_counter())

    await client.start_io(sys.executable, "-m", "rulelang", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(),
                                                       root_uri=from_fs_path(str(ROOT))))
    client.initialized(lsp.InitializedParams())
    uri = from_fs_path(str(path.resolve())) or ""
    text = path.read_text(encoding="utf-8")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "rulelang", 1, text)))
    await arrived.get()
    chooser = random.Random(1)
    edit_times: list[float] = []
    for version in range(2, edits + 2):
        changed = edited(text, chooser)
        sent = time.perf_counter()
        document = lsp.VersionedTextDocumentIdentifier(version=version, uri=uri)
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            document, [lsp.TextDocumentContentChangeWholeDocument(changed)]))
        edit_times.append(await arrived.get() - sent)
    places = statement_places(text)
    completion_times: list[float] = []
    for _ in range(completions):
        sent = time.perf_counter()
        await client.text_document_completion_async(lsp.CompletionParams(
            lsp.TextDocumentIdentifier(uri), chooser.choice(places)))
        completion_times.append(time.perf_counter() - sent)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()  # type: ignore[no-untyped-call]
    return edit_times, completion_times


def shown(name: str, seconds: list[float]) -> str:
    ms = sorted(1000 * s for s in seconds)
    return (f"{name}: median {statistics.median(ms):.0f} ms, 90th percentile "
            f"{ms[int(0.9 * (len(ms) - 1))]:.0f} ms ({len(ms)} of them)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=ROOT / "games" / "tobago.rules")
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--completions", type=int, default=40)
    args = parser.parse_args()
    edits, completions = asyncio.run(measure(args.file, args.edits, args.completions))
    print(f"{args.file.name}, {len(args.file.read_text(encoding='utf-8').splitlines())} lines")
    print(shown("diagnostics after an edit", edits))
    print(shown("completion", completions))


if __name__ == "__main__":
    main()
