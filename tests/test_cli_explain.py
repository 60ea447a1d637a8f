"""`rulelang explain CODE`: the entry's Markdown rendered by rich with styles on a terminal,
as plain text when piped, and as written with --markdown."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import rulelang.cli
from rulelang.cli import main
from rulelang.commands.markdown import quote_code_spans, render_markdown
from rulelang.diagnostics import REGISTRY
from rulelang.report import explain

ESCAPE = "\x1b["


def run_explain(*args: str, terminal: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(rulelang.cli, "is_terminal", lambda stream: terminal)
    result = CliRunner().invoke(main, ["explain", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_piped_explain_is_plain_text(monkeypatch):
    text = run_explain("W303", terminal=False, monkeypatch=monkeypatch)
    assert text.startswith("W303 loop-without-decision\n\nSeverity: warning.")
    assert ESCAPE not in text and "**" not in text and "###" not in text and "```" not in text
    assert "A 'repeat' without 'until', or a 'while true'" in text   # code spans still marked
    assert "\n   while count > 0 {   # W: W303\n" in text             # the example, indented
    assert "Fix: change what the condition reads" in text
    assert all(line == line.rstrip() and len(line) <= 80 for line in text.splitlines())


def test_explain_on_a_terminal_has_styles(monkeypatch):
    text = run_explain("W303", terminal=True, monkeypatch=monkeypatch)
    assert ESCAPE in text and "**" not in text and "###" not in text
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert "W303 loop-without-decision" in plain and "Severity: warning." in plain
    assert "'repeat'" not in plain   # code is a style there, not quotes


def test_markdown_flag_prints_the_source(monkeypatch):
    assert run_explain("W303", "--markdown", terminal=True, monkeypatch=monkeypatch) == explain("W303")


def test_every_entry_renders_as_plain_text():
    for code in REGISTRY:
        plain = render_markdown(explain(code), terminal=False)
        assert plain.startswith(code) and ESCAPE not in plain and "**" not in plain, code


def test_code_spans_are_quoted_outside_code_blocks_only():
    text = "a `x * y` and ``a`b``\n\n```rules\nlet `z` = 1\n```\nthen `__init__`"
    assert quote_code_spans(text) == "a 'x \\* y' and 'a\\`b'\n\n```rules\nlet `z` = 1\n```\nthen '\\_\\_init\\_\\_'"
    plain = render_markdown(text, terminal=False)
    assert "a 'x * y' and 'a`b'" in plain and "let `z` = 1" in plain and "then '__init__'" in plain
