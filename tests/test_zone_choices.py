"""A 'choose' whose options may be a zone, written in place (compiler/zone_choices.py): a
short zone's components offered without the choice's ``given``, the same decisions (options,
ids, kept or not, players), states, work and errors as ``given`` for every kind of list: a
hand, a shared zone offered to two players in turn (its decision kept, then another
player's), an empty zone (otherwise, E604), a long zone, a chooser that is no player."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import offers_made

import rulelang
from rulelang.interpreter.compiler import choices

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "Z" { players 2  max_steps STEPS }
component card { rank: int } shown as "card {rank}"
player zone hand: card visible owner
zone pile: card visible all
deck cards: card in pile = [card(rank: r) for r in 1..8]
zone table: card visible all
zone long: card visible all
deck many: card in long = [card(rank: r) for r in 1..70]
var who: player? = none
var nobody: player? = none
phase p {
  for p in players {
    move top(pile) to p.hand
    move top(pile) to p.hand
    move top(pile) to table
  }
  for round in 1..3 {
    for p in players {
      choose t in table by p { }
      choose c in p.hand by p otherwise { log "" + p + " has none" }
      if c != none { move c to table }
      who = p
    }
  }
  choose x in long by who
  choose y in LAST by CHOOSER
  end game
}
"""


def _game(steps: int = 400, last: str = "table", chooser: str = "players[0]") -> rulelang.Game:
    text = RULES.replace("STEPS", str(steps)).replace("LAST", last).replace("CHOOSER", chooser)
    return rulelang.load(text.replace("choose t in table by p { }", "choose t in table by p"))


def _failure(game: rulelang.Game) -> tuple[object, ...]:
    """Where a game whose players always take the last option fails (the error's text and
    span), or its saved state and work at the end."""
    try:
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_players()[0]
            state.apply_action(state.legal_actions(player)[-1], player=player)
    except rulelang.RulesRuntimeError as error:
        return str(error), error.diagnostic.span
    return state.to_json(), state.work


def _cases() -> list[object]:
    return [*(offers_made(_game(), seed) for seed in range(8)),
            *(_failure(_game(steps)) for steps in range(1, 100, 4)),
            _failure(_game(chooser="nobody")),   # (a chooser that is no player)
            _failure(_game(last="p.hand", chooser="players[1]")),   # (an empty zone without otherwise: E604)
            _failure(_game(last="[]", chooser="players[1]"))]


def test_a_zone_offered_in_place_as_given_offers_it(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "_o = tuple(_oz)" in _game().generated_code()
    fast = _cases()
    assert any("E604" in str(case) for case in fast) and any("E603" in str(case) for case in fast)
    general = choices.choose_in_place
    monkeypatch.setattr(choices, "choose_in_place", lambda *args, **kept: general(*args[:-1], False, **kept))
    assert "_o = tuple(_oz)" not in _game().generated_code()
    assert fast == _cases()


def test_jolly_rogers_hands_are_offered_in_place_as_given_offers_them(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rulelang.load(GAMES / "jolly_roger.rules", players=4)
    assert "_o = tuple(_oz)" in game.generated_code()
    fast = [offers_made(game, seed) for seed in range(2)]
    general = choices.choose_in_place
    monkeypatch.setattr(choices, "choose_in_place", lambda *args, **kept: general(*args[:-1], False, **kept))
    general_game = rulelang.load(GAMES / "jolly_roger.rules", players=4)   # (one game: what it keeps depends on
    assert fast == [offers_made(general_game, seed) for seed in range(2)]   # what it offered before)


def test_a_choice_over_a_certain_zone_tests_no_class(monkeypatch: pytest.MonkeyPatch) -> None:
    # (a declared zone, the table or the long one: zone_choices.certain_zone; the options read
    # as a zone without testing their class, the same cases at every step budget; p.hand is
    # not certain here, p being bound by two loops: its class tested, as in every choice before)
    written = _game(last="[c]").generated_code()
    # (st.zones, or the local a function reads it into once: fields_read_once.py)
    assert len(re.findall(r"if len\(_oz := (st\.|_st_)zones\[_o\.slot\]\) <= 64:", written)) >= 2
    assert re.search(r"_o = \(_k\d+\[env\[_k\d+\]\.index\] if type.*\n +if type\(_o\) is _ZoneRef and ", written)
    fast = [*_cases(), *(_failure(_game(steps, last="p.hand", chooser="players[1]")) for steps in range(1, 100))]
    with monkeypatch.context() as patch:   # (as before: the class tested)
        patch.setattr(choices, "certain_zone", lambda compiler, source: False)
        assert "if len(_oz" not in _game().generated_code()
        general = [*_cases(), *(_failure(_game(steps, last="p.hand", chooser="players[1]")) for steps in range(1, 100))]
    assert fast == general and any("E604" in str(case) for case in fast)


def test_jolly_rogers_hands_of_a_held_player_test_no_class(monkeypatch: pytest.MonkeyPatch) -> None:
    # (`for p in line` holds p a player: p.hand is certainly a zone, its class not tested)
    game = rulelang.load(GAMES / "jolly_roger.rules", players=4)
    assert re.search(r"_o = \(_k\d+\[_env\d+\.index\]\)\n +if len\(_oz := (st\.|_st_)zones\[_o\.slot\]\) <= 64:",
                     game.generated_code())
    fast = [offers_made(game, seed) for seed in range(2)]
    monkeypatch.setattr(choices, "certain_zone", lambda compiler, source: False)
    tested = rulelang.load(GAMES / "jolly_roger.rules", players=4)
    assert "if len(_oz" not in tested.generated_code()
    assert fast == [offers_made(tested, seed) for seed in range(2)]
