"""Proven integers (interpreter/compiler/integers.py): where the text alone makes both sides of
a comparison or a sum integers, the generated code is plain Python; everywhere else the rules'
checked operations keep their meaning and their located errors."""
from __future__ import annotations

import re
from pathlib import Path

from conftest import generated_functions as code
from conftest import load_written
from conftest import setup_failure as failure

import rulelang

ROOT = Path(__file__).resolve().parent.parent


def load(tmp_path: Path, source: str) -> rulelang.Game:
    return load_written(tmp_path, source, players=1)


PROVEN = '''\
    game "G" { players 1 }
    zone pile: list[int]
    var small: bool = false
    var total: int = 0
    var counted: list[int] = []
    phase p {
      small = size(pile) + 1 < 3 and 2 * size(pile) - 1 <= 0
      total = size(pile) + 999999999999999999
      counted = [k for k in [size(pile) + 2, 7] if k > 2 and k >= size(pile)]
      end game
    }
'''


def test_sums_and_comparisons_of_proven_integers_are_plain_python(tmp_path):
    game = load(tmp_path, PROVEN)
    assert not re.search(r"_order|_plus|_minus|_times", code(game))
    data = game.new_initial_state().to_json()["globals"]
    assert data["small"] is True and data["total"] == 999999999999999999 and data["counted"] == [7]


def test_a_product_that_may_overflow_keeps_its_check_and_its_location(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        var n: int = 0
        phase p {
          n = 999999999999999999 * 9
          n = n + 999999999999999999
          end game
        }
    ''')
    assert "_plus" in code(game)   # a declared int is not a proven one
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 5 and diagnostic.message.startswith("number too large")
    game = load(tmp_path, '''\
        game "G" { players 1 }
        var n: int = 0
        phase p {
          n = 999999999999999999 * 999999999999999999
          end game
        }
    ''')
    assert "_times" in code(game)   # bounds too large for the plain product
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 4 and diagnostic.message.startswith("number too large")


def test_a_comparison_with_one_proven_side_tests_the_other_and_keeps_the_rules_error(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        var below: int = 0
        phase p {
          for x in [1, 5, 2, "a"] {
            if x < 3 { below += 1 }
          }
          end game
        }
    ''')
    assert "is int else _order" in code(game)
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 5 and diagnostic.message == "cannot apply '<' to string and int (in p)"


def test_true_and_false_still_compare_with_numbers_as_before(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        var found: list[bool] = []
        phase p {
          found = [x < 1 for x in [true, false, 0, 2]]
          end game
        }
    ''')
    assert game.new_initial_state().to_json()["globals"]["found"] == [False, True, True, False]


def test_the_seed_games_compare_proven_integers_in_place():
    for name in ("tobago", "jamaica"):
        code = rulelang.load(ROOT / "games" / f"{name}.rules", players=4).generated_code()
        assert " is int else _order" in code or re.search(r"\(\w+ [<>]=? \w+\)", code), name


def test_size_reads_a_declared_zone_or_a_list_in_place_and_anything_else_as_before(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        zone pile: list[int]
        var sizes: list[int] = []
        function twice(n: int) -> int = n * 2
        phase p {
          let xs = [1, 2, 3]
          sizes = [size(pile), size(xs), size([x for x in xs if x > 1]), size(1..4), twice(size(xs))]
          sizes = sizes + [size(3)]
          end game
        }
    ''')
    listing = code(game)
    assert re.search(r"len\((?:_st_|st\.)zones\[", listing)
    assert "_size_of(st, " in listing and "_w = st.work + 4" in listing
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 8 and diagnostic.message == "expected a list or a zone, got int (in p)"
    game = load(tmp_path, (tmp_path / "game.rules").read_text(encoding="utf-8").replace("[size(3)]", "[]"))
    assert game.new_initial_state().to_json()["globals"]["sizes"] == [0, 3, 2, 4, 6]


def test_an_item_of_a_list_out_of_its_range_is_still_the_rules_error(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        var picked: list[int] = []
        phase p {
          let xs = [1, 2, 3]
          picked = [[xs, xs][0][-1], [xs][0][-3]]
          picked = picked + [[xs][0][3]]
          end game
        }
    ''')
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 6 and diagnostic.message == "index 3 is out of range for a list of 3 (in p)"


def test_two_proven_lists_are_joined_without_tests_of_their_kinds_and_within_the_bound(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1  max_steps 10000000 }
        var joined: list[int] = []
        phase p {
          joined = [1, 2] + [x for x in 3..4] + reversed([5])
          joined = joined + [6]
          joined = (1..60000) + (1..60000)
          end game
        }
    ''')
    listing = code(game)
    assert listing.count("_concat(st, ") == 4 and "_plus(st, " not in listing   # joined is declared a list
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 6
    assert diagnostic.message == "joining lists of 60000 and 60000 items makes more than 100000 items (in p)"
    game = load(tmp_path, (tmp_path / "game.rules").read_text(encoding="utf-8").replace("(1..60000) + (1..60000)",
                                                                                        "joined"))
    assert game.new_initial_state().to_json()["globals"]["joined"] == [1, 2, 3, 4, 5, 6]


def test_lists_an_if_chooses_are_proven_and_unproven_lists_are_joined_as_before(tmp_path):
    source = '''\
        game "G" { players 1  max_steps STEPS }
        var n: int = 1
        var joined: list[int] = []
        var text: string = ""
        phase p {
          joined = (if n > 0 then [1, 2] else []) + (if n > 5 then [] else 3..70)
          let long = 1..70
          let more = [x for x in long if x > 60]
          joined = joined + (long + more)
          text = "n: " + [n, none]
          let wide = 1..60000
          joined = WIDE
          end game
        }
    '''
    game = load(tmp_path, source.replace("STEPS", "1000000").replace("WIDE", "wide + wide"))
    listing = code(game)
    assert "_concat(st, ((_k" in listing   # the lists either if chooses are proven lists
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 12
    assert diagnostic.message == "joining lists of 60000 and 60000 items makes more than 100000 items (in p)"
    source = source.replace("1..60000", "1..1")
    state = load(tmp_path, source.replace("STEPS", "100000").replace("WIDE", "joined")).new_initial_state()
    values = state.to_json()["globals"]
    assert values["joined"] == [1, 2, *range(3, 71), *range(1, 71), *range(61, 71)]
    assert values["text"] == "n: [1, none]"
    # each list of more than 64 items built is charged: 70 (3..70 joined), 80 (long + more), 150
    budgets = []
    for joined in ("joined + (long + more)", "[1]"):
        low, high = 1, 100000
        while low < high:
            middle = (low + high) // 2
            try:
                load(tmp_path, source.replace("STEPS", str(middle)).replace("WIDE", "joined")
                     .replace("joined + (long + more)", joined)).new_initial_state()
            except rulelang.RulesRuntimeError:
                low = middle + 1
            else:
                high = middle
        budgets.append(low)
    assert budgets[0] - budgets[1] == 80 + 150


def test_own_fields_and_board_attributes_are_read_in_place(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        board grid = square_grid(2, 2)
        var seen: list[int] = []
        var named: list[string] = []
        phase p {
          seen = [s.index for s in spaces(grid) if s.index > 1] + [q.index for q in players if q.index < 1]
          named = [s.name for s in spaces(grid)]
          end game
        }
    ''')
    listing = code(game)
    assert "_order" not in listing and "_no_attribute" not in listing
    data = game.new_initial_state().to_json()["globals"]
    assert data["seen"] == [2, 3, 0] and len(data["named"]) == 4


def test_a_components_field_is_read_in_place_and_one_it_lacks_is_the_rules_error(tmp_path):
    source = '''\
        game "G" { players 1 }
        component card { rank: int }
        component coin { worth: int }
        deck cards: card in pile = [card(rank: r) for r in 1..3]
        deck coins: coin in purse = [coin(worth: 5)]
        zone pile: card visible all
        zone purse: coin visible all
        var ranks: list[int] = []
        phase p {
          ranks = [c.rank for c in pile if c.rank > 1]
          ranks = ranks + [c.rank for c in ZONE]
          end game
        }
    '''
    game = load(tmp_path, source.replace("ZONE", "pile"))
    assert ".record[" in code(game)
    assert game.new_initial_state().to_json()["globals"]["ranks"] == [2, 3, 1, 2, 3]
    (diagnostic,) = failure(load(tmp_path, source.replace("ZONE", "purse"))).diagnostics
    assert (diagnostic.span.line, diagnostic.message) == (11, "a coin has no field 'rank' (in p)")


def test_count_tells_false_and_none_from_zero(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        var counted: list[int] = []
        phase p {
          counted = [count([1, 2, 3]), count([0, 1]), count([false, 0, none, ""]), count(x for x in 1..3 if x > 1)]
          end game
        }
    ''')
    assert game.new_initial_state().to_json()["globals"]["counted"] == [3, 2, 2, 2]


def test_min_and_max_of_proven_integers_are_pythons_and_the_same_as_the_checked_ones(tmp_path):
    """min/max of a generator of proven integers: Python's (none of an empty one), the same
    values as the checked aggregate of the same items where they are not proven."""
    source = '''\
        game "G" { players 1 }
        var found: list[int?] = []
        var items: list[int] = [1, 2, 3]
        phase p {
          found = [max(x * 2 - 5 for x in ITEMS), min(x - 1 for x in ITEMS if x > 1),
                   max(x for x in ITEMS if x > 9), min(x for x in ITEMS if x > 9)]
          end game
        }
    '''
    proven, unproven = (load(tmp_path, source.replace("ITEMS", items)) for items in ("1..3", "items"))
    assert "max(" in code(proven) and "_most(" not in code(proven) and "_most(" in code(unproven)
    values = [game.new_initial_state().to_json()["globals"]["found"] for game in (proven, unproven)]
    assert values[0] == values[1] == [1, 1, None, None]


def _membership_game(tmp_path, rebound: str):
    return load(tmp_path, f'''\
        game "G" {{ players 1 }}
        component card {{ rank: int }}
        zone pile: card
        player zone hand: card
        deck cards: card in pile = [card(rank: 1), card(rank: 2)]
        var found: list[bool] = []
        phase p {{
          let q = players[0]
          {rebound}
          move top(pile) to q.hand
          found = [q in players, 3 in [1, 2], size(q.hand) == 1, top(pile) in q.hand, top(q.hand) in q.hand]
          end game
        }}
    ''')


def test_membership_of_a_short_list_and_a_players_zone_read_in_place(tmp_path):
    game = _membership_game(tmp_path, "")
    listing = code(game)
    assert "in _as_list(st, " not in listing   # q held (compiler/held.py): q.hand a zone,
    assert "<a zone, looked at in place>" in game.generated_code()     # looked at in place (charged as as_list)
    assert game.new_initial_state().to_json()["globals"]["found"] == [True, False, True, False, True]


def test_membership_of_a_players_zone_of_a_local_assigned_again(tmp_path):
    game = _membership_game(tmp_path, "q = players[0]   # (assigned again: read from the environment)")
    listing = code(game)
    assert "in _as_list(st, " in listing   # a zone is still made a list (and charged)
    assert "[env[_k" in listing or "[_held" in listing   # (q read where it is written: held_reads._written_once)
    assert game.new_initial_state().to_json()["globals"]["found"] == [True, False, True, False, True]


def test_top_of_a_zone_is_read_in_place_and_of_a_list_as_before(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        component card { rank: int }
        zone pile: card
        zone empty: card
        deck cards: card in pile = [card(rank: 1), card(rank: 2)]
        var found: list[int?] = []
        phase p {
          found = [top(pile).rank, if top(empty) == none then 0 else 1, top([3, 4])]
          end game
        }
    ''')
    assert re.search(r"\((?:_st_|st\.)zones\[\d+\] or _k\d+\)\[-1\]", code(game)) and "_top(st, " in code(game)
    assert game.new_initial_state().to_json()["globals"]["found"] == [2, 0, 4]
