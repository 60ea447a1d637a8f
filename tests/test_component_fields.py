"""Fields of components and items of zones (interpreter/compiler/fields.py): a field that every
component type declares is read as one subscript, a field that holds an integer in every
component is a proven integer bounded by the largest, and ``z[i]`` of a zone reads the zone
without copying it; the values and the located errors are those of the checked reads."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import generated_functions as code
from conftest import load_written
from conftest import setup_failure as failure

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import codegen

ROOT = Path(__file__).resolve().parent.parent

CARDS = '''\
    game "G" { players 1 }
    component card { rank: int  potions: int }
    zone pile: card visible all
    zone empty: card visible all
    deck cards: card in pile = [card(rank: r, potions: 5 - r) for r in 1..3]
    var strength: int = 0
    var strengths: list[int] = []
    phase p {
      strength = pile[0].rank * 10 + pile[-1].potions
      strengths = [c.rank * 10 + c.potions for c in pile if c.rank * 10 > strength]
      end game
    }
'''


def load(tmp_path: Path, source: str) -> rulelang.Game:
    return load_written(tmp_path, source, players=2 if "players 2" in source else 1)


def test_fields_of_every_type_read_in_place_and_their_integers_add_in_plain_python(tmp_path):
    game = load(tmp_path, CARDS)
    listing = code(game)
    assert ".record[" in listing and "_k6(st, " not in game.generated_code()
    assert "_plus" not in listing and "_times" not in listing and "_index(" not in listing
    assert game.new_initial_state().to_json()["globals"] == {"strength": 12, "strengths": [23, 32]}


def test_an_item_past_the_ends_of_a_zone_is_still_the_rules_error(tmp_path):
    for index, size in (("0", 0), ("-1", 0)):
        game = load(tmp_path, CARDS.replace("pile[-1].potions", f"empty[{index}].potions"))
        (diagnostic,) = failure(game).diagnostics
        assert diagnostic.span.line == 9
        assert diagnostic.message == f"index {index} is out of range for a list of {size} (in p)"
    game = load(tmp_path, CARDS.replace("pile[-1]", "pile[3]"))
    assert failure(game).diagnostics[0].message == "index 3 is out of range for a list of 3 (in p)"


def test_a_field_some_type_lacks_keeps_its_read_and_its_error(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        component card { rank: int }
        component token { weight: int }
        zone bag: token visible all
        deck tokens: token in bag = [token(weight: 2)]
        var n: int = 0
        phase p {
          n = [x.rank for x in list(bag)][0]
          end game
        }
    ''')
    # never one bare subscript: where the field may be missing, its reader raises the error
    assert re.search(r"\.record\[(\w+)\](?! if \1 in )", code(game)) is None
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 8 and diagnostic.message == "a token has no field 'rank' (in p)"


def test_large_or_other_values_of_a_field_keep_the_checked_arithmetic(tmp_path):
    large = load(tmp_path, CARDS.replace("potions: 5 - r", "potions: 9 * 999999999999999999 + 223372036854775811"))
    assert "_plus" in code(large)   # 10 * rank fits, the sum may not
    (diagnostic,) = failure(large).diagnostics
    assert diagnostic.span.line == 9 and diagnostic.message.startswith("number too large")
    optional = load(tmp_path, CARDS.replace("potions: int", "potions: int?").replace(
        "potions: 5 - r", "potions: if r == 3 then none else r").replace("pile[-1]", "pile[0]"))
    assert "_plus" in code(optional)   # not an int in every card
    (diagnostic,) = failure(optional).diagnostics   # the third card's, in the comprehension
    assert diagnostic.span.line == 10 and diagnostic.message == "cannot apply '+' to int and none (in p)"


def test_the_seed_games_read_fields_and_items_of_zones_in_place():
    game = rulelang.load(ROOT / "games" / "asterix.rules", players=4)
    listing = game.generated_code()
    assert ".record[" in listing and "<no item>" in listing and "_plus(st, _times(" not in listing


@pytest.mark.parametrize(("index", "in_place"), [("0", True), ("-1", True), ("1", False)])
@pytest.mark.parametrize(("read", "general"), [("other[I].rank", "<an item of a zone>"),
                                               ("[c.rank for c in other][I]", "<an item of a list>")])
def test_the_first_or_last_item_of_a_zone_or_list_is_read_in_place_with_the_same_error(tmp_path, index, in_place,
                                                                                      read, general):
    game = load(tmp_path, f'''\
        game "G" {{ players 1 }}
        component card {{ rank: int }}
        zone pile: card visible all
        zone other: card visible all
        deck cards: card in pile = [card(rank: r) for r in 1..3]
        var n: int = 0
        phase p {{
          n = {read.replace("other", "pile").replace("I", index)}
          n = n + {read.replace("I", index)}
          end game
        }}
    ''')
    listing = game.generated_code()
    assert (general not in listing) is in_place and ("<no item>" in listing) is in_place
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 9 and diagnostic.message == f"index {index} is out of range for a list of 0 (in p)"


def test_a_field_of_a_value_computed_once_is_one_call_with_the_same_error(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        component card { rank: int }
        zone pile: card visible all
        deck cards: card in pile = [card(rank: r) for r in 1..3]
        var n: int = 0
        phase p {
          n = [c for c in pile][1].rank
          n = n + [pile[0], 3][1].rank
          end game
        }
    ''')
    assert "<reads x.rank of a component>" in game.generated_code()
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 8 and diagnostic.message == "a int has no attribute 'rank' (in p)"
    game = load(tmp_path, (tmp_path / "game.rules").read_text(encoding="utf-8").replace(", 3][1]", ", 3][0]"))
    assert game.new_initial_state().to_json()["globals"]["n"] == 3


@pytest.mark.parametrize("top", ["pile", "chips", "empty"])
def test_a_field_some_components_lack_read_of_a_value_computed_once_is_one_call_with_the_same_error(
        tmp_path, monkeypatch, top):
    text = f'''\
        game "G" {{ players 1 }}
        component card {{ rank: int }}
        component chip {{ size: int }}
        zone pile: card visible all
        zone chips: chip visible all
        zone empty: card visible all
        deck cards: card in pile = [card(rank: r) for r in 1..3]
        deck some: chip in chips = [chip(size: 2)]
        var n: int = 0
        phase p {{
          n = top(pile).rank
          n = n + top({top}).rank
          end game
        }}
    '''
    game = load(tmp_path, text)
    assert "<reads x.rank of a component>" in game.generated_code()
    outcome = failure(game).diagnostics if top != "pile" else game.new_initial_state().to_json()
    monkeypatch.setattr(codegen, "field_read", lambda cat, name: None)   # (the dispatch's two calls, as before)
    monkeypatch.setattr(codegen, "typed_read", lambda *args: None)   # (and no read typed by its zone: typed.py)
    general = load(tmp_path, text)
    assert "<reads x.rank>" in general.generated_code()
    assert outcome == (failure(general).diagnostics if top != "pile" else general.new_initial_state().to_json())
    if top != "pile":
        (diagnostic,) = outcome
        assert diagnostic.span.line == 12 and diagnostic.message in (
            "a chip has no field 'rank' (in p)", "a none has no attribute 'rank' (in p)")


def test_an_entry_of_a_simultaneous_choice_missing_is_still_the_rules_error(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 2 }
        var n: int = 0
        phase p {
          simultaneous q in [players[0]] choose x in [1, 2]
          n = x[players[0]] + x[players[1]]
          end game
        }
    ''')
    state = game.new_initial_state()
    with pytest.raises(RulesRuntimeError) as caught:
        state.apply_action(state.legal_actions(0)[1], player=0)
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.span.line == 5 and diagnostic.message == "no entry for player 2 (in p)"
    assert state.current_players() == [0] and not state.is_terminal()   # left as it was


def test_the_size_of_a_players_zone_is_read_in_place(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 2 }
        component card { rank: int }
        player zone hand: card visible owner
        player deck cards: card in hand = [card(rank: r) for r in 1..player_number(me)]
        var sizes: list[int] = []
        phase p {
          sizes = [size(q.hand) * 10 + size(q.hand) for q in players]
          end game
        }
    ''')
    assert re.search(r"len\((?:_st_|st\.)zones\[_k\d+\[_v\d+\.index\]\]\)", code(game)) and "_size_of" not in code(game)
    # (by the constant table of the slots of the players' hands: no zone read for its slot)
    assert game.new_initial_state().to_json()["globals"]["sizes"] == [11, 22]


TWICE = '''\
    game "G" { players 2 }
    component card { rank: int  potions: int }
    zone pile: card visible all
    player zone played: card visible all
    deck cards: card in pile = [card(rank: r, potions: 5 - r) for r in 1..4]
    var best: int = 0
    var firsts: list[player] = []
    phase p {
      for q in players { move top(pile) to q.played }
      EMPTIED
      best = max(q.played[0].rank * 10 + q.played[0].potions for q in players)
      firsts = [q for q in players if q.played[0].rank * 10 + q.played[0].potions == best]
      end game
    }
'''


@pytest.mark.parametrize("emptied", ["", "move players[1].played to pile"])
def test_an_end_item_a_comprehension_reads_twice_is_read_once(tmp_path, monkeypatch, emptied):
    """``q.played[0]`` read twice in an element and a test: at the first read, into a local
    after (comprehensions.read_once); the same values, and the same error for an empty zone."""
    game = load(tmp_path, TWICE.replace("EMPTIED", emptied))
    assert len(re.findall(r"\(_u\d+ := \((?:_st_|st\.)zones\[", game.generated_code())) >= 2

    def outcome(game: rulelang.Game) -> object:
        try:
            return game.new_initial_state().to_json()["globals"]
        except RulesRuntimeError as error:
            return error.diagnostic.message, error.diagnostic.span.line
    once = outcome(game)
    monkeypatch.setattr(codegen, "read_once", lambda module, text: text)
    general = load(tmp_path, TWICE.replace("EMPTIED", emptied))
    assert not re.search(r"\(_u\d+ := ", general.generated_code()) and outcome(general) == once
    assert once == ({"best": 41, "firsts": [{"player": 0}]} if not emptied else
                    ("index 0 is out of range for a list of 0 (in p)", 11))
