"""Consecutive moves between the same two zones are one line of the narrated log: a count
of the components a seat may not see, the labels of those it sees; a choice of a card from
the chooser's own hidden zone says "their"."""
from __future__ import annotations

from conftest import rules

import rulelang
from rulelang.interpreter.state.narrate import narrated_text
from rulelang.interpreter.state.narrate_moves import TIMES, joined, plural

DEAL = rules('''
    game "Deal" { players 2 }
    component card { rank: int } shown as "card {rank}"
    component token { worth: int } shown as "coin"
    deck cards: card in pile = [card(rank: r) for r in 1..8]
    deck coins: token in bag = [token(worth: 1) for i in 1..4]
    zone pile: card visible none
    zone shown_cards: card visible all
    zone bag: token visible all
    player zone hand: card visible owner
    player zone purse: token visible all
    var dealt: int = 0 visible all

    setup {
      move top(pile, 3) to players[0].hand
      move top(pile, 2) to shown_cards
      move top(bag) to players[1].purse
      move top(bag) to players[1].purse
      move top(bag) to players[1].purse
      dealt = 1
      move top(pile) to players[0].hand
    }
    phase main {
      choose c in players[0].hand by players[0] prompt "a card"
      end game
    }
    score p = 0
''')


def lines(seat: int | None) -> list[str]:
    state = rulelang.load(DEAL, players=2).new_initial_state(events=True)
    return narrated_text(state.narration(seat))


def test_moves_between_the_same_zones_are_one_line_with_a_count_for_the_unseen():
    theirs = lines(1)
    assert theirs[0] == "player 1 takes 3 cards from pile to their hand"
    mine = lines(0)
    assert mine[0].startswith("player 1 takes card ") and mine[0].count(",") == 1 and " and card " in mine[0]


def test_a_line_between_two_moves_keeps_them_apart():
    theirs = lines(1)
    assert theirs[3:5] == ["dealt is now 1", "player 1 takes a card from pile to their hand"]


def test_moves_of_nobody_are_plural_and_copies_of_one_label_are_counted():
    seen = lines(1)
    assert seen[1].endswith(" move from pile to shown cards") and " and card " in seen[1]
    assert seen[2] == f"player 2 takes 3 {TIMES} coin from bag to their purse"


def test_a_choice_from_the_choosers_own_hidden_zone_says_their():
    state = rulelang.load(DEAL, players=2).new_initial_state(events=True)
    state.apply_action(state.legal_actions(0)[0], player=0)
    assert "player 1 chooses a card from their hand" in narrated_text(state.narration(1))


def test_since_starts_a_new_line_at_its_event():
    state = rulelang.load(DEAL, players=2).new_initial_state(events=True)
    first_coin = next(e["seq"] for e in state.events() if e["type"] == "move" and e["to"] == "purse/1")
    later = narrated_text(state.narration(1, since=first_coin + 1))
    assert later[0] == f"player 2 takes 2 {TIMES} coin from bag to their purse"


def test_plurals_and_lists_in_words():
    assert [plural(n) for n in ("card", "box", "treasury", "day", "match")] == \
        ["cards", "boxes", "treasuries", "days", "matches"]
    assert [joined(["a"]), joined(["a", "b"]), joined(["a", "b", "c"])] == ["a", "a and b", "a, b and c"]


def test_a_random_pick_is_told_without_the_rules_local_name():
    text = rules('''
        game "Pick" { players 2 }
        var first: player = players[0] visible all
        setup {
          let chosen = random players
          first = chosen
        }
        phase main { end game }
        score p = 0
    ''')
    state = rulelang.load(text, players=2).new_initial_state(events=True)
    told = narrated_text(state.narration(0))
    assert told[0] == "a random pick from players (not shown)"
    assert not any("chosen" in line for line in told)
    assert narrated_text(state.narration(None))[0].startswith("a random pick from players: player ")


DICE = rules('''
    game "Dice" { players 2 }
    die d6 = [1, 2, 3, 4, 5, 6]
    var total: int = 0 visible all
    setup {
      let a = roll d6
      let b = roll d6
      total = a + b
      let c = roll d6
      total += c
    }
    phase main { end game }
    score p = 0
''')


def test_consecutive_rolls_of_one_die_are_one_line():
    state = rulelang.load(DICE, players=2).new_initial_state(seed=2, events=True)
    told = narrated_text(state.narration(0))
    assert told[0] == "d6 is rolled twice (not shown)" and told[1].startswith("total is now ")
    assert told[2] == "d6 is rolled (not shown)"   # a line between: a roll of its own
    faces = [e["label"] for e in state.events() if e["type"] == "chance"]
    assert narrated_text(state.narration(None))[0] == f"d6 is rolled twice: {faces[0]} and {faces[1]}"
