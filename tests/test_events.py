"""The event log (State.events): what happened inside one apply_action, as each player may see it."""
from __future__ import annotations

import json
import random

import pytest
from conftest import game_cases, rules

import rulelang
from rulelang import CHANCE, IllegalActionError, StateDataError

ROUND = rules('''
    game "Rounds" { players 2 }
    component card { rank: int } shown as "card {rank}"
    deck cards: card in pile = [card(rank: r) for r in 1..6]
    zone pile: card visible none
    player zone hand: card visible owner
    zone table: card visible all
    zone box: card visible none
    supply gold total 20 visible all
    supply secrets total 10 visible owner
    var round: int = 0
    player var wins: int = 0 visible owner

    setup {
      shuffle pile
      for p in players { move top(pile) to p.hand  move top(pile) to p.hand }
    }
    phase play {
      round += 1
      for p in players {
        choose c in p.hand by p prompt "{p}: a card to play"
        move c to table
      }
      next scoring
    }
    phase scoring {
      let best = best(c for c in table by c.rank)
      let winner = first(p for p in players if p.index == 0)
      if best.rank % 2 == 0 { winner = players[1] }
      winner.wins += 1
      gain 3 gold to winner
      gain 1 secrets to winner
      log "round " + round + ": " + winner + " scores"
      move table to box
      if round < 2 { next play }
      end game
    }
    score p = p.gold
''')


@pytest.fixture(scope="module")
def rounds():
    return rulelang.load(ROUND)


def test_events_inside_one_action_score_a_round(rounds):
    state = rounds.new_initial_state(seed=1, events=True)
    state.apply_action(state.legal_actions()[0])
    mark = state.event_count()
    last = state.legal_actions()[0]
    state.apply_action(last)                      # the second card of round 1: the round is scored
    events = state.events(since=mark)
    assert [e["seq"] for e in events] == list(range(mark, state.event_count()))
    kinds = [e["type"] for e in events]
    assert kinds[:3] == ["action", "move", "phase"]
    assert events[0] == {"seq": mark, "type": "action", "player": 1, "id": last.id, "label": last.label}
    assert events[2]["name"] == "scoring"
    winner = next(e["player"] for e in events if e["type"] == "set" and e["var"] == "wins")
    gold = next(e for e in events if e["type"] == "tokens" and e["supply"] == "gold")
    assert gold == {"seq": gold["seq"], "type": "tokens", "supply": "gold", "from": "bank", "to": {"player": winner},
                    "amount": 3}
    assert {"type": "log", "text": f"round 1: player {winner + 1} scores"}.items() <= \
        next(e for e in events if e["type"] == "log").items()
    assert [e["from"] for e in events if e["type"] == "move"][1:] == ["table", "table"]   # into the box
    assert kinds[-2:] == ["phase", "set"] and events[-2]["name"] == "play"                # round 2 starts
    json.dumps(events)


def test_a_hidden_card_moving_shows_no_label_to_others(rounds):
    state = rounds.new_initial_state(seed=2, events=True)
    deal = [e for e in state.events() if e["type"] == "move"]
    assert len(deal) == 4 and all("component" in e for e in deal)
    for viewer in (0, 1):
        seen = [e for e in state.events(viewer) if e["type"] == "move"]
        assert [e["to"] for e in seen] == ["hand/0", "hand/0", "hand/1", "hand/1"]
        assert ["component" in e for e in seen] == [e["to"] == f"hand/{viewer}" for e in seen]
    assert all("component" not in e for e in state.events(CHANCE) if e["type"] == "move")
    # A played card lands on the table, which everyone sees: its move shows to all.
    state.apply_action(state.legal_actions()[0])
    played = state.events(1)[-1]
    assert played["type"] == "move" and played["to"] == "table" and "component" in played


def test_choices_and_tokens_follow_the_declared_visibility(rounds):
    state = rounds.new_initial_state(seed=3, events=True)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    secrets = [e for e in state.events() if e["type"] == "tokens" and e["supply"] == "secrets"]
    assert secrets
    for event in secrets:
        owner = event["to"]["player"]
        mine = next(e for e in state.events(owner) if e["seq"] == event["seq"])
        theirs = next(e for e in state.events(1 - owner) if e["seq"] == event["seq"])
        assert mine["amount"] == 1 and "amount" not in theirs
    wins = [e for e in state.events() if e["type"] == "set" and e["var"] == "wins"]
    for event in wins:              # a 'visible owner' variable: its owner alone sees it change
        assert event["seq"] in {e["seq"] for e in state.events(event["player"])}
        assert event["seq"] not in {e["seq"] for e in state.events(1 - event["player"])}
    # A card chosen from a hand the others do not see: they see who chose, not what.
    choice = next(e for e in state.events() if e["type"] == "action")
    other = next(e for e in state.events(1 - choice["player"]) if e["seq"] == choice["seq"])
    assert other == {"seq": choice["seq"], "type": "action", "player": choice["player"]}


def test_private_lines_and_simultaneous_picks_stay_private():
    game = rulelang.load(rules('''
        game "Secret" { players 3 }
        die d6 = [1, 2, 3, 4, 5, 6]
        var total: int = 0 visible none
        phase p {
          let face = roll d6
          log "you rolled " + face to players[0]
          reveal face to [players[0], players[2]]
          simultaneous q in players choose n in 1..2
          total = n[players[0]]
          end game
        }
    '''))
    state = game.new_initial_state(seed=4, events=True)
    for player in (2, 1, 0):
        state.apply_action(state.legal_actions(player)[1], player=player)
    everything = state.events()
    assert [e["type"] for e in everything] == ["phase", "chance", "log", "log", "action", "action", "action", "set"]
    assert everything[1]["asks"] == "roll d6" and "label" in everything[1]
    assert everything[2]["to"] == [0] and everything[3]["to"] == [0, 2]
    for viewer, lines in ((0, 2), (1, 0), (2, 1)):
        view = state.events(viewer)
        assert "label" not in view[1]                       # a roll is the rules' to publish
        assert len([e for e in view if e["type"] == "log"]) == lines
        picks = [e for e in view if e["type"] == "action"]
        assert [("id" in e) for e in picks] == [e["player"] == viewer for e in picks]
        assert all(e["type"] != "set" for e in view)        # 'visible none'


def test_events_survive_to_json_and_state_from_json(rounds):
    state = rounds.new_initial_state(seed=5, events=True)
    state.apply_action(state.legal_actions()[1])
    data = state.to_json()
    assert len(data["events"]) == state.event_count()
    loaded = rounds.state_from_json(json.loads(json.dumps(data)))
    assert loaded.to_json() == data
    for viewer in (None, 0, 1, CHANCE):
        assert loaded.events(viewer) == state.events(viewer)
    loaded.apply_action(loaded.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert loaded.events() == state.events()


@pytest.mark.parametrize("path,players", game_cases())
def test_every_ruleset_saves_and_reads_its_events(path, players):
    game = rulelang.load(path, players=players)
    state = game.new_initial_state(seed=11, events=True)
    chooser = random.Random(11)
    for _ in range(60):
        if state.is_terminal():
            break
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_action_ids(player)), player=player)
    data = json.loads(json.dumps(state.to_json()))
    loaded = game.state_from_json(data)
    assert loaded.to_json() == data
    for viewer in (None, *range(players)):
        assert loaded.events(viewer) == state.events(viewer)
        json.dumps(state.events(viewer))


def test_recording_is_opt_in(rounds):
    assert rounds.new_initial_state(seed=6).event_count() == 0
    state = rounds.new_initial_state(seed=6, events=False)
    assert state.event_count() == 0
    with pytest.raises(IllegalActionError, match="records no events"):
        state.events()
    data = state.to_json()
    assert "events" not in data
    loaded = rounds.state_from_json(data)
    assert loaded.event_count() == 0 and "events" not in loaded.to_json()
    recorded = rounds.new_initial_state(seed=6, events=True)
    assert {k: v for k, v in recorded.to_json().items() if k != "events"} == data   # the same game


def test_since_counts_from_the_event_numbers_and_checks_its_arguments(rounds):
    state = rounds.new_initial_state(seed=7, events=True)
    everything = state.events()
    assert state.events(since=2) == everything[2:]
    assert state.events(since=state.event_count()) == []
    with pytest.raises(IllegalActionError):
        state.events(since="2")
    with pytest.raises(IllegalActionError):
        state.events(5)


def test_a_clone_records_on_its_own_and_a_failed_action_leaves_the_events(rounds):
    state = rounds.new_initial_state(seed=8, events=True)
    before = state.events()
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert state.events() == before and len(copy.events()) > len(before)
    broken = rulelang.load(rules('''
        game "Broken" { players 1 }
        var n: int = 0
        phase p {
          choose k in 0..1 by players[0]
          log "chose " + k
          n = 10 / k
        }
    '''))
    state = broken.new_initial_state(events=True)
    before = state.events()
    with pytest.raises(rulelang.RulesRuntimeError):
        state.apply_action(state.legal_actions()[0])
    assert state.events() == before


@pytest.mark.parametrize("events,path", [
    ([["move", 99, 0, 1]], "$.events[0][1]"),
    ([["move", 0, 0]], "$.events[0]"),
    ([["set", "global", "nothing", -1, 1, -1]], "$.events[0][2]"),
    ([["action", 7, 1, -1]], "$.events[0][1]"),
    ([["tokens", "gold", 0, 1, -3, -1, -1]], "$.events[0][4]"),
    ([["teleport"]], "$.events[0][0]"),
])
def test_saved_events_that_do_not_fit_are_refused(rounds, events, path):
    data = rounds.new_initial_state(seed=9, events=True).to_json()
    data["events"] = events
    with pytest.raises(StateDataError) as error:
        rounds.state_from_json(data)
    assert path in str(error.value)


def test_a_resampled_state_carries_only_what_its_player_saw(rounds):
    state = rounds.new_initial_state(seed=10, events=True)
    sample = state.resample_from_infostate(0, seed=1)
    assert sample.events(0) == state.events(0)
    hidden = [e for e in sample.events() if e["type"] == "move" and e["to"] == "hand/1"]
    assert hidden and all("component" not in e for e in hidden)


def test_a_line_for_some_players_is_saved_as_json_data():
    game = rulelang.load(rules('''
        game "Told" { players 2 }
        setup { log "for the first player" to [players[0]] }
        phase main { end game }
        score p = 0
    '''), players=2)
    state = game.new_initial_state(events=True)
    data = state.to_json()
    assert ["log", "for the first player", [0]] in data["events"]
    assert game.state_from_json(json.loads(json.dumps(data))).to_json() == data
