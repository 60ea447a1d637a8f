"""A 'log' line whose values the text proves short (players, spaces, components, integers)
is kept as a ``LogLine`` (its template and values) by the generated code itself
(compiler/logs.py), without ``effects.say`` testing the kinds of its values: the same lines, texts, events and work as
the general path, with and without an event log."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import worked_and_logged

import rulelang
from rulelang.interpreter.compiler import procedures
from rulelang.interpreter.model.program import line_text

GAMES = Path(__file__).resolve().parent.parent / "games"
KEPT = "st.log_lines.append("   # (a line kept by the generated code itself; say appends the others)

RULES = """\
game "L" { players 2  max_steps 400 }
var n: int = 0
var who: player = players[0]
var long: string = "LONG"
phase p {
  for q in players {
    n += 1
    who = q
    log "" + who + " counts " + n + " of " + size(players)
    log "" + who + " says " + (if n > 1 then "more" else "one")
    log "" + [n, size(players)] + " and " + long
  }
  end game
}
""".replace("LONG", "x" * 600)


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every log line through ``effects.say``, as before."""
    monkeypatch.setattr(procedures, "kept_line", lambda template, values, unproven, local, spent=0, most=None: [
        (0, f"_say(st, {template}, ({values}))")])
    monkeypatch.setattr(procedures, "after_loud_mark", lambda lines, indent: False)
    monkeypatch.setattr(procedures, "kept_private_line", lambda template, values, unproven, local, audience, heard,
                        spent=0: [(0, f"_say(st, {template}, ({values}), {audience}, True)")])
    monkeypatch.setattr(procedures, "one_listener", lambda writer, audience, scope: None)


def _unproven(monkeypatch: pytest.MonkeyPatch) -> None:
    """No value of a log line proven short: each tested where the line is logged."""
    monkeypatch.setattr(procedures, "shows_short", lambda writer, node, scope: False)


def test_jamaica_keeps_its_log_lines_in_place_as_the_general_path_does(monkeypatch):
    path = GAMES / "jamaica.rules"
    fast = rulelang.load(path, players=4)
    assert KEPT in fast.generated_code()
    played = worked_and_logged(fast)
    with monkeypatch.context() as patched:
        _unproven(patched)
        tested = rulelang.load(path, players=4)
        assert tested.generated_code().count("_NAMED") > fast.generated_code().count("_NAMED")
        assert worked_and_logged(tested) == played
    _general(monkeypatch)
    slow = rulelang.load(path, players=4)
    assert KEPT not in slow.generated_code()
    assert worked_and_logged(slow) == played


def test_a_line_of_proven_values_is_kept_and_others_tested(monkeypatch):
    game = rulelang.load(RULES)
    code = game.generated_code()
    assert code.count(KEPT) == 3 and code.count(" in _NAMED") == 2   # (a list, a text: tested; "one" not)
    state = game.new_initial_state()
    assert [str(line) for line in state.log] == [
        "player 1 counts 1 of 2", "player 1 says one", "[1, 2] and " + "x" * 600,
        "player 2 counts 2 of 2", "player 2 says more", "[2, 2] and " + "x" * 600]
    _general(monkeypatch)
    assert [str(line) for line in rulelang.load(RULES).new_initial_state().log] == [str(x) for x in state.log]


LISTED = """\
game "L" { players 3 }
var line: list[player] = players
var many: list[player] = players * 30
var numbers: list[int] = [1, 2]
phase p {
  log "the line is " + line
  line = [players[2], players[0]]
  log "now " + line + "."
  log "many " + many
  log "numbers " + numbers
  end game
}
"""


def test_a_line_whose_one_value_is_a_short_list_of_names_is_kept_in_place(monkeypatch):
    game = rulelang.load(LISTED)
    assert "_NAMED.issuperset(map(type, " in game.generated_code()
    lines = game.new_initial_state().log_lines
    # (kept as the template and its values; too long: built; a list of numbers: by say, joined plain)
    assert [type(line) is str or bool(line[0].texts) for line in lines] == [True, True, True, False]
    assert type(lines[2]) is str and type(lines[3]) is not str
    texts = [line_text(line) for line in lines]
    assert texts[:2] == ["the line is [player 1, player 2, player 3]", "now [player 3, player 1]."]
    _general(monkeypatch)
    assert [line_text(line) for line in rulelang.load(LISTED).new_initial_state().log_lines] == texts


CHOSEN = """\
game "L" { players 2 }
var far: bool = false
var line: list[player] = players
phase p {
  for q in players {
    log "" + q + " goes " + (if far then "forward " else "back ") + 3 + " to " + line
    log "" + q + " says " + (if far then "LONG" else "no")
    far = true
    line = line * 30
  }
  end game
}
""".replace("LONG", "y" * 500)


def test_a_text_chosen_between_literals_is_proven_and_takes_its_room(monkeypatch):
    game = rulelang.load(CHOSEN)
    code = game.generated_code()
    # (the list of players tested by its length alone, in the room "forward " leaves: logs._value_tests)
    assert "_MAX_INT" in code and re.search(r"len\(_t\d+\[4\]\) <= \d+:", code)
    lines = game.new_initial_state().log_lines
    # (kept; "no" kept by say, as "LONG" cannot be proven to fit; 60 players: built; "LONG": built)
    assert code.count(" in _NAMED") == 1 and code.count("_say(") == 2   # (the text not proven)
    assert [type(line) is str for line in lines] == [False, False, True, True]
    texts = [line_text(line) for line in lines]
    assert texts[0] == "player 1 goes back 3 to [player 1, player 2]" and texts[1] == "player 1 says no"
    with monkeypatch.context() as patched:
        patched.setattr(procedures, "proven_texts", lambda shown, unproven, room: (unproven, 0))
        tested = rulelang.load(CHOSEN)
        assert ".room - 8)" not in tested.generated_code()
        assert [line_text(line) for line in tested.new_initial_state().log_lines] == texts
        assert worked_and_logged(tested) == worked_and_logged(game)
    _general(monkeypatch)
    assert [line_text(line) for line in rulelang.load(CHOSEN).new_initial_state().log_lines] == texts


PRIVATE = """\
game "L" { players 3 }
var n: int = 0
phase p {
  for q in players {
    n += 1
    log "you, " + q + ", hold " + n to [q]
    log "" + q + " tells " + players[0] + " alone" to players[0]
    log "the first two hear " + n to [players[0], players[1]]
    log "" + n + " to a number" to [n]
  }
  end game
}
"""


def test_a_line_to_one_player_is_kept_in_place_as_say_keeps_it(monkeypatch):
    game = rulelang.load(PRIVATE)
    code = game.generated_code()
    assert code.count("st.private_lines.append((len(st.log_lines), (") == 4
    with pytest.raises(rulelang.RulelangError, match=r"9:5: E602 'to' needs a player or a list of players, not int"):
        game.new_initial_state()   # the last line: say's own error, at its statement
    kept = rulelang.load(PRIVATE.replace('    log "" + n + " to a number" to [n]\n', ""))
    state = kept.new_initial_state()
    lines = state.private_lines
    assert [(at, players) for at, players, _ in lines] == [
        (0, (0,)), (0, (0,)), (0, (0, 1)), (0, (1,)), (0, (0,)), (0, (0, 1)), (0, (2,)), (0, (0,)), (0, (0, 1))]
    assert [type(text) is str for _, _, text in lines] == [False] * 9   # kept unbuilt: by the code or by say
    assert line_text(lines[3][2]) == "you, player 2, hold 2"
    assert line_text(lines[4][2]) == "player 2 tells player 1 alone"
    _general(monkeypatch)
    general = rulelang.load(PRIVATE.replace('    log "" + n + " to a number" to [n]\n', ""))
    assert "st.private_lines.append" not in general.generated_code()
    assert worked_and_logged(general) == worked_and_logged(kept)
    assert [(at, players, line_text(text)) for at, players, text in general.new_initial_state().private_lines] == [
        (at, players, line_text(text)) for at, players, text in lines]
    with pytest.raises(rulelang.RulelangError, match=r"9:5: E602 'to' needs a player or a list of players, not int"):
        rulelang.load(PRIVATE).new_initial_state()


def test_jolly_roger_keeps_its_lines_to_one_player_as_say_does(monkeypatch):
    path = GAMES / "jolly_roger.rules"
    fast = rulelang.load(path, players=4)
    assert "st.private_lines.append((len(st.log_lines), (" in fast.generated_code()
    played = worked_and_logged(fast)
    _general(monkeypatch)
    slow = rulelang.load(path, players=4)
    assert "st.private_lines.append" not in slow.generated_code()
    assert worked_and_logged(slow) == played
