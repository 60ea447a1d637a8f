"""The documentation cannot silently fall behind the code.

- every ```rules block of docs/language.md whose first line is ``# complete`` loads with
  ``rulelang.load`` and plays random games to the end;
- every builtin function of the signature table (rulelang/check/signatures.py) is documented in
  docs/language.md;
- every diagnostic code the docs cite exists;
- every ```python block of docs/embedding.md whose first line is ``# runnable`` runs;
- the scripts in examples/ run and print what they should.
"""
from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import rulelang
from rulelang.check.signatures import SIGNATURES
from rulelang.diagnostics import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = ROOT / "docs" / "language.md"
EMBEDDING = ROOT / "docs" / "embedding.md"


def fenced_blocks(path: Path, language: str) -> list[tuple[int, str]]:
    """(line number, text) of every ```language block of a Markdown file."""
    blocks, current, start = [], None, 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if current is None and line.strip() == "```" + language:
            current, start = [], number + 1
        elif current is not None and line.strip() == "```":
            blocks.append((start, "\n".join(current) + "\n"))
            current = None
        elif current is not None:
            current.append(line)
    assert current is None, f"{path.name}: a ```{language} block opened at line {start} is never closed"
    return blocks


def marked(path: Path, language: str, mark: str) -> list[tuple[int, str]]:
    return [(n, text) for n, text in fenced_blocks(path, language) if text.lstrip().startswith(mark)]


COMPLETE = marked(LANGUAGE, "rules", "# complete")


def test_language_doc_has_enough_complete_examples():
    assert len(COMPLETE) >= 5


def _random_playout(game, seed: int, limit: int = 5000):
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            return state
        player = state.current_players()[0]
        actions = state.legal_actions(player)
        assert actions, "an unfinished state offers the player to act no action"
        state.apply_action(rng.choice(actions), player=player)
        assert state.check_invariants() == []
    raise AssertionError(f"no end after {limit} actions")


@pytest.mark.parametrize("line,text", COMPLETE, ids=[f"language.md:{n}" for n, _ in COMPLETE])
def test_complete_rules_block_loads_and_plays(line, text):
    # path= puts the text next to the doc, so `extends "../games/..."` resolves.
    try:
        probe = rulelang.load(text, path=str(LANGUAGE))
    except rulelang.RulesetError as error:
        pytest.fail(f"docs/language.md line {line}: the example does not load:\n{error}")
    low = probe.num_players
    high = probe.settings.players[1]
    for players in sorted({low, high}):
        game = rulelang.load(text, players=players, path=str(LANGUAGE))
        for seed in range(3):
            state = _random_playout(game, seed)
            assert len(state.returns()) == players
            assert state.winners()


NARRATED = re.compile(r"With seed (\d+), each player taking the first action offered, player (\d+) reads")


def narrated_examples() -> list[tuple[int, str, int, int, list[str]]]:
    """(line, rules, seed, player, lines) of every ```text block of docs/language.md that a
    sentence "With seed N, each player taking the first action offered, player P reads" brings
    in: the narration player P reads of the ``# complete`` rules block before it, played so
    (a last line "..." leaves the rest out)."""
    lines = LANGUAGE.read_text(encoding="utf-8").splitlines()
    examples = []
    for number, line in enumerate(lines, 1):
        said = NARRATED.search(" ".join(lines[number - 1:number + 1]))
        if said is None or said.start() >= len(line):
            continue
        text_at = next(n for n, _ in fenced_blocks(LANGUAGE, "text") if n > number)
        rules = [text for n, text in COMPLETE if n < number][-1]
        shown = next(text for n, text in fenced_blocks(LANGUAGE, "text") if n == text_at).splitlines()
        examples.append((number, rules, int(said.group(1)), int(said.group(2)), shown))
    return examples


NARRATED_EXAMPLES = narrated_examples()


def test_language_doc_has_a_narrated_example():
    assert NARRATED_EXAMPLES


@pytest.mark.parametrize("line,rules,seed,player,shown", NARRATED_EXAMPLES,
                         ids=[f"language.md:{n}" for n, *_ in NARRATED_EXAMPLES])
def test_narrated_example_is_what_the_game_tells(line, rules, seed, player, shown):
    from rulelang.interpreter.state.narrate import narrated_text

    state = rulelang.load(rules, path=str(LANGUAGE)).new_initial_state(seed=seed, events=True)
    while not state.is_terminal():
        acting = state.current_players()[0]
        state.apply_action(state.legal_actions(acting)[0], player=acting)
    told = narrated_text(state.narration(player=player - 1))
    kept = shown[:-1] if shown[-1] == "..." else shown
    assert told[:len(kept)] == kept, f"docs/language.md line {line}: the game tells another story"
    assert len(told) > len(kept) or shown[-1] != "...", f"docs/language.md line {line}: '...' ends a whole story"


def _documented(name: str, text: str) -> bool:
    return re.search(r"`" + re.escape(name) + r"\(", text) is not None


def test_every_builtin_function_is_documented():
    text = LANGUAGE.read_text(encoding="utf-8")
    missing = sorted(n for n in SIGNATURES if not _documented(n, text))
    assert not missing, f"docs/language.md does not document: {', '.join(missing)}"


@pytest.mark.parametrize("doc", [LANGUAGE, EMBEDDING], ids=lambda p: p.name)
def test_cited_diagnostic_codes_exist(doc):
    cited = set(re.findall(r"\b[EWI]\d{3}\b", doc.read_text(encoding="utf-8")))
    assert cited, f"{doc.name} cites no diagnostic code"
    unknown = sorted(c for c in cited if c not in REGISTRY)
    assert not unknown, f"{doc.name} cites codes that do not exist: {unknown}"


def test_language_doc_shows_the_variant_and_runaway_errors():
    text = LANGUAGE.read_text(encoding="utf-8")
    for code in ("E501", "E502", "E503", "E504", "E505", "E603"):
        assert code in text


RUNNABLE = marked(EMBEDDING, "python", "# runnable")


def test_embedding_doc_has_runnable_examples():
    assert len(RUNNABLE) >= 3


@pytest.mark.parametrize("line,text", RUNNABLE, ids=[f"embedding.md:{n}" for n, _ in RUNNABLE])
def test_runnable_python_block(line, text, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = compile(text, f"docs/embedding.md:{line}", "exec")
    exec(code, {"__name__": "__doc_example__"})


def _run_example(*args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_random_playout_example_plays_tic_tac_toe():
    out = _run_example("examples/random_playout.py")
    moves = [line for line in out.splitlines() if line.startswith("player ")]
    assert 5 <= len(moves) <= 9
    for line in moves:
        assert re.fullmatch(r"player [12] \(seat [01]\) chooses [a-c][1-3] \(action id [0-8]\)", line), line
    assert re.search(r"^returns: \[(-?1\.0|0\.0), (-?1\.0|0\.0)\]$", out, re.M)
    assert re.search(r"^winners: ", out, re.M)


def test_random_playout_example_is_reproducible_and_takes_options():
    one = _run_example("examples/random_playout.py", "games/tic_tac_toe.rules", "--seed", "3")
    two = _run_example("examples/random_playout.py", "games/tic_tac_toe.rules", "--seed", "3")
    assert one == two


def test_random_playout_example_reports_a_broken_ruleset(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text("phase p { choose x in [1, 2] by players[0\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "examples/random_playout.py", str(bad)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "E003" in done.stderr and "Traceback" not in done.stderr


def test_explicit_chance_example_is_exact():
    out = _run_example("examples/explicit_chance.py")
    values = dict(re.findall(r"^(.+?): (-?\d+(?:/\d+)?)$", out, re.M))
    # One roll, then stop: (2 + 3 + 4 + 5 + 6) / 6.
    assert Fraction(values["hold after one roll"]) == Fraction(10, 3)
    optimal = Fraction(values["best strategy"])
    assert optimal > Fraction(10, 3)
    # Every order of a shuffled 3-card deck has probability 1/6.
    assert values["orders of 3 shuffled cards"] == "6"
    assert Fraction(values["probability of each order"]) == Fraction(1, 6)
