"""Work the engine does once instead of again (issue 12): each saving keeps what a host sees.

A simultaneous choice computes each player's options once; a log line's text is built when
the log is read; initial values, board queries with constant arguments and the setup up to
its first draw or decision are computed once per game.
"""
from __future__ import annotations

import pytest
from conftest import rules

import rulelang
from rulelang import RulesRuntimeError
from rulelang.interpreter.model.program import LogTemplate
from rulelang.interpreter.tables import effects


def load(text, players=None):
    return rulelang.load(rules(text), players=players)


def unbuilt(line):
    """Whether ``line`` of a state's lists of lines is kept unbuilt: a plain tuple, its
    template then its values (``program.LogLine``)."""
    return type(line) is tuple and type(line[0]) is LogTemplate


SIMULTANEOUS = """
game "S" { players 3 }
var picks: list[int] = []
phase main {
  simultaneous p in players choose bid in [player_number(p) * 10 + k for k in 1..3]
  picks = [bid[p] for p in players]
  end game
}
"""


def test_a_simultaneous_choice_keeps_the_options_of_the_players_still_to_choose():
    state = load(SIMULTANEOUS).new_initial_state()
    before = {p: state.pending.options_of(p) for p in (0, 1, 2)}
    state.apply_action(state.legal_actions(1)[2], player=1)
    assert state.current_players() == [0, 2]
    assert state.observation(0)["already_chosen"] == [1]
    assert all(state.pending.options_of(p) is before[p] for p in (0, 2))
    # a saved state between picks computes them again, the same
    loaded = state.game.state_from_json(state.to_json())
    assert [str(a) for a in loaded.legal_actions(2)] == ["31", "32", "33"]
    state.apply_action(state.legal_actions(2)[0], player=2)
    state.apply_action(state.legal_actions(0)[1], player=0)
    assert state.to_json()["globals"]["picks"] == [12, 23, 31]


LOGS = """
game "L" { players 2 }
enum colour { red, blue }
var n: int = 7
phase main {
  log "n is " + n + ", " + red + ", " + players[1] + ", " + [n, true, none]
  log [n, n]
  log "only for " + players[0] to players[0]
  log "plain"
  end game
}
"""


def test_log_lines_are_built_when_read():
    game = load(LOGS)
    state = game.new_initial_state()
    assert unbuilt(state.log_lines[0]) and unbuilt(state.private_lines[0][2])
    expected = ["n is 7, red, player 2, [7, true, none]", "[7, 7]", "plain"]
    copy = state.clone()
    assert state.log == expected and state.log_lines == expected
    assert state.private_log == [(2, (0,), "only for player 1")]
    assert copy.to_json() == state.to_json()
    recorded = game.new_initial_state(events=True)  # events hold the text: built at once
    assert recorded.log_lines == expected
    assert [e["text"] for e in recorded.events() if e["type"] == "log"] == [*expected[:2], "only for player 1",
                                                                           "plain"]


NAMED = """
game "N" { players 2 }
enum colour { red, blue }
component card { rank: int } shown as "card {rank}"
zone pile: card visible all
deck cards: card in pile = [card(rank: r) for r in 1..3]
var n: int = 7
var s: string = "abc"
phase main {
  log "" + players[1] + " shows " + top(pile) + " in " + pile + ": " + blue + " " + true + " " + none
  log "n is " + n + s + " and " + s
  log "" + players[0] + " sees " + red to players[0]
  end game
}
"""


def test_a_line_of_names_numbers_and_short_texts_is_kept_as_its_template_and_values():
    state = load(NAMED).new_initial_state()
    assert all(unbuilt(line) for line in [*state.log_lines, state.private_lines[0][2]])
    assert state.log == ["player 2 shows card 3 in pile: blue true none", "n is 7abc and abc"]
    assert state.private_log == [(2, (0,), "player 1 sees red")]


def test_a_line_that_may_be_long_is_built_as_the_joins_would_build_it():
    game = load(NAMED)
    state = game.new_initial_state()
    template = effects.log_template(game.catalog, "n is ", [None, " and ", None])
    effects.say(state, template, (10**30, "x" * 600))  # a number beyond the bounds, a long text
    effects.say(state, template, (7, "x" * 400))  # short enough: kept
    assert type(state.log_lines[-2]) is str and unbuilt(state.log_lines[-1])
    assert state.log[-2:] == ["n is " + "1" + "0" * 30 + " and " + "x" * 600, "n is 7 and " + "x" * 400]
    wide = load(NAMED.replace('shown as "card {rank}"', 'shown as "card {rank} ' + "y" * 600 + '"'))
    line = wide.new_initial_state().log_lines[0]
    assert type(line) is str and line == "player 2 shows card 3 " + "y" * 600 + " in pile: blue true none"


def test_a_line_with_a_list_of_names_is_kept_while_the_list_is_certainly_short():
    game = load(NAMED)
    state = game.new_initial_state()
    template = effects.log_template(game.catalog, "the line is ", [None, " after ", None])
    seats = tuple(state.game.catalog.players)
    effects.say(state, template, (seats, 3))  # (every item a name: kept as the template and its values)
    effects.say(state, template, ((*seats, 5), 3))  # (a number in the list: joined as '+' joins)
    effects.say(state, template, (seats * 30, 3))  # (a list too long to count short: joined)
    assert state.log_lines[-3][0] is template
    assert state.log_lines[-2][0] is not template and state.log_lines[-1][0] is not template
    assert state.log[-3:] == ["the line is [player 1, player 2] after 3", "the line is [player 1, player 2, 5] after 3",
                              "the line is [" + ", ".join(["player 1, player 2"] * 30) + "] after 3"]


def test_a_log_line_too_long_still_fails_at_its_statement():
    text = 'game "L" { players 1 }\nvar s: string = "abcdefghij" * 100000\nphase main { log "x" + s + s }'
    with pytest.raises(RulesRuntimeError) as caught:
        load(text).new_initial_state()
    assert caught.value.diagnostics[0].code == "E602"
    assert caught.value.diagnostics[0].span.line == 3


BOARD = """
game "B" { players 1  max_steps 15000 }
board grid = square_grid(10, 10)
var found: int = 0
phase main {
  found = size(lines(grid, 100))
  found = size(lines(grid, 100))
  end game
}
"""


def test_a_board_query_computed_once_is_charged_each_time():
    assert load(BOARD.replace("max_steps 15000", "max_steps 25000")).new_initial_state().is_terminal()
    with pytest.raises(RulesRuntimeError) as caught:  # 10000 items of work each time
        load(BOARD).new_initial_state()
    assert caught.value.diagnostics[0].code == "E603"
    second = [n for n, line in enumerate(rules(BOARD).splitlines(), 1) if "found = size" in line][1]
    assert caught.value.diagnostics[0].span.line == second


SETUP = """
game "U" { players 2 }
component card { rank: int } shown as "card {rank}"
zone pile: card visible all
player var got: list[int] = []
var ranks: list[int] = [r * r for r in 1..6]
deck cards: card in pile = [card(rank: r) for r in 1..6]
setup {
  log "ready"
  shuffle pile
}
phase main {
  choose c in pile by players[0]
  players[0].got = players[0].got + [c.rank]
  end game
}
"""


def test_new_games_share_nothing_that_changes():
    game = load(SETUP)
    first, second = game.new_initial_state(seed=1), game.new_initial_state(seed=2)
    first.apply_action(first.legal_actions(0)[0], player=0)
    assert second.to_json()["player_vars"]["got"] == [[], []] and second.log == ["ready"]
    assert game.new_initial_state(seed=1).to_json() == game.new_initial_state(seed=1).to_json()
    orders = {tuple(str(a) for a in game.new_initial_state(seed=s).legal_actions(0)) for s in range(6)}
    assert len(orders) > 1  # the seed still decides the shuffle
    assert game.new_initial_state(seed=3, explicit_chance=True).is_chance_node()


ROUNDS = """
game "R" { players 2 }
var n: int = 0
phase main {
  repeat {
    n += 1
    log "round " + n
    log "" + players[0] + " sees round " + n to players[0]
    choose k in [1, 2] by players[0]
    if n == 3 { end game }
  }
}
"""


def test_reading_the_log_builds_only_the_lines_not_read_before():
    state = load(ROUNDS).new_initial_state()
    assert state.log == ["round 1"] and state.log_built == 1
    copy = state.clone()
    state.apply_action(state.legal_actions(0)[0], player=0)
    assert unbuilt(state.log_lines[1]) and state.log_built == 1
    assert state.log == ["round 1", "round 2"] and state.log_built == 2
    assert state.observation(0)["log"] == ["round 1", "player 1 sees round 1", "round 2", "player 1 sees round 2"]
    assert state.observation(1)["log"] == ["round 1", "round 2"]
    copy.apply_action(copy.legal_actions(0)[1], player=0)
    assert copy.log == ["round 1", "round 2"] and copy.private_log[1] == (2, (0,), "player 1 sees round 2")
    loaded = state.game.state_from_json(state.to_json())
    assert loaded.log == state.log and loaded.private_log == state.private_log


WORDS = """
game "W" { players 2 }
var picked: list[string] = []
var n: int = 0
phase main {
  for i in 1..3 {
    choose w in ["pass", "play"] + (if n > 0 then ["take"] else []) by players[n % 2]
    picked = picked + [w]
    n += 1
  }
  choose w in ["pl" + "ay", "pass"] by players[0]
  choose w in ["nowhere" + "!"] by players[0]
  end game
}
"""


def test_a_choice_of_the_rulesets_strings_offered_again_is_the_decision_kept_with_the_same_ids():
    game = load(WORDS)
    state = game.new_initial_state()
    labels = game.catalog
    first = [(a.id, str(a)) for a in state.legal_actions(0)]
    assert first == [(labels.label_id("pass"), "pass"), (labels.label_id("play"), "play")]
    assert state.pending.shared   # kept from the first offer: the catalog keeps the ids of the ruleset's strings
    state.apply_action(state.legal_actions(0)[1], player=0)
    assert [(a.id, str(a)) for a in state.legal_actions(1)] == [*first, (labels.label_id("take"), "take")]
    state.apply_action(state.legal_actions(1)[0], player=1)
    assert not state.pending.shared   # the same list for the other player: a decision of its own, the same ids
    assert [(a.id, str(a)) for a in state.legal_actions(0)] == [*first, (labels.label_id("take"), "take")]
    state.apply_action(state.legal_actions(0)[2], player=0)
    assert state.to_json()["globals"]["picked"] == ["play", "pass", "take"]
    # a string joined while the game runs is a label too; one that is none is not an option
    assert [a.id for a in state.legal_actions(0)] == [labels.label_id("play"), labels.label_id("pass")]
    with pytest.raises(RulesRuntimeError) as caught:
        state.apply_action(state.legal_actions(0)[0], player=0)
    assert "the string 'nowhere!' cannot be an option of a choice" in caught.value.diagnostic.message
