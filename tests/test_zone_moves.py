"""A whole zone moved by compiled code (interpreter/compiler/procedures.py): a short zone moves
in place (``State.move_all``), a long one through ``effects.move``, which charges its size to
the step budget; both keep the zone's order and every component once."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from conftest import generated_functions as code
from conftest import load_written
from conftest import setup_failure as failure

import rulelang
import rulelang.errors
from rulelang.interpreter.compiler import moves

MOVES = '''\
    game "G" { players 1  max_steps 100 }
    component card { rank: int }
    zone pile: card visible all
    zone other: card visible all
    deck cards: card in pile = [card(rank: r) for r in 1..SIZE]
    var ranks: list[int] = []
    procedure gather() {
      move pile to other
      ranks = [c.rank for c in other]
    }
    phase p {
      call gather()
      end game
    }
'''


def load(tmp_path: Path, size: int, source: str = MOVES, players: int = 1) -> rulelang.Game:
    return load_written(tmp_path, source.replace("SIZE", str(size)), players=players)


def test_a_short_zone_moves_in_place_keeping_its_order(tmp_path: Path) -> None:
    game = load(tmp_path, 40)
    assert "st.move_all(" in code(game)
    state = game.new_initial_state()
    assert state.to_json()["globals"]["ranks"] == list(range(1, 41))


def test_a_long_zone_is_still_charged_to_the_step_budget(tmp_path: Path) -> None:
    (diagnostic,) = failure(load(tmp_path, 120)).diagnostics
    assert diagnostic.span.line == 8 and "more than 100 items of work" in diagnostic.message


PLAYER_MOVES = MOVES.replace("zone other: card visible all", "player zone other: card visible all\n"
                             "    player zone back: card visible all").replace(
    "move pile to other\n      ranks = [c.rank for c in other]",
    "for p in players {\n        move pile to p.other\n        move p.other to p.back\n"
    "        move p.back[0] to p.other\n      }\n      ranks = [c.rank for c in players[0].back]")


def test_a_zone_or_a_component_known_from_the_text_moves_without_a_test_of_its_kind(tmp_path: Path) -> None:
    game = load(tmp_path, 40, PLAYER_MOVES)
    gather = next(unit for unit in code(game).split("\ndef ") if "move_all" in unit)
    assert "is _ZoneRef" not in gather and "is _Component:" not in gather and "_m_id = " in gather
    state = game.new_initial_state()
    assert state.to_json()["globals"]["ranks"] == list(range(2, 41))
    (diagnostic,) = failure(load(tmp_path, 120, PLAYER_MOVES)).diagnostics   # a long one: charged, as before
    assert diagnostic.span.line == 10 and "more than 100 items of work" in diagnostic.message


DEAL = '''\
    game "D" { players 3  max_steps 100 }
    component card { rank: int }
    zone pile: card visible all
    player zone hand: card visible owner
    deck cards: card in pile = [card(rank: r) for r in 1..SIZE]
    var ranks: list[list[int]] = []
    var back: list[int] = []
    var tops: list[int] = []
    var emptied: bool = false
    phase p {
      for i in 1..3 {
        for q in players {
          move top(pile) to q.hand
        }
      }
      ranks = [[c.rank for c in q.hand] for q in players]
      tops = [top(q.hand).rank for q in players]
      emptied = top(pile) == none
      for q in players {
        move q.hand to pile
      }
      back = [c.rank for c in pile]
      end game
    }
'''


HIDDEN_MOVES = '''\
    game "G" { players 2 }
    component card { rank: int }
    zone pile: card visible none
    player zone hand: card visible owner
    zone table: card visible all
    deck cards: card in pile = [card(rank: r) for r in 1..6]
    procedure deal() {
      for p in players {
        move WHAT to p.hand
        move WHAT to p.hand
      }
      move players[0].hand[0] to table
      move ZONE to pile
    }
    phase p {
      call deal()
      choose c in players[1].hand by players[1]
      move c to table
      end game
    }
'''


def _dealt(tmp_path: Path, size: int) -> tuple[str, object]:
    path = tmp_path / "deal.rules"
    path.write_text(textwrap.dedent(DEAL).replace("SIZE", str(size)), encoding="utf-8")
    game = rulelang.load(path, players=3)
    try:
        return code(game), game.new_initial_state().to_json()
    except rulelang.errors.RulesRuntimeError as error:
        return code(game), (str(error), error.diagnostic.span)


def test_a_zone_the_text_proves_is_moved_and_its_top_read_by_its_slot_without_a_test(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written, dealt = _dealt(tmp_path, 9)   # (all dealt: top(pile) is none)
    assert re.search(r"st\.move_top\(\d+, _k\d+\[_l\d+\.index\]\)", written)
    assert re.search(r"_m_from = _k\d+\[_l\d+\.index\]\n.*\n *if len\(_m_zone\) == 1:", written)   # (moves.zone_moved)
    assert re.search(r"st\.move_all\(_m_from, \d+\)", written)
    assert re.search(r"\((?:_st_|st\.)zones\[_k\d+\[_v\d+\.index\]\] or _k\d+\)\[-1\]", written)   # (top(q.hand))
    assert re.search(r"\((?:_st_|st\.)zones\[\d+\] or _k\d+\)\[-1\]", written)   # (top(pile))
    short = _dealt(tmp_path, 7)[1]   # (the pile runs out: the same error, where the move is)
    assert isinstance(short, tuple) and short[1].line == 13
    monkeypatch.setattr(moves, "players_zone_slot", lambda text, module: None)
    monkeypatch.setattr(moves, "zone_slot", lambda text, module: None)
    general, general_dealt = _dealt(tmp_path, 9)
    assert "type(_t" in general and not re.search(r"(?:_st_|st\.)zones\[_k", general) and "_top(st, _k" in general
    assert dealt == general_dealt and _dealt(tmp_path, 7)[1] == short
    assert dealt["globals"]["ranks"] == [[9, 6, 3], [8, 5, 2], [7, 4, 1]]
    assert dealt["globals"]["back"] == [9, 6, 3, 8, 5, 2, 7, 4, 1]
    assert dealt["globals"]["tops"] == [3, 2, 1] and dealt["globals"]["emptied"] is True
def played(tmp_path: Path, what: str, zone: str) -> tuple[object, ...]:
    """The game of HIDDEN_MOVES moving ``what`` and ``zone``, and what it has done after its
    one decision: its saved state, events, each player's observation and knowledge."""
    game = load(tmp_path, 0, HIDDEN_MOVES.replace("WHAT", what).replace("ZONE", zone), players=2)
    state = game.new_initial_state(seed=3, events=True)
    state.apply_action(state.legal_actions(1)[0], player=1)
    seen = [state.observation(p) for p in (0, 1)]
    return game, state.to_json(), state.events(), seen, list(state.component_knowledge)


def test_a_component_moved_in_place_as_state_move_moves_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A component moves in place (no call of State.move), one the text proves or a value
    tested a component: the same zones, knowledge of each player and events as the method's,
    from the top or below it."""
    (proven, *seen) = played(tmp_path, "pile[0]", "table")
    (tested, *seen_tested) = played(tmp_path, "(if true then pile[0] else none)", "table")
    monkeypatch.setattr(moves, "component_moved", lambda moved, to_slot, module, cat: [f"st.move({moved}, {to_slot})"])
    (general, *seen_general) = played(tmp_path, "(if true then pile[0] else none)", "table")
    assert "_m_zone.remove(" in code(proven) and "_m_zone.remove(" in code(tested)
    assert "_m_zone.remove(" not in code(general)
    assert seen == seen_tested == seen_general
    # (to a zone every player sees, named by the rules: all of them know where it is, no table read)
    assert "st.component_knowledge[_m_id] |= 3\n" in code(proven)


def test_a_zone_of_one_component_moved_in_place_as_move_all_moves_it(tmp_path: Path) -> None:
    """``move ZONE to W`` of zones the text proves: a zone of one component moves it in place,
    with the same zones, knowledge, observations and events as ``State.move_all``."""
    (proven, *seen) = played(tmp_path, "pile[0]", "table")
    (general, *seen_general) = played(tmp_path, "pile[0]", "(if true then table else none)")
    assert "if len(_m_zone) == 1:" in code(proven) and "if len(_m_zone) == 1:" not in code(general)
    assert seen == seen_general
