"""A value of a 'log ... instead { }' line that its block has just computed (``move c[q] to
...`` then ``log ... + c[q]``), read from the block's local instead of again
(compiler/moved_values.py): the same states, work, logs and events as the general path, the
same errors at every step budget; a value the block may have changed (an item of a zone, a
local the block binds) is read again."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import worked_and_logged
from test_blocks import failures_where_all_agree

import rulelang
from rulelang.interpreter.compiler import procedures, resumable
from rulelang.interpreter.compiler.moved_values import held_by_the_block

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "M" { players 3  max_steps 400 }
component card { rank: int } shown as "card {rank}"
player zone hand: card visible owner
player zone shown: card visible all
zone pile: card visible all
deck cards: card in pile = [card(rank: r) for r in 1..15]
var n: int = 0
phase p {
  for q in players {
    for k in 1..5 {
      move top(pile) to q.hand
    }
  }
  for round in 1..2 {
    simultaneous q in players choose c in q.hand
    for q in players {
      log "" + q + " shows " + c[q] instead {
        move c[q] to q.shown
      }
      let first = top(q.hand)
      log "" + q + " keeps " + top(q.hand) instead {
        move first to pile
      }
      log "" + q + " counts " + c[q] + " as " + n instead {
        n += 1
        move c[q] to pile
      }
    }
  }
  end game
}
"""


def _load(tmp_path: Path) -> rulelang.Game:
    path = tmp_path / "game.rules"
    path.write_text(RULES, encoding="utf-8")
    return rulelang.load(path)


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every value of a line computed again after its block, as before."""
    monkeypatch.setattr(procedures, "held_by_the_block", lambda lines, indent, values: values)


def test_a_value_the_block_moved_is_read_from_its_local_as_the_general_path_reads_it_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resumable, "preludes", lambda code, blocks: [])   # (each block's lines once: counted)
    fast = _load(tmp_path)
    code = fast.generated_code()
    kept = [line for line in code.split("\n") if "st.log_lines.append((_k" in line]
    assert len(kept) == 3   # (top(q.hand) too: a card or none, each shown short, typed.py)
    assert all("env[_k" not in line for line in kept)   # (c[q]: its move's local)
    assert "[-1], ))" in code   # (top(q.hand), which the move changed: read again)
    with monkeypatch.context() as patched:
        _general(patched)
        patched.setattr(resumable, "locals_read_once", lambda lines: lines)   # (each read from the environment)
        slow = _load(tmp_path)
        assert "st.log_lines.append((_k" in slow.generated_code()
        assert all("env[_k" in line or "[-1], ))" in line   # (the top read again either way)
                   for line in slow.generated_code().split("\n") if "st.log_lines.append((_k" in line)
    assert worked_and_logged(fast) == worked_and_logged(slow)
    failures = failures_where_all_agree((fast, slow), 3, range(1, 90))
    assert failures and all("E603" in str(failure[0]) for failure in failures)   # (the same error, span, counters)


def test_asterix_reads_the_card_played_from_the_move_that_reveals_it(monkeypatch: pytest.MonkeyPatch) -> None:
    path = GAMES / "asterix.rules"
    fast = rulelang.load(path, players=4)
    assert "st.log_lines.append((_k" in fast.generated_code()
    played = worked_and_logged(fast)
    _general(monkeypatch)
    assert worked_and_logged(rulelang.load(path, players=4)) == played


BLOCK = [
    "if st.event_log is not None:",
    "    st.event_log.append(('narrate', 'quiet'))",
    "_t5 = env[_k1][_l2]",
    "st.zones[3].append(_t5)",
    "if _t5 is None:",
    "    _t6 = env[_k7]",
    "if st.event_log is not None:",
    "    st.event_log.append(('narrate', 'loud'))",
]


@pytest.mark.parametrize(("added", "held"), [
    ("", True),
    ("st.global_values[_k3] = 1", True),          # (a variable of the game: not a local)
    ("env[_k1] = {}", False),                     # (the map itself bound again)
    ("_l2 = 4", False),                           # (the key's local bound again)
    ("for _l2 in _s9:", False),
    ("for env[_k1] in _s9:", False),              # (a for whose body binds a local of its name)
    ("return steps", False),                      # (the block leaves its straight line)
    ("pc = 7", False),
])
def test_a_value_is_taken_from_the_block_only_where_nothing_in_it_changes_what_it_reads(added: str,
                                                                                       held: bool) -> None:
    lines = [*BLOCK[:4], *([added] if added else []), *BLOCK[4:]]
    assert held_by_the_block(lines, 0, ["_l2", "env[_k1][_l2]", "env[_k7]"]) == [
        "_l2", "_t5" if held else "env[_k1][_l2]", "env[_k7]"]   # (_t6: set in a nested statement only)
    indented = ["    " + line for line in lines]
    assert held_by_the_block(indented, 1, ["env[_k1][_l2]"]) == ["_t5" if held else "env[_k1][_l2]"]
    assert held_by_the_block(lines[:-2], 0, ["env[_k1][_l2]"]) == ["env[_k1][_l2]"]   # (no block just ended)
    assert held_by_the_block(["st.zones[1].append(_t5)", *lines[2:]], 0, ["env[_k1][_l2]"]) == ["env[_k1][_l2]"]
