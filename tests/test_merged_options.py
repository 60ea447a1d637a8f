"""Interchangeable options merged: copies of a component (same type and fields, same component
variables and tokens, same zone) are one option of a choice, the first of them in its list;
``choose ... by position`` keeps them apart. Ids, labels, scenarios, the protocol, saved
states, information-set sampling and action masks see the merged options."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conftest import protocol_labels, rules

import rulelang
from rulelang.cli import main
from rulelang.interpreter.sim.scenarios import run_file

HAND = """
game "Wagers" { players 2 }
component card { name: string }
player zone hand: card
player zone played: card visible all
player deck cards: card in hand = [card(name: "wager"), card(name: "gem"), card(name: "wager")]

phase play {
  for r in 1..3 {
    for p in players {
      choose c in p.hand by p PLACE
      move c to p.played
    }
  }
  end game
}
score p = 0
"""


def load(text: str, place: str = "") -> rulelang.Game:
    return rulelang.load(rules(text).replace(" PLACE", place))


def labels(state: rulelang.State, player: int = 0) -> list[str]:
    return [str(a) for a in state.legal_actions(player)]


def test_two_copies_are_one_option_the_first_in_the_zone():
    game = load(HAND)
    state = game.new_initial_state()
    actions = state.legal_actions(0)
    assert labels(state) == ["wager", "gem"]
    first_wager = game.catalog.components[0]
    assert actions[0].id == game.catalog.encode(first_wager) and actions[0].value is first_wager
    state.apply_action(actions[0])
    assert [c["component"] for c in state.observation(0)["players"][0]["played"]] == [first_wager.id]   # the first
    state.apply_action(state.legal_actions(1)[0])
    assert labels(state) == ["gem", "wager"]   # the other copy: an option of its own now


def test_by_position_keeps_the_copies_apart():
    state = load(HAND, " by position").new_initial_state()
    assert labels(state) == ["wager", "gem", "wager"]
    assert len({a.id for a in state.legal_actions(0)}) == 3


def test_position_is_a_keyword_only_after_by_in_a_choice():
    game = rulelang.load(rules("""
        game "P" { players 2 }
        var position: int = 1
        phase main {
          let best = max(x for x in [1, 2] by position)
          choose n in [1, 2] by players[position] by position prompt "where"
          position = n + best
          choose m in [3] by (players[0])
          end game
        }
    """))
    state = game.new_initial_state()
    assert labels(state, 1) == ["1", "2"]


def test_the_same_choice_and_list_merge_as_the_state_says():
    """A kept decision is never the merged one of another state: the copies drift apart once
    a component variable of one of them changes, with the very same list of options; and a
    decision whose copies were not merged (they differed then) is not kept: when the same list
    comes back with the copies alike again, they are one option again."""
    game = rulelang.load(rules("""
        game "Marks" { players 2 }
        component chip { colour: string }
        zone pile: chip visible all
        component var marked: bool = false
        deck chips: chip in pile = [chip(colour: "red"), chip(colour: "red"), chip(colour: "blue")]
        phase play {
          for r in 1..3 {
            choose c in pile by players[0]
            c.marked = not c.marked
          }
          end game
        }
    """))
    state = game.new_initial_state()
    assert labels(state) == ["red", "blue"]
    state.apply_action(state.legal_actions(0)[0])
    assert labels(state) == ["red", "red", "blue"]   # one red is marked: no longer a copy
    marked = next(a for a in state.legal_actions(0) if str(a) == "red")
    state.apply_action(marked)                        # and unmarked: the two reds alike again
    assert labels(state) == ["red", "blue"]


def test_copies_in_two_zones_stay_two_options():
    game = rulelang.load(rules("""
        game "Two zones" { players 2 }
        component card { name: string }
        zone left: card visible all
        zone right: card visible all
        deck a: card in left = [card(name: "wager")]
        deck b: card in right = [card(name: "wager"), card(name: "wager")]
        phase play {
          choose c in list(left) + list(right) by players[0]
          end game
        }
    """))
    assert labels(game.new_initial_state()) == ["wager", "wager"]


def test_a_simultaneous_choice_merges_copies_too():
    text = """
        game "Secret" { players 2 }
        component card { name: string }
        player zone hand: card
        player deck cards: card in hand = [card(name: "bid"), card(name: "bid"), card(name: "fold")]
        phase play {
          simultaneous p in players choose c in p.hand
          end game
        }
    """
    game = rulelang.load(rules(text))
    state = game.new_initial_state()
    assert labels(state, 0) == ["bid", "fold"] and labels(state, 1) == ["bid", "fold"]
    apart = rulelang.load(rules(text.replace("choose c in p.hand", "choose c in p.hand by position")))
    assert labels(apart.new_initial_state(), 1) == ["bid", "bid", "fold"]


def test_saved_states_and_replays_give_the_same_merged_actions():
    game = load(HAND)
    state = game.new_initial_state(seed=3)
    state.apply_action(state.legal_actions(0)[1])
    restored = game.state_from_json(state.to_json())
    assert labels(restored, 1) == ["wager", "gem"]
    assert [(a.id, str(a)) for a in restored.legal_actions(1)] == [(a.id, str(a)) for a in state.legal_actions(1)]
    replayed = game.new_initial_state(seed=3)
    for _, action in state.history():
        replayed.apply_action(action)
    assert replayed.to_json() == state.to_json()


def test_the_action_mask_has_one_bit_for_the_copies():
    state = load(HAND).new_initial_state()
    mask = state.legal_action_mask(0)
    assert sum(mask) == 2 and [i for i, bit in enumerate(mask) if bit] == sorted(state.legal_action_ids(0))


def test_information_set_samples_merge_the_same_way():
    """Player 1 cannot see player 0's hand; in every sample player 1's own options are the
    merged ones of the truth, and player 0's merged options are distinct by label."""
    game = rulelang.load(rules("""
        game "Hidden" { players 2 }
        component card { name: string }
        zone draw: card visible count
        player zone hand: card
        player zone played: card visible all
        deck cards: card in draw = [card(name: "wager")] * 4 + [card(name: "gem")] * 2 + [card(name: "ace")] * 2
        setup {
          shuffle draw
          for p in players { for r in 1..3 { move top(draw) to p.hand } }
        }
        phase play {
          for r in 1..3 {
            for p in players {
              choose c in p.hand by p
              move c to p.played
            }
          }
          end game
        }
    """))
    state = game.new_initial_state(seed=1)
    state.apply_action(state.legal_actions(0)[0])
    truth = [(a.id, str(a)) for a in state.legal_actions(1)]
    assert len({label for _, label in truth}) == len(truth)
    for seed in range(8):
        sample = state.resample_from_infostate(1, seed)
        assert [(a.id, str(a)) for a in sample.legal_actions(1)] == truth
        sample.apply_action(sample.legal_actions(1)[0])
        theirs = labels(sample, 0)
        assert len(set(theirs)) == len(theirs)


def test_scenarios_and_the_protocol_see_one_option(tmp_path: Path):
    (tmp_path / "wagers.rules").write_text(rules(HAND).replace(" PLACE", ""))
    tests = tmp_path / "wagers.tests"
    tests.write_text(rules("""
        scenario "one wager" {
          expect options p1 "wager", "gem"
          play p1 "wager"
          play p2 "gem"
          expect options p1 "gem", "wager"
        }
    """))
    result = run_file(tests)
    assert not result.problems and not result.failed, (result.problems, result.failed)
    assert protocol_labels(tmp_path, "wagers.rules") == ["wager", "gem"]


def test_the_example_of_the_language_doc_offers_what_it_says():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    start = doc.index('# complete\ngame "Wagers"')
    state = rulelang.load(doc[start:doc.index("```", start)]).new_initial_state()
    assert labels(state, 0) == ["wager", "gem"]
    state.apply_action(state.legal_actions(0)[0])
    state.apply_action(state.legal_actions(1)[0])
    assert labels(state, 0) == ["wager", "wager"]   # by position: each copy in the row


def test_rulelang_play_lists_the_copies_once(tmp_path: Path):
    path = tmp_path / "wagers.rules"
    path.write_text(rules(HAND).replace(" PLACE", ""))
    result = CliRunner().invoke(main, ["play", str(path), "--seed", "1"], input="wager\ngem\nwager\n")
    assert result.exit_code == 0, result.output
    assert "2 options" in result.output and "1.  wager" in result.output and "3.  wager" not in result.output


def test_tokens_on_a_copy_tell_it_apart():
    game = rulelang.load(rules("""
        game "Tokens" { players 2 }
        component chip { colour: string }
        zone pile: chip visible all
        supply gold total 5
        deck chips: chip in pile = [chip(colour: "red"), chip(colour: "red")]
        phase play {
          for r in 1..2 {
            choose c in pile by players[0]
            gain 1 gold to c
          }
          end game
        }
    """))
    state = game.new_initial_state()
    assert labels(state) == ["red"]
    state.apply_action(state.legal_actions(0)[0])
    assert labels(state) == ["red", "red"]   # one holds a token now
