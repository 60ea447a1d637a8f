"""Hard resource bounds (issue 9): hostile rulesets stop with a located diagnostic, fast,
in little memory. Each heavy case runs in a subprocess limited to 500 MiB and a few seconds."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

import rulelang
from rulelang.errors import RulelangError

LIMIT_BYTES = 500 * 1024 * 1024

RUNNER = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
import rulelang
try:
    rulelang.load(sys.argv[1]).new_initial_state()
    print(json.dumps(None))
except rulelang.RulelangError as error:
    d = error.diagnostics[0] if hasattr(error, "diagnostics") else error.diagnostic
    print(json.dumps([d.code, d.span.line if d.span else None, d.message]))
"""


def run_bounded(tmp_path: Path, source: str, files: dict[str, str] | None = None) -> list[object]:
    """Load and start ``source`` under 500 MiB and 5 s: its first diagnostic (code, line, message)."""
    path = tmp_path / "hostile.rules"
    path.write_text(textwrap.dedent(source))
    for name, text in (files or {}).items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    done = subprocess.run([sys.executable, "-c", RUNNER.format(limit=LIMIT_BYTES), str(path)],
                          capture_output=True, text=True, timeout=5, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result is not None, "no diagnostic"
    return list(result)


CASES = {
    "square in a loop": ("""\
        game "M" { players 1 }
        var x: int = 3
        phase p {
          repeat {
            x = x * x
          }
        }
        """, "E602", 5, "number too large"),
    "doubling string": ("""\
        game "S" { players 1 }
        var s: string = "ab"
        phase p {
          repeat {
            s = s + s
          }
        }
        """, "E602", 5, "characters"),
    "doubling list": ("""\
        game "L" { players 1 }
        var s: list[int] = [1]
        phase p {
          repeat {
            s = s + s
          }
        }
        """, "E602", 5, "items"),
    "comprehension in a comprehension's element": ("""\
        game "N" { players 1 }
        var n: int = 0
        phase p {
          n = size([[y for y in 1..100000] for x in 1..100000])
          end game
        }
        """, "E603", 4, "items of work"),
    "small comprehensions nested deep": ("""\
        game "N" { players 1 }
        var n: int = 0
        phase p {
          n = sum(sum(sum(sum(sum(1 for a in 1..60) for b in 1..60) for c in 1..60) for d in 1..60) for e in 1..60)
          end game
        }
        """, "E603", 4, "items of work"),
    "any in any": ("""\
        game "N" { players 1 }
        var b: bool = false
        phase p {
          b = any(any(any(any(x < 0 for x in 1..60) for y in 1..60) for z in 1..60) for w in 1..60)
          end game
        }
        """, "E603", 4, "items of work"),
    "membership in a long list, many times": ("""\
        game "M" { players 1 }
        var n: int = 0
        phase p {
          let big = [i for i in 1..100000]
          n = count(x for x in big if 0 in big)
          end game
        }
        """, "E603", 5, "items of work"),
    "recursion with a huge step budget": ("""\
        game "R" { players 1  max_steps 10000000 }
        procedure again() {
          call again()
        }
        phase p {
          call again()
        }
        """, "E603", 3, "more than 1000 deep"),
    "nested comprehension in a deck, while loading": ("""\
        game "D" { players 1 }
        component card { n: int }
        zone pile: card visible none
        deck cards: card in pile = [card(n: size([y for y in 1..100000])) for x in 1..100000]
        phase p { end game }
        """, "E402", 4, "went through more than"),
    "a list of long strings joined as text": ("""\
        game "T" { players 1 }
        var t: string = ""
        phase p {
          let s = "a" * 1000000
          t = "x" + [s for i in 1..2000]
          end game
        }
        """, "E602", 5, "characters"),
    "a list of long strings logged": ("""\
        game "T" { players 1 }
        phase p {
          let s = "a" * 1000000
          log [s for i in 1..2000]
          end game
        }
        """, "E602", 4, "characters"),
    "nested comprehension in an initial value": ("""\
        game "D" { players 1 }
        var n: int = size([[y for y in 1..100000] for x in 1..100000])
        phase p { end game }
        """, "E603", 2, "items of work"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_ruleset_stops_with_a_located_diagnostic(tmp_path: Path, name: str) -> None:
    source, code, line, words = CASES[name]
    got_code, got_line, message = run_bounded(tmp_path, source)
    assert (got_code, got_line) == (code, line), message
    assert words in str(message)


TRACK = """\
    kind: graph
    spaces:
      - {id: a, next: [b, c]}
      - {id: b, next: [d]}
      - {id: c, next: [e]}
      - {id: e, next: [d]}
      - {id: d, next: [a]}
    """


def test_board_relations_with_a_huge_count_answer_at_once(tmp_path: Path) -> None:
    (tmp_path / "track.yaml").write_text(textwrap.dedent(TRACK))
    (tmp_path / "b.rules").write_text(textwrap.dedent("""\
        game "B" { players 1 }
        board track = load_board("track.yaml")
        board grid = square_grid(3, 3)
        phase p {
          log size(ahead(space(track, "a"), 1000000000))
          log size(behind(space(track, "b"), -1000000001))
          log size(ahead(space(track, "a"), 1000000000 * 3 + 1))
          log size(lines(grid, 1000000000))
          end game
        }
        """))
    state = rulelang.load(str(tmp_path / "b.rules")).new_initial_state()
    assert state.log == ["5", "5", "5", "0"]


def test_long_walks_agree_with_the_step_by_step_answer(tmp_path: Path) -> None:
    from rulelang.boards import load_board_file
    from rulelang.interpreter.tables.builtins import _walk

    (tmp_path / "track.yaml").write_text(textwrap.dedent(TRACK))
    board = load_board_file("t", tmp_path / "track.yaml")

    work: list[int] = []
    st = SimpleNamespace(game=SimpleNamespace(catalog=SimpleNamespace(boards={"t": board})), charge=work.append)
    for space in board.spaces:
        for n in range(-40, 40):
            assert _walk(st, space, n, True) == board.ahead(space, n)  # type: ignore[arg-type]
            assert _walk(st, space, n, False) == board.behind(space, n)  # type: ignore[arg-type]


@pytest.mark.parametrize(("setting", "words"), [
    ("players 100000000", "from 1 to 64"),
    ("players 2..100000000", "from 1 to 64"),
    ("players 2  dummies 1000", "from 0 to 16"),
    ("players 2  max_steps 100000000", "from 1 to 10000000"),
])
def test_settings_beyond_their_bounds_are_e202(setting: str, words: str) -> None:
    with pytest.raises(RulelangError) as caught:
        rulelang.load(f'game "X" {{ {setting} }}\nphase p {{ end game }}\n')
    diagnostic = caught.value.diagnostics[0]  # type: ignore[attr-defined]
    assert diagnostic.code == "E202" and diagnostic.span.line == 1
    assert words in diagnostic.message


def test_default_step_budget_stops_a_runaway_fast(tmp_path: Path) -> None:
    source = 'game "F" { players 1 }\nvar n: int = 0\nphase spin { repeat { n += 1 } }\n'
    code, line, message = run_bounded(tmp_path, source)
    assert (code, line) == ("E603", 3)
    assert "500000 steps" in str(message)


def test_arithmetic_near_the_bound_still_works() -> None:
    state = rulelang.load('game "X" { players 1 }\nvar n: int = 0\n'
                          'phase p { n = 3037000499 * 3037000499\n n += 1\n end game }\n').new_initial_state()
    assert state.to_json() is not None and state.is_terminal()


@pytest.mark.parametrize("value", [
    (1, (2, "a"), None, True, {1: (2, 3), "k": False}), (), {}, "x", ((),), {(1, 2): {}}, ("é", ("",)),
])
def test_bounded_text_is_the_text_up_to_its_length(value: object) -> None:
    from rulelang.interpreter.model.values import display, display_within

    text = display(value)
    assert display_within(value, len(text)) == text
    assert display_within(value, len(text) - 1) is None
