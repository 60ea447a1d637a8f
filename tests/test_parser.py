"""The parser: string literals, keyword hints read from the grammar, and nesting bounded
without touching the host's interpreter state (its recursion limit)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang import RulesetError, ast
from rulelang.syntax.ast_builder import unquote
from rulelang.syntax.parser import GRAMMAR, MAX_DEPTH, grammar_parser, parse
from rulelang.syntax.syntax_errors import grammar_words

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RECURSION_LIMIT = 1000   # CPython's


def syntax_problems(text: str) -> list[str]:
    """'E002 message | hint' for each syntax diagnostic of ``text``."""
    with pytest.raises(RulesetError) as caught:
        parse(text, "t.rules")
    return [f"{d.code} {d.message} | {d.hint}" for d in caught.value.diagnostics]


def logged_literal(literal: str) -> object:
    """The value of a string literal written in a ruleset."""
    ruleset = parse(f'phase main {{ log {literal} }}\n', "t.rules")
    (phase,) = ruleset.of_kind(ast.PhaseDecl)
    assert phase.body is not None
    (statement,) = phase.body.statements
    assert isinstance(statement, ast.Log) and isinstance(statement.message, ast.Literal)
    return statement.message.value


# ---------------------------------------------------------------- string literals

def test_a_non_ascii_string_with_an_escape_keeps_its_letters():
    assert logged_literal('"Astérix\\n"') == "Astérix\n"


@pytest.mark.parametrize("written, meant", [
    ('"tab\\there"', "tab\there"),
    ('"say \\"hi\\""', 'say "hi"'),
    ('"back\\\\slash"', "back\\slash"),
    ('"caf\\u00e9 \\U0001F3B2 \\x41"', "café \U0001F3B2 A"),
    ('"日本語 ünïcödé"', "日本語 ünïcödé"),
    ('"an unknown escape \\q stays"', "an unknown escape \\q stays"),
    ('"beyond unicode \\UFFFFFFFF stays"', "beyond unicode \\UFFFFFFFF stays"),
])
def test_string_escapes(written, meant):
    assert logged_literal(written) == meant


def test_unquote_leaves_text_without_escapes_as_written():
    assert unquote('"Obélix & Idéfix"') == "Obélix & Idéfix"


# ---------------------------------------------------------------- keywords from the grammar

def test_every_keyword_of_the_grammar_is_known_to_the_hints():
    literals = set(re.findall(r'"([a-z_]+)"', GRAMMAR.read_text(encoding="utf-8")))
    assert set(grammar_words(grammar_parser()).keywords) == literals


def test_declaration_words_come_from_the_grammar():
    words = grammar_words(grammar_parser())
    assert {"game", "phase", "procedure", "deck", "override"} <= set(words.declaration_words)
    assert words.declaration_start.match("player deck hand: card in pile = []")
    assert words.declaration_start.match("override phase main {")
    assert not words.declaration_start.match("player x = 1")


@pytest.mark.parametrize("text, word", [
    ("component card { v: int }\ndeck d: card in pile sise 3 = [card(1)]\n", "size"),
    ("supply coins totl 10\n", "total"),
    ("phase main { let y = max(x for x in [1, 2] by x dsc) }\n", "desc"),
])
def test_keywords_the_hand_list_missed_get_a_did_you_mean(text, word):
    (problem,) = syntax_problems(text)
    assert problem.startswith("E002 unknown keyword") and problem.endswith(f"did you mean '{word}'?")


def test_a_suggestion_is_a_keyword_that_fits_there():
    # 'dec' is as close to 'desc' as to 'deck'; only 'deck' can start a declaration
    (problem,) = syntax_problems('game "g" { players 2 }\ndec\n')
    assert problem == "E002 unknown keyword 'dec' | did you mean 'deck'?"


# ---------------------------------------------------------------- nesting and the recursion limit

def test_importing_and_parsing_leave_the_recursion_limit_alone():
    script = ("import sys\nbefore = sys.getrecursionlimit()\nimport rulelang\n"
              "from rulelang.syntax.parser import parse\n"
              "try:\n    parse('phase main { let x = ' + 'not ' * 5000 + 'true }')\nexcept rulelang.RulesetError:\n"
              "    pass\nassert sys.getrecursionlimit() == before, sys.getrecursionlimit()\n")
    subprocess.run([sys.executable, "-c", script], check=True, cwd=ROOT)


@pytest.fixture
def default_recursion_limit():
    """Run at CPython's default recursion limit, as a host program would."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(DEFAULT_RECURSION_LIMIT)
    yield
    sys.setrecursionlimit(before)


NESTINGS = {
    "not": lambda n: "not " * n + "true",
    "sum": lambda n: "1" + " + 1" * n,
    "lists": lambda n: "[" * n + "1" + "]" * n,
    "comprehensions": lambda n: "[" * n + "1" + " for a in [1]]" * n,
    "ifs": lambda n: "if true then " * n + "1" + " else 2" * n,
}


def nested(shape: str, n: int) -> str:
    return f'game "deep" {{ players 1 }}\nphase main {{\n  let y = {NESTINGS[shape](n)}\n  log y\n  end game\n}}\n'


def deepest_accepted(shape: str) -> int:
    """The largest n for which ``nested(shape, n)`` parses."""
    n = MAX_DEPTH // 2
    while True:
        try:
            parse(nested(shape, n + 1))
        except RulesetError:
            return n
        n += 1


@pytest.mark.parametrize("shape", NESTINGS)
def test_too_deep_is_e005_at_the_default_recursion_limit(shape, default_recursion_limit):
    with pytest.raises(RulesetError) as caught:
        parse(nested(shape, 3_000))
    (problem,) = caught.value.diagnostics
    assert problem.code == "E005" and problem.span is not None and problem.span.line == 3


@pytest.mark.parametrize("shape", NESTINGS)
def test_the_deepest_accepted_rules_load_and_run_at_the_default_recursion_limit(shape, default_recursion_limit):
    state = rulelang.load(nested(shape, deepest_accepted(shape))).new_initial_state(seed=1)
    assert state.is_terminal()


def test_deep_blocks_load_and_run_at_the_default_recursion_limit(default_recursion_limit):
    depth = MAX_DEPTH // 2 - 2   # each 'if' adds a statement and a block
    text = ('game "deep" { players 1 }\nvar x: int = 0\nphase main {\n' + "if true {\n" * depth + "x = 1\n"
            + "}\n" * depth + "end game\n}\n")
    assert rulelang.load(text).new_initial_state(seed=1).is_terminal()
