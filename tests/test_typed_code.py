"""Generated code specialised by what the compiler proves of a component taken from a typed
zone (interpreter/compiler/typed.py): a value ``top(Z)`` of a zone of one type, or a 'let'
of it, is a component of that type or none, so ``is not None`` tests its kind (typed.py,
moves.py), its move tests no type where the destination holds that type and no zone's way
is written (moves.py), a log line keeps it
without testing its kind (logs.py), and a field of ``top(Z)`` in a test reads the zone's last
component where the zone is not empty (assigned_reads.py, also in a count over the players
written out, players_written_out.py); a list of names logged is tested
by its length alone (logs.py, known_lines.py); a count gained or paid is not checked
(integers.natural), and ``size(players)`` is a tuple's length (integers.is_tuple). Each is
compared with the general path and the operations run one by one: the same states, work,
log lines, errors and spans at every step budget (a none where the zone is empty fails where
it is used)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import load_written
from test_blocks import failures_where_all_agree, one_by_one
from test_tails import counters_recorded

import rulelang
from rulelang.interpreter.compiler import assigned_reads, codegen, logs, players_written_out, procedures

__all__ = ["counters_recorded"]   # (the fixture, used by name)

RULES = """\
    game "T" { players 2 }
    component card { rank: int } shown as "c{rank}"
    component chip { rank: int } shown as "chip {rank}"
    zone pile: card visible all
    zone bag: chip visible all
    player zone played: card visible all
    player zone chips: chip visible all
    deck cards: card in pile = [card(rank: r) for r in 1..4]
    deck tokens: chip in bag = [chip(rank: r) for r in 1..3]
    supply gold total 12
    var total: int = 0
    var line: list[player] = players
    setup { shuffle pile }
    phase play {
      repeat {
        for p in players {
          choose x in [1, 2, 3, 4, 5, 6, 7, 8] by p
          let t = top(pile)
          log "" + p + " sees " + t + " by " + line
          if x < 3 { move t to p.played }
          if x == 3 and size(pile) == 1 { move t to p.chips }
          if x == 4 and top(pile).rank > 2 { total += 1 }
          if x == 8 and t.rank > top(p.played).rank { total += 1 }
          if x == 5 { line = line + [p, p, p, p, p] }
          if x == 6 and size(bag) > 0 { move top(bag) to p.chips }
          let n = count(c for c in p.played if c.rank > 2)
          if x == 7 and size(bag) < 2 {
            let m = count(q for q in players if top(q.played).rank > 3)
            gain n + m gold to p
            move top(p.played) to pile
          }
          if x == 1 { pay n + size(p.chips) gold from p }
          if total > 3 + size(players) { end game }
        }
      }
    }
"""


def general(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> rulelang.Game:
    """The game as the general path writes it: no value proven short, no list tested by
    its length alone, every move's kind and type tested, every field read by its kind."""
    original = procedures.move_lines
    with monkeypatch.context() as patch:
        patch.setattr(procedures, "shows_short", lambda writer, node, scope: False)
        patch.setattr(procedures, "named_lists", lambda writer, shown, unproven, scope: False)
        patch.setattr(procedures, "move_lines", lambda *args: original(*args[:6]))
        patch.setattr(assigned_reads, "_top_zone", lambda module, obj: None)
        patch.setattr(codegen, "typed_read", lambda *args: None)
        patch.setattr(procedures, "natural", lambda cat, node, scope: False)
        patch.setattr(players_written_out, "assigned_in_place", lambda module, text: text)
        return load_written(tmp_path, RULES)


def test_the_code_of_a_typed_top(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = load_written(tmp_path, RULES).generated_code()
    slow = general(tmp_path, monkeypatch).generated_code()
    # (the move of a card to a zone of cards: no type tested, no zone's way; to chips: tested)
    # (a card or none: not none is a card, typed.py)
    assert re.search(r"if (_t\d+) is not None:\n\s+_m_to = ", code)
    assert re.search(r"if (_t\d+) is not None and \1\.type == _k\d+:\n\s+_m_to = ", code)
    assert re.search(r"\((_\w+\d+)\.record\[_k\d+\] if \1 is not None else _no_attribute\(\1, _k\d+\)\)", code)
    assert code.count("is _ZoneRef") < slow.count("is _ZoneRef")
    # (the card logged as it is, the list by its length: no kind tested)
    assert re.search(r"len\(_t\d+\[3\]\) <= \d+:", code) and " in _NAMED" not in code
    # (the top's field: the zone's last card where it has one)
    assert re.search(r"_u(\d+)\[-1\]\.record\[_k\d+\] if \(_u\1 := (?:_st_|st\.)zones\[", code)
    # (and in the tests of a count over the players written out player by player)
    assert re.search(r"\n +if \(\(_u(\d+)\[-1\]\.record\[_k\d+\] if \(_u\1 := (?:_st_|st\.)zones\[\d+\]\) else ", code)
    assert " in _NAMED" in slow and "[-1].record[" not in slow
    # (a count, and a sum of counts, paid or gained as they are: never below zero, integers.natural)
    assert "_amount(" not in code.split("def _e")[0] and "_amount(" in slow
    # (the players a tuple: its length read plain, integers.is_tuple)
    assert re.search(r"_k\d+ \+ len\(_k\d+\)", code) and "_size_of(" not in code


@pytest.mark.usefixtures("counters_recorded")
def test_a_typed_top_fails_where_the_general_path_and_one_by_one_do(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    typed = load_written(tmp_path, RULES)
    slow = general(tmp_path, monkeypatch)
    single = one_by_one(load_written(tmp_path, RULES))
    outcomes = failures_where_all_agree((typed, slow, single), 12, range(1, 70))
    failures = {re.sub(r"^.*?\d: ", "", str(f[0])) for f in outcomes}
    assert {"E602 a none has no attribute 'rank' (in play)"} <= failures, failures
    assert any("holds components of type chip, not a card" in f for f in failures), failures
    assert any("none" in f and "rank" not in f for f in failures), failures   # (a none moved)


def test_a_long_list_is_logged_as_say_logs_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (the list grows by five: its length crosses the most the line keeps unbuilt, at each length)
    typed, slow = load_written(tmp_path, RULES), general(tmp_path, monkeypatch)
    kinds: set[bool] = set()
    for game in (typed, slow):
        game_lines: list[Any] = []
        for seed in range(6):
            state = game.new_initial_state(seed=seed)
            while not state.is_terminal() and len(state.log_lines) < 40:
                player = state.current_players()[0]
                actions = state.legal_actions(player)
                pick = [a for a in actions if str(a).endswith("5")] if len(state.log_lines) < 30 else []
                try:
                    state.apply_action((pick or actions)[0], player=player)
                except rulelang.errors.RulesRuntimeError:
                    break
            game_lines.append([(type(line) is str, rulelang.interpreter.model.program.line_text(line))
                               for line in state.log_lines])
            kinds |= {kept for kept, _ in game_lines[-1]}
        if game is typed:
            typed_lines = game_lines
    assert game_lines == typed_lines and kinds == {False, True}   # (kept unbuilt, then built past the room)


NAMED_VARIABLES = """\
    game "N" { players 2 }
    enum colour { red, blue }
    var led: colour? = none
    var open: bool = false
    player var mark: colour? = none
    phase play {
      repeat {
        for p in players {
          choose x in [1, 2, 3, 4] by p
          if x == 1 { led = red } elif x == 2 { led = none } elif x == 3 { open = not open }
          if x == 4 { p.mark = led }
          log "" + p + " sees " + led + ", " + open + " and " + p.mark
          if x == 4 and led == blue { end game }
          if x == 3 { led = blue }
        }
      }
    }
"""


@pytest.mark.usefixtures("counters_recorded")
def test_a_variable_declared_a_name_is_logged_untested(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (a global or a player's variable declared an enumeration's value or none, or a bool: held to
    # its type, so its log line tests no kind, logs.shows_short; the same lines, states and errors
    # as where it is tested, at every step budget)
    named = load_written(tmp_path, NAMED_VARIABLES)
    assert "_NAMED" not in named.generated_code().split("def _e")[0]
    with monkeypatch.context() as patch:
        patch.setattr(logs, "promise_of", lambda cat, node, scope: None)
        tested = load_written(tmp_path, NAMED_VARIABLES)
    assert "_NAMED" in tested.generated_code()
    failures = failures_where_all_agree((named, tested, one_by_one(load_written(tmp_path, NAMED_VARIABLES))),
                                        8, range(1, 60))
    assert failures and all("E603" in str(failure[0]) for failure in failures)
