"""The TextMate grammars of editors/vscode/syntaxes/, run by the real ``vscode-textmate`` and
``vscode-oniguruma`` npm packages (``npm ci`` in editors/vscode; .ci/run does it) through
editors/vscode/test/tokenize.js.

The committed grammars are what ``rulelang.commands.textmate`` writes now; every keyword of
the Lark grammars has a keyword scope; every file of games/ and examples/ is tokenized
without an error, and each keyword, string and number that Lark's lexer finds there has its
scope. Without Node.js or the npm packages, the tests that run them are skipped, except on
CI (``CI`` set), where they fail: CI installs both.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from lark import Lark, Token

from rulelang.commands.textmate import FILES, grammar_text, textmate_grammar
from rulelang.syntax import keywords, parser
from rulelang.syntax.parser import GRAMMAR, TESTS_GRAMMAR, grammar_parser
from rulelang.syntax.syntax_errors import grammar_words

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
TOKENIZE = EXTENSION / "test" / "tokenize.js"
SOURCES = sorted(p for folder in ("games", "examples") for suffix in ("*.rules", "*.tests")
                 for p in (ROOT / folder).rglob(suffix))
KEYWORD_SCOPES = ("keyword.", "storage.type.", "constant.language.")

Tokens = list[list[tuple[int, int, list[str]]]]   # by line: (start, end, scopes), in UTF-16 columns


def unavailable(reason: str) -> None:
    """Skip the test here; fail it on CI, where Node.js and the npm packages are installed."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must install it)")
    pytest.skip(reason)


def tokenize(paths: list[Path]) -> dict[str, Tokens]:
    """Each file's tokens, as VS Code's TextMate engine makes them."""
    node = shutil.which("node")
    if node is None:
        unavailable("Node.js is not installed (apt-get install nodejs npm)")
    if not (EXTENSION / "node_modules" / "vscode-textmate").is_dir():
        unavailable("the npm packages are not installed (npm ci --prefix editors/vscode)")
    done = subprocess.run([str(node), str(TOKENIZE), *map(str, paths)], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    tokens: dict[str, Tokens] = json.loads(done.stdout)
    return tokens


def scopes_at(tokens: Tokens, line: int, column: int) -> list[str]:
    """The scopes of the token at ``line`` (1-based) and ``column`` (0-based, UTF-16)."""
    return next(scopes for start, end, scopes in tokens[line - 1] if start <= column < end)


def has_scope(scopes: list[str], prefixes: tuple[str, ...]) -> bool:
    return any(scope.startswith(prefixes) for scope in scopes)


def tokens_of(text: str, tmp_path: Path, suffix: str = ".rules") -> Tokens:
    path = tmp_path / f"sample{suffix}"
    path.write_text(text)
    return tokenize([path])[str(path)]


@pytest.fixture(scope="module")
def source_tokens() -> dict[str, Tokens]:
    return tokenize(SOURCES)


# -- the generated files ---------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(FILES))
def test_the_committed_grammar_is_what_the_generator_writes(name: str) -> None:
    committed = (EXTENSION / "syntaxes" / name).read_text(encoding="utf-8")
    assert committed == grammar_text(FILES[name]), "run: python -m rulelang.commands.textmate"


def test_the_keyword_classes_are_read_from_the_grammar() -> None:
    words = keywords.ruleset_keywords()
    assert words.all == grammar_words(grammar_parser()).keywords
    assert set(keywords.tests_keywords().all) == {*words.all, *grammar_words(parser.tests_parser()).keywords}
    assert words.operator == ("and", "in", "not", "or")
    assert words.constant == ("false", "none", "true")
    assert words.type == ("list", "map")
    assert {"phase", "procedure", "function", "component", "enum", "override", "player", "zone"} \
        <= set(words.declaration)
    assert {"if", "choose", "move", "otherwise", "return"} <= set(words.control)
    assert {"scenario", "background", "use"} <= set(keywords.tests_keywords().declaration)
    assert {"expect", "given", "play", "offered"} <= set(keywords.tests_keywords().control)


def test_a_new_keyword_gets_a_class_and_a_scope() -> None:
    """A keyword added to the grammar is coloured without anyone listing it."""
    grammar = GRAMMAR.read_text().replace('break_stmt: "break"', 'break_stmt: "break" | "frobnicate"')
    classes = keywords.keyword_classes(Lark(grammar, parser="lalr", maybe_placeholders=True), "start")
    assert "frobnicate" in classes.control


# -- the TextMate engine ----------------------------------------------------------------------

def test_every_keyword_of_the_lark_grammars_has_a_keyword_scope(tmp_path: Path) -> None:
    for suffix, words in ((".rules", grammar_words(grammar_parser()).keywords),
                          (".tests", grammar_words(parser.tests_parser()).keywords)):
        tokens = tokens_of("\n".join(words) + "\n", tmp_path, suffix)
        unscoped = [w for line, w in enumerate(words, 1) if not has_scope(scopes_at(tokens, line, 0), KEYWORD_SCOPES)]
        assert unscoped == [], f"{suffix}: keywords without a keyword scope: {unscoped}"


def lark_tokens(path: Path) -> Iterator[Token]:
    """Every token that Lark's contextual lexer makes of the file, keywords included."""
    grammar = GRAMMAR.read_text() + ("\n" + TESTS_GRAMMAR.read_text() if path.suffix == ".tests" else "")
    lark = Lark(grammar, parser="lalr", start="tests_file" if path.suffix == ".tests" else "start",
                  keep_all_tokens=True, maybe_placeholders=True)
    tree = lark.parse(path.read_text())
    yield from tree.scan_values(lambda value: isinstance(value, Token))


def utf16_column(line: str, column: int) -> int:
    """A 1-based column of Python's characters as the 0-based UTF-16 column of the editor."""
    return len(line[:column - 1].encode("utf-16-le")) // 2


EXPECTED_SCOPES = {"STRING": ("string.quoted.double.",), "INT": ("constant.numeric.",)}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_files_keywords_strings_and_numbers_get_their_scopes(path: Path,
                                                                 source_tokens: dict[str, Tokens]) -> None:
    tokens = source_tokens[str(path)]
    lines = path.read_text().split("\n")
    terminals = grammar_words(parser.tests_parser() if path.suffix == ".tests" else grammar_parser()).terminal_keywords
    wrong = []
    checked = 0
    for token in lark_tokens(path):
        wanted = KEYWORD_SCOPES if token.type in terminals else EXPECTED_SCOPES.get(token.type)
        if wanted is None or token.line is None or token.column is None:
            continue
        checked += 1
        scopes = scopes_at(tokens, token.line, utf16_column(lines[token.line - 1], token.column))
        if not has_scope(scopes, wanted):
            wrong.append(f"{token.line}:{token.column} {token.value!r} {scopes[-1]}")
    assert checked > 0
    assert wrong == []


def test_names_spelled_as_keywords_stay_names(source_tokens: dict[str, Tokens]) -> None:
    """A zone called 'deck', 'size(players)' in a test file: the declaration words and the
    words of test files are keywords only where they open something, so nearly every name
    that Lark's lexer finds spelled as a keyword is not coloured as one (type names after ':'
    are types, as they should)."""
    spelled, coloured = [], []
    for path in SOURCES:
        lines = path.read_text().split("\n")
        words = set(keywords.tests_keywords().all if path.suffix == ".tests" else keywords.ruleset_keywords().all)
        for token in lark_tokens(path):
            if token.type != "NAME" or token.value not in words or token.line is None or token.column is None:
                continue
            spelled.append(token)
            scopes = scopes_at(source_tokens[str(path)], token.line, utf16_column(lines[token.line - 1], token.column))
            if has_scope(scopes, ("keyword.",)):
                coloured.append(f"{path.name}:{token.line}:{token.column} {token.value}")
    assert len(spelled) > 200
    assert len(coloured) < len(spelled) / 20, coloured


SAMPLE = ('# a comment with "quotes" and phase\n'
          'component card { rank: int } shown as "{rank} of cards"\n'
          'procedure deal(p: player) {\n'
          '  choose c in p.hand prompt "{p}: take a card" { log "{c} # not a comment" }\n'
          '  let n = size(p.hand) + count(x for x in p.size)\n'
          '  call other(n)  # done\n'
          '}\n')
SAMPLE_SCOPES = [   # line, the text at the token, its innermost scope
    (1, "quotes", "comment.line.number-sign.rulelang"),
    (2, "component", "keyword.declaration.rulelang"),
    (2, "card", "entity.name.type.rulelang"),
    (2, "int", "storage.type.rulelang"),
    (2, "shown", "keyword.control.rulelang"),
    (2, "{rank}", "variable.other.placeholder.rulelang"),
    (2, "of cards", "string.quoted.double.rulelang"),
    (3, "deal", "entity.name.function.rulelang"),
    (3, "player", "storage.type.rulelang"),
    (4, "prompt", "keyword.control.rulelang"),
    (4, "{p}", "variable.other.placeholder.rulelang"),
    (4, "{c}", "string.quoted.double.rulelang"),          # no placeholder in a log line
    (4, "# not", "string.quoted.double.rulelang"),        # no comment inside a string
    (5, "size", "support.function.builtin.rulelang"),
    (5, "size)", "variable.other.property.rulelang"),     # p.size: a name, not the keyword
    (5, "in", "keyword.operator.word.rulelang"),
    (6, "other", "entity.name.function.call.rulelang"),
    (6, "done", "comment.line.number-sign.rulelang"),
]


def test_comments_strings_placeholders_and_names(tmp_path: Path) -> None:
    tokens = tokens_of(SAMPLE, tmp_path)
    lines = SAMPLE.split("\n")
    found = [(line, text, scopes_at(tokens, line, lines[line - 1].index(text))[-1]) for line, text, _ in SAMPLE_SCOPES]
    assert found == SAMPLE_SCOPES


def test_a_tests_file_has_its_own_keywords(tmp_path: Path) -> None:
    tokens = tokens_of('scenario "x" {\n  expect not offered "a"\n}\n', tmp_path, ".tests")
    assert scopes_at(tokens, 1, 0)[-1] == "keyword.declaration.rulelang.tests"
    assert scopes_at(tokens, 2, 2)[-1] == "keyword.control.rulelang.tests"
    assert scopes_at(tokens, 2, 9)[-1] == "keyword.operator.word.rulelang.tests"
    # The words that open a header, a setting or a step are keywords where they start a line.
    tokens = tokens_of('scenario "x" {\n  players 3\n  expect size(players) == 3\n}\n', tmp_path, ".tests")
    assert scopes_at(tokens, 2, 2)[-1] == "keyword.declaration.rulelang.tests"
    assert not has_scope(scopes_at(tokens, 3, 14), KEYWORD_SCOPES)   # a name in an expression
    in_rules = tokens_of("expect\n", tmp_path)
    assert not has_scope(scopes_at(in_rules, 1, 0), KEYWORD_SCOPES)   # not a word of rulesets


def test_the_grammars_scope_names() -> None:
    assert textmate_grammar("rules")["scopeName"] == "source.rulelang"
    assert textmate_grammar("tests")["scopeName"] == "source.rulelang.tests"


# -- the extension's folder ---------------------------------------------------------------------

def test_the_extension_contributes_both_languages_and_their_grammars() -> None:
    manifest = json.loads((EXTENSION / "package.json").read_text())
    contributes = manifest["contributes"]
    extensions = {ext: lang["id"] for lang in contributes["languages"] for ext in lang["extensions"]}
    assert extensions == {".rules": "rulelang", ".tests": "rulelang-tests"}
    for lang in contributes["languages"]:
        assert (EXTENSION / lang["configuration"]).is_file()
    grammars = {g["language"]: (g["scopeName"], EXTENSION / g["path"]) for g in contributes["grammars"]}
    assert grammars == {"rulelang": ("source.rulelang", EXTENSION / "syntaxes" / "rulelang.tmLanguage.json"),
                        "rulelang-tests": ("source.rulelang.tests",
                                           EXTENSION / "syntaxes" / "rulelang-tests.tmLanguage.json")}
    assert contributes["configuration"]["properties"]["rulelang.serverCommand"]["default"] == ["rulelang", "lsp"]
    configuration = json.loads((EXTENSION / "language-configuration.json").read_text())
    assert configuration["comments"] == {"lineComment": "#"}
    assert ["{", "}"] in configuration["brackets"]


def test_the_client_starts_the_configured_command() -> None:
    """extension.js turns the setting into the server's executable (stdio), ${workspaceFolder}
    replaced, falling back to `rulelang lsp` for a setting that is not a list of words."""
    node = shutil.which("node")
    if node is None:
        unavailable("Node.js is not installed (apt-get install nodejs npm)")
    script = ("const e = require('./extension.js');"
              "console.log(JSON.stringify([e.serverOptions(['python', '-m', 'rulelang', 'lsp']),"
              " e.serverOptions('rulelang'),"
              " e.serverOptions(['${workspaceFolder}/.venv/bin/rulelang', 'lsp'], '/w'),"
              " e.clientOptions().documentSelector.map((d) => d.language)]));")
    done = subprocess.run([str(node), "-e", script], cwd=EXTENSION, capture_output=True, text=True, timeout=60,
                          check=True)
    configured, fallback, in_folder, languages = json.loads(done.stdout)
    assert configured == {"command": "python", "args": ["-m", "rulelang", "lsp"], "transport": 0}
    assert fallback == {"command": "rulelang", "args": ["lsp"], "transport": 0}
    assert in_folder == {"command": "/w/.venv/bin/rulelang", "args": ["lsp"], "transport": 0}
    assert set(languages) == {"rulelang", "rulelang-tests"}
