"""Rendering diagnostics: text for people, JSON, SARIF 2.1.0 and GitHub annotations for tools.

Text is ``path:line:col: CODE message``, the source line, a caret line under the span and
the hint, then a summary line. Colour is ANSI and only asked for on a terminal.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeAlias

from rulelang.diagnostics import REGISTRY, Diagnostic

FORMATS = ("text", "json", "sarif", "github")
TAB = 4
WIDTH = 160   # the longest source line shown whole
MAX_SHOWN_BYTES = 8 * 1024 * 1024   # larger files are not read to show a line
MAX_SHOWN = 100   # the problems of one file shown in full as text; the rest are counted by code

_COLOURS = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "info": "\x1b[1;36m",
            "bold": "\x1b[1m", "hint": "\x1b[36m", "caret": "\x1b[1;32m"}
_RESET = "\x1b[0m"

JSON: TypeAlias = "str | int | float | bool | list[JSON] | dict[str, JSON] | None"


class SourceCache:
    """The lines of source files, read once; ``texts`` may preset some (unsaved text)."""

    def __init__(self, texts: Mapping[str, str] | None = None) -> None:
        self.lines: dict[str, list[str] | None] = {}
        for file, text in (texts or {}).items():
            self.lines[file] = split_lines(text)

    def line(self, file: str, number: int) -> str | None:
        """Line ``number`` (1-based) of ``file``, or None when it cannot be shown."""
        if file not in self.lines:
            self.lines[file] = _read_lines(file)
        lines = self.lines[file]
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


def _read_lines(file: str) -> list[str] | None:
    try:
        path = Path(file)
        if not path.is_file() or path.stat().st_size > MAX_SHOWN_BYTES:
            return None
        return split_lines(path.read_text(encoding="utf-8-sig", errors="replace"))
    except OSError:
        return None


def split_lines(text: str) -> list[str]:
    """Lines as the parser counts them: only '\n' ends a line (not form feeds or U+2028)."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def _paint(text: str, style: str, colour: bool) -> str:
    return f"{_COLOURS[style]}{text}{_RESET}" if colour else text


def _visible(line: str) -> str:
    """The line as shown: tabs expanded, control characters replaced."""
    line = line.expandtabs(TAB)
    return "".join(ch if ch.isprintable() else "\ufffd" for ch in line)


def caret_line(line: str, diagnostic: Diagnostic) -> str:
    """``^~~~`` under the span of ``diagnostic`` on its first line (1-based columns)."""
    span = diagnostic.location
    start = len(line[: span.column - 1].expandtabs(TAB))
    if span.end_line == span.line and span.end_column > span.column:
        end = len(line[: span.end_column - 1].expandtabs(TAB))
    else:
        end = len(line.expandtabs(TAB))
    width = max(end - start, 1)
    return " " * start + "^" + "~" * (width - 1)


def _window(line: str, caret: str) -> tuple[str, str]:
    """A long source line cut to WIDTH characters around the caret, '…' marking the cuts."""
    if len(line) <= WIDTH:
        return line, caret
    start = max(0, min(len(caret) - len(caret.lstrip()) - WIDTH // 3, len(line) - WIDTH))
    end = start + WIDTH
    left = "…" if start else ""
    return left + line[start:end] + ("…" if end < len(line) else ""), " " * len(left) + caret[start:end]


def format_text(diagnostic: Diagnostic, sources: SourceCache, colour: bool = False) -> str:
    """One diagnostic as text: location line, source line, caret, hint."""
    span = diagnostic.location
    head = _paint(f"{span.file}:{span.line}:{span.column}:", "bold", colour)
    code = _paint(diagnostic.code, diagnostic.severity, colour)
    lines = [f"{head} {code} {diagnostic.message}"]
    source = sources.line(span.file, span.line)
    if source is not None:
        shown, caret = _window(_visible(source), caret_line(source, diagnostic))
        lines.append("  " + shown)
        lines.append("  " + _paint(caret, "caret", colour))
    if diagnostic.hint:
        lines.append("  " + _paint("hint:", "hint", colour) + " " + diagnostic.hint)
    lines.extend(f"  note: {note}" for note in diagnostic.notes)
    return "\n".join(lines)


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is 1: "1 option", "2 options", "0 files"
    (for the engine's own words, which all take an s)."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(diagnostics: Sequence[Diagnostic], files: int) -> str:
    """'2 errors, 1 warning in 3 files' or 'no problems in 3 files'."""
    in_files = f"in {counted(files, 'file')}"
    if not diagnostics:
        return f"no problems {in_files}"
    counts = [(sum(d.severity == sev for d in diagnostics), sev) for sev in ("error", "warning", "info")]
    parts = [counted(n, sev if sev != "info" else "note") for n, sev in counts if n]
    return f"{', '.join(parts)} {in_files}"


def render_text(diagnostics: Sequence[Diagnostic], files: int, sources: SourceCache | None = None,
                colour: bool = False, max_shown: int = MAX_SHOWN) -> str:
    """The diagnostics as text, then the summary line: the first ``max_shown`` of each file
    in full (all of them if it is 0), the others of that file counted, one line per code
    ("tests/big.rules: and 8,900 more E101")."""
    sources = sources or SourceCache()
    blocks: list[str] = []
    for file, found in _by_file(diagnostics):
        shown = found if max_shown <= 0 else found[:max_shown]
        blocks.extend(format_text(d, sources, colour) for d in shown)
        blocks.extend(_more(file, found[len(shown):]))
    blocks.append(summary(diagnostics, files))
    return "\n".join(blocks) + "\n"


def _by_file(diagnostics: Sequence[Diagnostic]) -> list[tuple[str, list[Diagnostic]]]:
    """The diagnostics in runs of the same file, in their order."""
    runs: list[tuple[str, list[Diagnostic]]] = []
    for d in diagnostics:
        file = d.span.file if d.span is not None else ""
        if not runs or runs[-1][0] != file:
            runs.append((file, []))
        runs[-1][1].append(d)
    return runs


def _more(file: str, left_out: Sequence[Diagnostic]) -> list[str]:
    """One line per code of the diagnostics of ``file`` not shown, the most frequent first."""
    counts: dict[str, int] = {}
    for d in left_out:
        counts[d.code] = counts.get(d.code, 0) + 1
    where = f"{file}: " if file else ""
    return [f"{where}and {n:,} more {code}"
            for code, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def to_dict(diagnostic: Diagnostic) -> dict[str, JSON]:
    """One diagnostic as a JSON-ready dict (1-based lines and columns, end exclusive)."""
    span = diagnostic.location
    return {"code": diagnostic.code, "severity": diagnostic.severity, "message": diagnostic.message,
            "hint": diagnostic.hint, "file": span.file, "line": span.line, "column": span.column,
            "end_line": span.end_line, "end_column": span.end_column}


def render_json(diagnostics: Sequence[Diagnostic], files: int = 0) -> str:
    """A JSON list of diagnostic objects."""
    return json.dumps([to_dict(d) for d in diagnostics], indent=2, ensure_ascii=False) + "\n"


_SARIF_LEVELS = {"error": "error", "warning": "warning", "info": "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _sarif_rules() -> list[JSON]:
    return [{"id": c.code, "name": c.name, "shortDescription": {"text": c.summary},
             "defaultConfiguration": {"level": _SARIF_LEVELS[c.severity]}} for c in REGISTRY.values()]


def _sarif_result(diagnostic: Diagnostic, rule_index: Mapping[str, int]) -> JSON:
    span = diagnostic.location
    text = diagnostic.message + (f" (hint: {diagnostic.hint})" if diagnostic.hint else "")
    region: JSON = {"startLine": span.line, "startColumn": span.column,
                    "endLine": max(span.end_line, span.line), "endColumn": max(span.end_column, 1)}
    return {"ruleId": diagnostic.code, "ruleIndex": rule_index[diagnostic.code],
            "level": _SARIF_LEVELS[diagnostic.severity], "message": {"text": text},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(span.file)}, "region": region}}]}


def _uri(file: str) -> str:
    return Path(file).as_posix()


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("rulelang")
    except Exception:
        return "0.0.0"


def render_sarif(diagnostics: Sequence[Diagnostic], files: int = 0) -> str:
    """A SARIF 2.1.0 log with one run, the registry as its rules."""
    rule_index = {code: i for i, code in enumerate(REGISTRY)}
    log: JSON = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "rulelang", "version": _version(), "rules": _sarif_rules()}},
        "results": [_sarif_result(d, rule_index) for d in diagnostics]}]}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


_GITHUB_LEVELS = {"error": "error", "warning": "warning", "info": "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(diagnostics: Sequence[Diagnostic], files: int = 0) -> str:
    """GitHub Actions workflow commands, one annotation per diagnostic."""
    lines = []
    for d in diagnostics:
        s = d.location
        props = (f"file={_escape_property(s.file)},line={s.line},col={s.column},"
                 f"endLine={s.end_line},endColumn={s.end_column},title={d.code}")
        message = d.message + (f" (hint: {d.hint})" if d.hint else "")
        lines.append(f"::{_GITHUB_LEVELS[d.severity]} {props}::{_escape_data(d.code + ' ' + message)}")
    return "".join(line + "\n" for line in lines)


Renderer: TypeAlias = Callable[[Sequence[Diagnostic], int], str]
RENDERERS: dict[str, Renderer] = {"json": render_json, "sarif": render_sarif, "github": render_github}


def render(diagnostics: Sequence[Diagnostic], fmt: str, files: int, sources: SourceCache | None = None,
           colour: bool = False, max_shown: int = MAX_SHOWN) -> str:
    """The diagnostics in format ``fmt`` (one of FORMATS); ``max_shown`` bounds the text's
    (the formats for tools always hold all of them)."""
    if fmt == "text":
        return render_text(diagnostics, files, sources, colour, max_shown)
    return RENDERERS[fmt](diagnostics, files)


# ---------------------------------------------------------------- explaining a code

def docs_file(name: str) -> Path:
    """A file of the docs: shipped inside the package (an installed wheel has them as
    ``rulelang/docs/``), or beside it in a checkout of the repository."""
    package = Path(__file__).resolve().parent
    shipped = package / "docs" / name
    return shipped if shipped.is_file() else package.parent / "docs" / name


DOCS = docs_file("diagnostics.md")


def explain(code: str, docs: Path = DOCS) -> str:
    """The entry of ``code`` in docs/diagnostics.md (what it means, an example, a fix), or,
    without the docs (an installed package), its line in the registry."""
    entry = REGISTRY[code]
    try:
        text = docs.read_text(encoding="utf-8")
    except OSError:
        text = ""
    match = re.search(rf"^### {code} .*?(?=^#{{2,3}} |^---$|\Z)", text, re.S | re.M)
    if match:
        return match.group(0).strip() + "\n"
    return f"{entry.code} {entry.name} ({entry.severity})\n{entry.summary}\n"
