"""A zone's declared component type, enforced (a deck in a zone of another type, a move of
another type, a saved state that puts one there: each refused) and the field reads it lets
the compiler write plain (interpreter/compiler/typed.py): a field of ``top(Z)``, of a loop's
item or a 'let' of ``top(Z)`` read as ``c.record[F]`` once the value is a component, with
the same states, work, errors and spans at every step budget as the checked reads and as the
operations run one by one; a zone declared ``: component`` holds any type."""
from __future__ import annotations

import random
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import load_written
from test_blocks import failures_where_all_agree, one_by_one
from test_tails import counters_recorded

import rulelang
from rulelang.errors import RulesetError, RulesRuntimeError, StateDataError
from rulelang.interpreter.compiler import codegen, deals, moves
from rulelang.interpreter.model.values import CHANCE
from rulelang.loader import lint_file

__all__ = ["counters_recorded"]   # (the fixture, used by name)

TYPED = """\
    game "T" { players 2 }
    enum suit { red, blue }
    component card { suit: suit  rank: int } shown as "{rank}"
    component chip { rank: int } shown as "chip {rank}"
    zone pile: card visible all
    zone bag: chip visible all
    zone bin: component visible all
    player zone played: card visible all
    deck cards: card in pile = [card(suit: s, rank: r) for s in values(suit) for r in 1..5]
    deck chips: chip in bag = [chip(rank: r) for r in 1..3]
    var total: int = 0
    setup { shuffle pile }
    phase play {
      repeat {
        for p in players {
          choose x in [1, 2, 3, 4, 5, 6, 7] by p
          if x < 4 { move top(pile) to p.played }
          if x == 4 and size(bag) > 0 { move top(bag) to bin }
          if x == 5 and size(bin) > 0 { move top(bin) to p.played }
          if x == 7 and top(p.played).rank > 3 { total += 1 }
          for c in p.played { total += c.rank }
          let d = top(p.played)
          if x == 2 { choose y in [1, 2] by p }
          if size(p.played) > 0 and d.suit == red { total += count(d for d in bin) }
          if x == 6 { move bin to pile }
          if size(pile) <= 4 { end game }
        }
      }
    }
"""


def unspecialised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str) -> rulelang.Game:
    """The game with every field read checked, as before typed.py."""
    with monkeypatch.context() as patch:
        patch.setattr(codegen, "typed_read", lambda *args: None)
        return load_written(tmp_path, rules)


@pytest.mark.usefixtures("counters_recorded")
def test_typed_reads_fail_where_checked_reads_and_one_by_one_do(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    typed = load_written(tmp_path, TYPED)
    checked = unspecialised(tmp_path, monkeypatch, TYPED)
    slow = one_by_one(load_written(tmp_path, TYPED))
    membership = r"if _k\d+ in \S+\.record"
    assert len(re.findall(membership, typed.generated_code())) < len(re.findall(membership, checked.generated_code()))
    outcomes = failures_where_all_agree((typed, checked, slow), 10, range(1, 90))
    failures = {re.sub(r"^.*?\d: ", "", str(f[0])) for f in outcomes}
    assert {"E602 zone 'played' holds components of type card, not a chip (in play)",
            "E602 zone 'pile' holds components of type card, not a chip (in play)",
            "E602 a none has no attribute 'rank' (in play)"} <= failures


def test_the_reads_of_a_typed_zone_are_plain(tmp_path: Path) -> None:
    code = load_written(tmp_path, TYPED).generated_code()
    # top(p.played).rank, the loop's c.rank, the let's d.suit: no test that the card has the field
    # (and a card or none: its kind tested by ``is not None``, s42-typed)
    assert re.search(r"_u(\d+)\.record\[_k\d+\] if \(_u\1 := .*?\) is not None else ", code)
    assert re.search(r"\(_l\d+\.record\[_k\d+\]\)", code)
    # (the let's d, held across the choice, whose name a comprehension's variable takes too)
    assert re.search(r"\(env\[(_k\d+)\]\.record\[_k\d+\] if env\[\1\] is not None else _no_attribute", code)


def _error_of_move(game: rulelang.Game) -> tuple[rulelang.State, rulelang.Action, RulesRuntimeError]:
    """A state, an action that moves a chip into a zone of cards there, and its error."""
    for seed in range(40):
        state, chooser = game.new_initial_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            player = state.current_players()[0]
            action = chooser.choice(state.legal_actions(player))
            before = state.clone()
            try:
                state.apply_action(action, player=player)
            except RulesRuntimeError as error:
                if "holds components of type card" in str(error):
                    return before, action, error
                break
    raise AssertionError("no game moved a chip into a zone of cards")


def test_a_move_of_another_type_is_a_located_error_that_leaves_the_state(tmp_path: Path) -> None:
    game = load_written(tmp_path, TYPED)
    before, action, error = _error_of_move(game)
    diagnostic = error.diagnostic
    assert diagnostic.code == "E602"
    assert diagnostic.span is not None   # (at the move: of top(bin) to p.played, or of bin to pile)
    line = textwrap.dedent(TYPED).splitlines()[diagnostic.span.line - 1]
    assert line[diagnostic.span.column - 1:].startswith(("move top(bin) to p.played", "move bin to pile"))
    state = before.clone()
    with pytest.raises(RulesRuntimeError):
        state.apply_action(action, player=state.current_players()[0])
    assert state.to_json() == before.to_json()


def test_moves_that_the_text_proves_are_not_tested(tmp_path: Path) -> None:
    code = load_written(tmp_path, TYPED).generated_code()
    tested = set(re.findall(r".*(?:\.type == _k\d+|in \(None, ).*", code))
    # the two ways of components of any type (bin's) into zones of cards; top(pile) to p.played
    # and top(bag) to bin are proven or need none (a block may be written twice: preludes.py)
    assert len({line.strip() for line in tested}) == 2, tested


def test_a_deal_between_zones_of_two_types_is_not_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dealt = "setup { shuffle pile\n  for p in players { move top(ZONE) to p.played } }"
    rules = TYPED.replace("setup { shuffle pile }", dealt.replace("ZONE", "bag"))
    with pytest.raises(RulesRuntimeError) as caught:
        load_written(tmp_path, rules).new_initial_state(seed=1)
    assert "holds components of type card, not a chip" in str(caught.value)
    same = TYPED.replace("setup { shuffle pile }", dealt.replace("ZONE", "pile"))
    assert "the top of a zone dealt" in load_written(tmp_path, same).generated_code()
    with monkeypatch.context() as patch:   # (without the test of the types: dealt all the same)
        patch.setattr(deals, "_one_type", lambda *args: True)
        assert "the top of a zone dealt" in load_written(tmp_path, rules).generated_code()


def test_a_deck_in_a_zone_of_another_type_stops_the_load(tmp_path: Path) -> None:
    rules = TYPED.replace("deck chips: chip in bag", "deck chips: chip in pile")
    with pytest.raises(RulesetError) as caught:
        load_written(tmp_path, rules)
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "E208" and "zone 'pile' holds components of type card, not a chip" in diagnostic.message
    assert diagnostic.span is not None and (diagnostic.span.line, diagnostic.span.column) == (10, 1)
    assert str(diagnostic.span.file).endswith("game.rules")


def test_a_saved_state_with_a_component_in_a_zone_of_another_type_is_refused(tmp_path: Path) -> None:
    game = load_written(tmp_path, TYPED)
    data = game.new_initial_state(seed=3).to_json()
    zones = dict(data["zones"])
    chip = zones["bag"][0]
    zones["bag"], zones["pile"] = zones["bag"][1:], [*zones["pile"], chip]
    with pytest.raises(StateDataError) as caught:
        game.state_from_json({**data, "zones": zones})
    assert caught.value.diagnostic.code == "E606"
    assert "zone 'pile' holds components of type card, not a chip" in str(caught.value)
    zones["pile"], zones["bin"] = zones["pile"][:-1], [chip]   # (a zone of any type takes it)
    assert game.state_from_json({**data, "zones": zones}).to_json()["zones"]["bin"] == [chip]


def test_the_moves_in_place_test_the_type_where_unproven(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:   # (no test in place: the chip enters the zone of cards)
        patch.setattr(moves._Holds, "component", lambda self, *args: "")
        patch.setattr(moves._Holds, "zone", lambda self, *args: "")
        unchecked = load_written(tmp_path, TYPED)
    with pytest.raises(AssertionError):
        _error_of_move(unchecked)


def test_a_game_of_one_component_type_tests_no_move() -> None:
    root = Path(__file__).resolve().parent.parent
    code = rulelang.load(root / "games" / "asterix.rules", players=4).generated_code()
    assert not re.search(r"\.type == _k\d+|in \(None, ", code)   # (every component is a card: moves.only_type)


def test_a_variable_of_type_component_holds_any_component(tmp_path: Path) -> None:
    rules = TYPED.replace("var total: int = 0", "var total: int = 0\n    var last: component? = none").replace(
        "if x == 6 { move bin to pile }", "if x == 6 { move bin to pile }\n      last = top(bag)")
    game = load_written(tmp_path, rules)
    state = game.new_initial_state(seed=2)
    for _ in range(6):
        player = state.current_players()[0]
        state.apply_action(state.legal_actions(player)[0], player=player)
    assert state.to_json()["globals"]["last"] is not None


def test_a_position_that_puts_another_type_in_a_zone_is_refused(tmp_path: Path) -> None:
    game = load_written(tmp_path, TYPED)
    with pytest.raises(StateDataError) as caught:   # ('others': every component not placed, chips too)
        game.state_from_position("phase play\nseed 1\nzone pile: others\n")
    assert caught.value.diagnostic.code == "E606" and caught.value.diagnostic.span is not None
    assert (caught.value.diagnostic.span.line, caught.value.diagnostic.span.column) == (3, 12)
    assert "zone 'pile' holds components of type card, not a chip" in str(caught.value)
    with pytest.raises(StateDataError) as named:
        game.state_from_position('phase play\nseed 1\nzone pile: chip "chip 1"\nzone bag: others\n')
    assert "zone 'pile' holds components of type card, not a chip" in str(named.value)   # (as everywhere else)
    assert game.state_from_position("phase play\nseed 1\nzone bin: others\n").to_json()["zones"]["pile"] == []


ONE_TYPE = """\
    game "T" { players 2 }
    component card { rank: int } shown as "{rank}"
    component chip { value: int } shown as "chip {value}"
    zone pile: card visible all
    player zone hand: card visible all
    player zone tokens: chip visible all
    deck cards: card in pile = [card(rank: r) for r in 1..9]
    var total: int = 0
    procedure give(z: zone) { move top(pile) to z }
    phase play {
      repeat {
        for p in players {
          choose x in [1, 2, 3, 4] by p
          if x == 1 { call give(p.hand) }
          if x == 2 { call give(p.tokens) }
          if x == 3 { for q in players { move top(pile) to q.hand } }
          if x == 4 and size(p.hand) > 0 { total += top(p.hand).rank }
          if size(pile) <= 2 { end game }
        }
      }
    }
"""


@pytest.mark.usefixtures("counters_recorded")
def test_one_component_type_and_a_zone_of_another_still_test_the_moves(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every component is a card, but a zone holds chips: a move into a zone the text does
    not name (a parameter) is tested all the same, as on the general path, and a deal into
    the chips' zones is not written as one (moves.only_type: None where a zone holds another type)."""
    game = load_written(tmp_path, ONE_TYPE)
    with monkeypatch.context() as patch:
        patch.setattr(moves, "only_type", lambda cat: None)
        patch.setattr(deals, "only_type", lambda cat: None)
        general = load_written(tmp_path, ONE_TYPE)
    outcomes = failures_where_all_agree((game, general, one_by_one(load_written(tmp_path, ONE_TYPE))), 6, range(1, 40))
    assert "E602 zone 'tokens' holds components of type chip, not a card (in give)" in {
        re.sub(r"^.*?\d: ", "", str(f[0])) for f in outcomes}
    dealt = ONE_TYPE.replace("move top(pile) to q.hand", "move top(pile) to q.tokens")
    with pytest.raises(RulesRuntimeError) as caught:
        state = load_written(tmp_path, dealt).new_initial_state(seed=1)
        while not state.is_terminal():   # (the engine never makes a state it would refuse to load)
            game.state_from_json(state.to_json())
            player = state.current_players()[0]
            state.apply_action(state.legal_actions(player)[2], player=player)
    assert "zone 'tokens' holds components of type chip, not a card" in str(caught.value)


PAUSED = """\
    game "T" { players 2 }
    component card { rank: int }
    component chip { value: int }
    zone pile: card visible all
    zone bag: chip visible all
    deck cards: card in pile = [card(rank: r) for r in 1..3]
    deck chips: chip in bag = [chip(value: r) for r in 1..3]
    var total: int = 0
    var order: list[card] = []
    phase main {
      order = [c for c in pile]
      shuffle order
      shuffle pile
      for c in pile {
        choose x in [1, 2] by players[0]
        total += c.rank
      }
      end game
    }
"""


def _shuffled(data: dict[str, Any]) -> str:
    (key,) = [k for k in data["frames"][0]["env"] if k.startswith("$shuffle")]
    return key


def test_saved_loop_and_shuffle_data_of_another_type_are_refused_at_load(tmp_path: Path) -> None:
    """A paused shuffle's items are the very components of the zone it shuffles, and a paused
    loop's items are of the type its variable is read as (plain: typed.py): else E606 at
    load, located at the data, not an internal error or a misleading one on resuming."""
    game = load_written(tmp_path, PAUSED)
    state = game.new_initial_state(seed=1, explicit_chance=True)
    data = state.to_json()   # (paused in 'shuffle order': a list's items need not be a zone's)
    first = _shuffled(data)
    data["frames"][0]["env"][first] = [[{"component": 0}, {"component": 4}], 1]
    assert game.state_from_json(data).to_json() == data
    while _shuffled(state.to_json()) == first:
        state.apply_action(state.legal_actions(CHANCE)[0], player=CHANCE)
    data = state.to_json()   # (paused in 'shuffle pile')
    assert game.state_from_json(data).to_json() == data
    key = _shuffled(data)
    data["frames"][0]["env"][key][0] = [{"component": c} for c in data["zones"]["bag"]]
    with pytest.raises(StateDataError) as caught:
        game.state_from_json(data)
    assert caught.value.diagnostic.code == "E606"
    assert f"at $.frames[0].env.{key}: the items being shuffled are not the components of zone 'pile'" in str(
        caught.value)
    while state.current_players() == [CHANCE]:
        state.apply_action(state.legal_actions(CHANCE)[0], player=CHANCE)
    data = state.to_json()   # (paused in the loop over pile, at its first card)
    assert game.state_from_json(data).to_json() == data
    (key,) = [k for k in data["frames"][0]["env"] if k.startswith("$for")]
    data["frames"][0]["env"][key][0][1:] = [{"component": c} for c in data["zones"]["bag"][:2]]
    with pytest.raises(StateDataError) as refused:
        game.state_from_json(data)
    assert refused.value.diagnostic.code == "E606"
    assert f"at $.frames[0].env.{key}[0][1]: the loop's variable c must be a card, not chip" in str(refused.value)


def test_a_zone_of_an_optional_component_type_holds_that_type_for_the_linter_and_the_engine(tmp_path: Path) -> None:
    """``zone pile: card?`` holds cards (a zone never holds none): the linter's E208 and the
    engine's E602 agree, through the one rule both call (zone_types.declared_holds)."""
    rules = textwrap.dedent(TYPED).replace("zone pile: card visible all", "zone pile: card? visible all")
    path = tmp_path / "optional.rules"
    path.write_text(rules.replace("setup { shuffle pile }", "setup { shuffle pile\n  move top(bag) to pile }"))
    assert [d.code for d in lint_file(path)] == ["E208"]
    with pytest.raises(RulesRuntimeError) as caught:
        load_written(tmp_path, TYPED.replace("zone pile: card visible", "zone pile: card? visible").replace(
            "setup { shuffle pile }", "setup { shuffle pile\n  move top(bag) to pile }")).new_initial_state(seed=1)
    assert "E602 zone 'pile' holds components of type card, not a chip" in str(caught.value)


def test_a_component_type_or_enum_named_after_a_type_of_the_language_is_refused(tmp_path: Path) -> None:
    for declared in ("component component { rank: int }", "enum component { a, b }", "component int { rank: int }"):
        with pytest.raises(RulesetError) as caught:
            chip = "component chip { rank: int }"
            load_written(tmp_path, TYPED.replace(chip, f"{declared}\n    {chip}"))
        (diagnostic,) = caught.value.diagnostics
        assert diagnostic.code == "E205" and "is a type of the language" in diagnostic.message
        assert diagnostic.span is not None and diagnostic.span.line == 4


def test_a_saved_state_names_a_players_zone_as_the_rules_do(tmp_path: Path) -> None:
    game = load_written(tmp_path, TYPED)
    data = game.new_initial_state(seed=3).to_json()
    zones = dict(data["zones"])
    zones["bag"], zones["played/1"] = zones["bag"][1:], [zones["bag"][0]]
    with pytest.raises(StateDataError) as caught:
        game.state_from_json({**data, "zones": zones})
    assert "at $.zones.played/1[0]: zone 'played' holds components of type card, not a chip" in str(caught.value)
