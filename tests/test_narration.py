"""The narrated log (State.narration): a sentence for each event a seat may see, headings
for phases, rounds and turns; the author's 'quiet', 'log ... instead' and 'log heading'."""
from __future__ import annotations

import json

import pytest
from conftest import rules

import rulelang
from rulelang import CHANCE, IllegalActionError, RulesetError, StateDataError
from rulelang.interpreter.hosts.seat_view import SeatData, view_data
from rulelang.interpreter.hosts.terminal_view import render_text
from rulelang.interpreter.sim.scenarios import run_file
from rulelang.interpreter.state.narrate import narrated_text

TABLE = rules('''
    game "Table" { players 2 }
    component card { rank: int } shown as "card {rank}"
    deck cards: card in pile = [card(rank: r) for r in 1..6]
    die d6 = [1, 2, 3, 4, 5, 6]
    zone pile: card visible none
    player zone hand: card visible owner
    player zone played: card visible all
    supply gold total 20 visible all
    supply secrets total 10 visible owner
    var round: int = 0 visible all
    var hidden_total: int = 0 visible none
    player var best: int = 0 visible owner

    setup {
      shuffle pile
      for p in players { move top(pile) to p.hand  move top(pile) to p.hand }
    }
    phase play {
      for r in 1..2 {
        round = r
        log heading "round " + r
        for p in players {
          choose c in p.hand by p prompt "{p}: a card to play"
          move c to p.played
          p.best = c.rank
        }
        let face = roll d6
        hidden_total += face
        let winner = first(p for p in players if top(p.played).rank == max(top(q.played).rank for q in players))
        gain 2 gold to winner
        gain 1 secrets to winner
        pay 1 gold from winner
      }
      end game
    }
    score p = tokens(p, gold)
''')


def played(text: str, players: int = 2, seed: int = 3, events: bool = True) -> rulelang.State:
    """A game of ``text`` played to its end, each player choosing his first option."""
    state = rulelang.load(text, players=players).new_initial_state(seed=seed, events=events)
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(state.legal_actions(player)[0], player=player)
    return state


def lines_of(state: rulelang.State, player: int | None) -> list[str]:
    return narrated_text(state.narration(player))


def test_a_hidden_draw_of_another_seat_never_names_the_card():
    state = played(TABLE)
    dealt = [e for e in state.events() if e["type"] == "move" and e["to"] == "hand/1"]
    labels = [e["component"]["label"] for e in dealt]
    assert len(labels) == 2
    mine, theirs = lines_of(state, 1), lines_of(state, 0)
    assert f"player 2 takes {labels[0]} and {labels[1]} from pile to their hand" in mine   # told together
    for label in labels:
        assert not any(label in line for line in theirs if "hand" in line and "played" not in line)
    assert theirs.count("player 2 takes 2 cards from pile to their hand") == 1
    assert "pile is shuffled" in theirs


def test_a_choice_from_a_hidden_hand_is_worded_without_the_card_until_it_is_played():
    state = played(TABLE)
    card = next(e for e in state.events() if e["type"] == "move" and e["to"] == "played/1")["component"]["label"]
    theirs = lines_of(state, 0)
    assert "player 2 chooses a card from their hand" in theirs
    assert f"player 2 chooses {card}" in lines_of(state, 1)
    assert f"player 2 moves {card} from their hand to their played" in theirs   # the played zone is public


def test_gains_payments_variables_and_rolls_as_each_seat_sees_them():
    state = played(TABLE)
    winner = next(e["to"]["player"] for e in state.events() if e["type"] == "tokens" and e["supply"] == "gold")
    name = f"player {winner + 1}"
    other = 1 - winner
    for seat in (0, 1):
        lines = lines_of(state, seat)
        assert f"{name} gains 2 gold" in lines and f"{name} pays 1 gold" in lines
        assert "round is now 2" in lines
        assert not any(line.startswith("hidden total") for line in lines)   # visible none
        assert "d6 is rolled (not shown)" in lines   # a face is shown only as the rules publish it
    assert f"{name} gains 1 secrets" in lines_of(state, winner)
    assert f"{name} gains some secrets" in lines_of(state, other)
    assert any(line.startswith(f"player {other + 1}'s best is now") for line in lines_of(state, other))
    assert not any(line.startswith(f"player {winner + 1}'s best") for line in lines_of(state, other))
    everything = lines_of(state, None)
    assert any(line.startswith("d6 is rolled: ") for line in everything)
    assert any(line.startswith("hidden total is now") for line in everything)


def test_phases_rounds_and_turns_are_headings():
    lines = played(TABLE).narration(0)
    headings = [(line["heading"], line["text"]) for line in lines if "heading" in line]
    assert headings[:4] == [(1, "phase play"), (2, "round 1"), (3, "player 1's turn"), (3, "player 2's turn")]
    assert (2, "round 2") in headings
    assert "-- round 1 --" in narrated_text(lines) and "== phase play ==" in narrated_text(lines)


def test_the_public_view_sees_what_everyone_sees():
    state = played(TABLE)
    public = lines_of(state, CHANCE)
    assert public.count("player 1 takes 2 cards from pile to their hand") == 1
    assert not any("best" in line for line in public)


QUIET = rules('''
    game "Quiet" { players 2 }
    supply points total 10 visible all
    var dealt: int = 0 visible all
    component card { rank: int } shown as "card {rank}"
    zone pile: card visible all
    player zone hand: card visible all
    deck cards: card in pile = [card(rank: r) for r in 1..6]

    setup {
      quiet {
        for p in players {
          move top(pile) to p.hand
          dealt += 1
        }
      }
      log "the cards are dealt"
    }
    phase main {
      quiet {
        choose c in pile by players[0] prompt "a card"
        move c to players[0].hand
      }
      log "" + players[1] + " scores" instead {
        gain 1 points to players[1]
      }
      end game
    }
    score p = tokens(p, points)
''')


def test_a_quiet_block_is_left_out_of_the_narration_but_not_of_the_events():
    state = played(QUIET)
    lines = lines_of(state, 0)
    assert "the cards are dealt" in lines
    assert not any("takes" in line or "dealt is now" in line or "chooses" in line for line in lines)
    kinds = [e["type"] for e in state.events()]
    assert kinds.count("move") == 3 and "action" in kinds   # still recorded
    assert [e["mark"] for e in state.events() if e["type"] == "narrate"] == ["quiet", "loud"] * 3


def test_log_instead_replaces_the_sentences_of_its_block():
    state = played(QUIET)
    lines = lines_of(state, 1)
    assert lines[-1] == "player 2 scores"
    assert not any("gains" in line for line in lines)
    assert state.observation(0)["log"] == ["the cards are dealt", "player 2 scores"]   # the log keeps the line


def test_narration_marks_cost_nothing_without_events():
    state = played(QUIET, events=False)
    assert state.event_log is None
    assert state.observation(0)["log"] == ["the cards are dealt", "player 2 scores"]
    with pytest.raises(IllegalActionError, match="records no events"):
        state.narration(0)


def test_the_narration_is_the_same_after_saving_and_restoring():
    state = played(QUIET)
    game = state.game
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.narration(0) == state.narration(0)
    data = state.to_json()
    at = next(i for i, e in enumerate(data["events"]) if e[0] == "narrate")
    data["events"][at] = ["narrate", "shout"]
    with pytest.raises(StateDataError, match="mark"):
        game.state_from_json(data)


def test_since_gives_only_the_lines_of_later_events():
    state = played(TABLE)
    everything = state.narration(0)
    later = state.narration(0, since=20)
    assert later == [line for line in everything if line["seq"] >= 20]


LEAVING = [("quiet {\n  for i in 1..2 {\n    break\n  }\n  if n > 1 {\n    break\n  }\n}", "break"),
           ("quiet {\n  next main\n}", "next"),
           ('log "x" instead {\n  continue\n}', "continue")]


@pytest.mark.parametrize("body, word", LEAVING)
def test_leaving_a_quiet_block_half_way_is_an_error(body, word):
    indented = "\n".join("    " + line for line in body.splitlines())
    text = ('game "Exit" { players 1 }\nvar n: int = 0 visible all\nphase main {\n  for r in 1..3 {\n'
            f'{indented}\n  }}\n  end game\n}}\n')
    with pytest.raises(RulesetError) as caught:
        rulelang.load(text)
    (problem,) = caught.value.diagnostics
    assert problem.code == "E204" and problem.message == f"'{word}' leaves a quiet block before its end"


def test_a_return_from_a_procedure_called_in_a_quiet_block_is_fine():
    text = ('game "Call" { players 1 }\nvar n: int = 0 visible all\n'
            'procedure bump() {\n  n += 1\n  return\n}\n'
            'phase main {\n  quiet {\n    call bump()\n  }\n  log "n " + n\n  end game\n}\n')
    assert lines_of(played(text, players=1), 0) == ["== phase main ==", "n 1"]


def test_the_seat_view_and_the_terminal_read_the_narration():
    state = played(TABLE)
    view = view_data(SeatData(state.game), state, 1)
    assert view["narration"] == state.narration(1)
    text = render_text(state.game, state, 1, width=100, log_lines=40)
    assert "player 1 takes 2 cards from pile to their hand" in text
    quiet = played(TABLE, events=False)
    assert view_data(SeatData(quiet.game), quiet, 1)["narration"] is None


def test_a_scenario_reads_the_narrated_log_of_a_player(tmp_path):
    (tmp_path / "table.rules").write_text(TABLE)
    tests = tmp_path / "table.tests"
    tests.write_text('scenario "narrated" {\n'
                     '  play p1 "card 4"\n'
                     '  expect log p2 "player 1 chooses a card from their hand"\n'
                     '  expect log p1 "player 1 chooses card 4"\n'
                     '  expect not log p2 "player 1 chooses card 4"\n'
                     '}\n'
                     'scenario "wrong" {\n'
                     '  expect log p2 "player 1 chooses card 4"\n'
                     '}\n')
    result = run_file(tests)
    assert not result.problems, result.problems
    assert [r.passed for r in result.results] == [True, False]
    failure = result.failed[0].failure
    expected = "no line of the log of p2 (player 2) holds 'player 1 chooses card 4'"
    assert (failure.code, failure.message) == ("E701", expected)


def test_a_bad_player_or_since_is_refused_as_by_events():
    state = played(TABLE)
    with pytest.raises(IllegalActionError, match="since must be an integer"):
        state.narration(0, since="3")
    with pytest.raises(IllegalActionError):
        state.narration(7)


def test_a_long_value_is_cut_in_its_sentence():
    text = ('game "Long" { players 1 }\nvar items: list[int] = [] visible all\n'
            'phase main {\n  items = [n for n in 1..100]\n  end game\n}\n')
    (line,) = [t for t in lines_of(played(text, players=1), 0) if t.startswith("items")]
    assert line.startswith("items is now [1, 2, 3") and line.endswith(" ...]") and len(line) < 80


def test_a_heading_for_other_players_leaves_the_next_line_as_it_is():
    text = ('game "Aside" { players 2 }\nphase main {\n  log heading "only for player 2" to players[1]\n'
            '  log "for everyone"\n  end game\n}\n')
    state = played(text)
    assert [line.get("heading") for line in state.narration(0)] == [1, None]
    assert [(line.get("heading"), line["text"]) for line in state.narration(1)][1:] == [
        (2, "only for player 2"), (None, "for everyone")]


def test_a_game_narrated_is_not_kept_alive_by_the_narration():
    import gc
    import weakref

    state = played(TABLE)
    assert state.narration(0)
    catalog = weakref.ref(state.game.catalog)
    del state
    gc.collect()
    assert catalog() is None
