"""What the code of a procedure knows of a 'let' local that nothing else binds
(compiler/lets.py): what the text proves of its value (a list, an integer, the kind of its
items) holds wherever it is read, so the code after it reads it without testing its kind;
a local bound again is read as before."""
from __future__ import annotations

import re
from pathlib import Path

from conftest import decisions_dropped, load_written

import rulelang

RULES = '''\
    game "G" { players 2 }
    player var score: int = 0
    var out: int = 0
    component card { n: int }
    player zone hand: card visible all
    procedure count(p: player, n: int) {
      let xs = [k for k in 1..n if k % 2 == 0]
      let ys = [k for k in 1..n]
      ys = ys + [7]
      out = out + size(xs) * 100 + size(ys) + size(p.hand)
      if n > 100 {
        choose k in xs by p
      }
    }
    phase main {
      for q in players {
        call count(q, 5)
      }
      end game
    }
'''


def load(tmp_path: Path, source: str) -> rulelang.Game:
    return load_written(tmp_path, source, players=2)


def unit(game: rulelang.Game, first_line: str) -> str:
    listing = game.generated_code()
    (found,) = [u for u in re.split(r"\n(?=def )", listing) if first_line in u.split("\n", 1)[0]]
    return found


def test_a_list_bound_by_one_let_is_measured_without_a_test_of_its_kind(tmp_path):
    game = load(tmp_path, RULES)
    code = decisions_dropped(unit(game, "until it pauses"))   # (the decision it pauses at: the lowered code's)
    sizes = re.findall(r"(?<!st\.work \+ )len\(\w+\)(?! if type)|_size_of\(st, \w+\)", code)   # (not a charge)
    assert len([s for s in sizes if s.startswith("len(")]) == 1   # xs, proven a list: read at once
    assert len([s for s in sizes if s.startswith("_size_of")]) == 1   # ys, bound again: tested
    assert "len(st.zones[" in code   # size(p.hand): the zone's length read in place
    assert game.new_initial_state().to_json()["globals"]["out"] == 2 * (200 + 6)


def test_a_procedure_that_never_pauses_knows_its_lets_too(tmp_path):
    game = load(tmp_path, RULES.replace('''      if n > 100 {
        choose k in xs by p
      }
''', ""))
    code = unit(game, "procedure at line 6")
    assert "until it pauses" not in code
    assert len(re.findall(r"(?<!st\.work \+ )len\(\w+\)(?! if type)", code)) == 1   # (not a charge)
    assert game.new_initial_state().to_json()["globals"]["out"] == 2 * (200 + 6)


FUNCTION_VALUE = '''\
    game "G" { players 2 }
    component gem { worth: int }
    zone gems: gem visible all
    zone more: gem visible all
    deck all_gems: gem in gems = [gem(worth: k) for k in 1..4]
    var out: int = 0
    function all_of() -> list[gem] = list(gems) + [g for g in more if g.worth > 0]
    procedure add() {
      let mine = all_of()
      out = sum(g.worth for g in mine)
    }
    phase main {
      call add()
      end game
    }
'''


def test_the_value_of_a_function_is_known_by_its_bodys_text(tmp_path):
    game = load(tmp_path, FUNCTION_VALUE)
    code = unit(game, "procedure at line 8")
    assert ".record[" in code and "is _Component" not in code   # each g: a component, without a test
    assert game.new_initial_state().to_json()["globals"]["out"] == 10
