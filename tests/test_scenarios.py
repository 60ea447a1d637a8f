"""Scenario test files (NAME.tests) and `rulelang test`: the shipped scenarios pass, and a
scenario that is wrong fails with its place, the expected and the actual values."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import GAMES_DIR, ROOT

import rulelang
from rulelang.cli import main
from rulelang.interpreter.sim.scenarios import find_test_files, run_file, summary

SEED_GAMES = ("jamaica", "jolly_roger", "asterix", "tobago")

COUNTER = """
game "Counter" { players 2 }
player var points: int = 0
supply coins total 10
invariant "few points" = all(p.points < 100 for p in players)
phase play {
  repeat {
    for p in players {
      choose by p prompt "{p}: add or stop?" {
        option "add one" { p.points += 1  log "added" }
        option "add two" when p.points > 0 { p.points += 2 }
        option "stop" { end game }
      }
    }
  }
}
score p = p.points
"""


def write(folder: Path, tests: str, rules: str = COUNTER, name: str = "counter") -> Path:
    (folder / f"{name}.rules").write_text(rules)
    path = folder / f"{name}.tests"
    path.write_text(tests)
    return path


def only_failure(path: Path):
    result = run_file(path)
    assert not result.problems, result.problems
    (failed,) = result.failed
    return failed.failure


# ---------------------------------------------------------------- the shipped scenarios

def test_every_shipped_test_file_passes():
    results = [run_file(path) for path in find_test_files([GAMES_DIR])]
    problems = [str(d) for r in results for d in r.problems] + [
        f"{f.name}: {f.failure}" for r in results for f in r.failed]
    assert problems == []
    by_game = {Path(r.path).stem: len(r.results) for r in results}
    assert sum(by_game.values()) >= 80, summary(results)
    for game in SEED_GAMES:   # a variant's file counts for its base game
        count = sum(n for stem, n in by_game.items() if stem.startswith(game))
        assert count >= 20, (game, count)


def test_each_seed_game_scenario_names_the_rule_clause_it_checks():
    for game in SEED_GAMES:
        for path in GAMES_DIR.glob(f"{game}*.tests"):
            for name in re.findall(r'^\s*scenario "([^"]*)"', path.read_text(), re.M):
                assert len(name.split()) >= 4, (path.name, name)   # a clause, not a bare tag


def test_the_documented_example_passes(tmp_path):
    doc = (ROOT / "docs" / "scenarios.md").read_text()
    (block,) = re.findall(r"```text\n# complete\n(.*?)```", doc, re.S)
    shutil.copy(GAMES_DIR / "kuhn_poker.rules", tmp_path / "kuhn_poker.rules")
    (tmp_path / "kuhn_poker.tests").write_text(block)
    result = run_file(tmp_path / "kuhn_poker.tests")
    assert [r.passed for r in result.results] == [True]


# ---------------------------------------------------------------- failures say where and why

def test_a_failed_comparison_gives_both_values_at_the_expression(tmp_path):
    path = write(tmp_path, 'scenario "adding" {\n  play p1 "add one"\n  expect p1.points == p2.points + 5\n}\n')
    failure = only_failure(path)
    assert failure.code == "E701"
    assert (failure.span.line, failure.span.column) == (3, 10)
    assert failure.message == "expected p1.points == p2.points + 5, but p1.points is 1 and p2.points + 5 is 5"


def test_an_action_not_offered_lists_the_offered_ones(tmp_path):
    path = write(tmp_path, 'scenario "two first" {\n  play p1 "add two"\n}\n')
    failure = only_failure(path)
    assert (failure.code, failure.span.line) == ("E702", 2)
    assert failure.message == "p1 (player 1) is not offered 'add two'"
    assert failure.notes == ("offered: 'add one', 'stop'",)


def test_a_player_not_to_act_is_named(tmp_path):
    path = write(tmp_path, 'scenario "out of turn" {\n  play p2 "add one"\n}\n')
    assert only_failure(path).message == "p2 (player 2) is not to act; to act: p1 (player 1)"


def test_offered_prompt_options_and_log_expectations(tmp_path):
    passing = ('scenario "all pass" {\n'
               '  expect prompt p1 "player 1: add or stop?"\n'
               '  expect options p1 "add one", "stop"\n'
               '  play p1 "add one" prompt "player 1: add or stop?"\n'
               '  expect log "added"\n'
               '  expect not log "removed"\n'
               '  expect scores == [1, 0]\n'
               '  expect offered p2 "add one"\n'
               '  expect not offered p2 "add two"\n'
               '  play p2 "add one"\n'
               '  expect offered p1 "add two"\n'
               '  expect to_act == [p1]\n'
               '}\n')
    result = run_file(write(tmp_path, passing))
    assert [r.passed for r in result.results] == [True]
    for step, message in [('expect options p1 "stop"', "p1 (player 1) is offered ['add one', 'stop'], not ['stop']"),
                          ('expect offered p1 "add two"', "p1 (player 1) is not offered 'add two'"),
                          ('expect not offered "stop"', "p1 (player 1) is offered 'stop'"),
                          ('expect prompt "go?"', "p1 (player 1) is asked 'player 1: add or stop?', not 'go?'"),
                          ('expect log "never"', "no line of the log holds 'never'"),
                          ('expect scores == [1, 0]', "expected scores == [1, 0], but scores is [0, 0]")]:
        failure = only_failure(write(tmp_path, f'scenario "x" {{\n  {step}\n}}\n'))
        assert (failure.code, failure.message) == ("E701", message)


def test_given_changes_the_state_and_must_keep_the_invariants(tmp_path):
    passing = 'scenario "given" {\n  given { p2.points = 7 }\n  play p1 "stop"\n  expect winners == [p2]\n}\n'
    assert run_file(write(tmp_path, passing)).results[0].passed
    failure = only_failure(write(tmp_path, 'scenario "too many" {\n  given { p1.points = 500 }\n}\n'))
    assert failure.code == "E702" and "'few points' does not hold" in failure.message


def test_an_unknown_name_is_reported_in_the_test_file_and_other_scenarios_run(tmp_path):
    path = write(tmp_path, 'scenario "typo" {\n  expect p1.pionts == 0\n}\n'
                           'scenario "fine" {\n  expect p1.points == 0\n}\n')
    result = run_file(path)
    assert [(r.name, r.passed) for r in result.results] == [("typo", False), ("fine", True)]
    failure = result.results[0].failure
    assert failure is not None and failure.span is not None
    assert failure.span.file == str(path) and failure.span.line == 2


def test_a_syntax_error_is_a_file_problem_with_its_place(tmp_path):
    result = run_file(write(tmp_path, 'scenario "x" {\n  expcet over\n}\n'))
    (problem,) = result.problems
    assert problem.code == "E002" and problem.span is not None and problem.span.line == 2


def test_a_variant_reuses_its_base_scenarios_except_the_named_ones(tmp_path):
    write(tmp_path, 'scenario "one point" {\n  play p1 "add one"\n  expect p1.points == 1\n}\n'
                    'scenario "stop ends" {\n  play p1 "stop"\n  expect over\n}\n')
    variant = COUNTER.replace('p.points += 1  log "added"', 'p.points += 3')
    path = write(tmp_path, 'use "counter.tests" except "one point"\n'
                           'scenario "three points" {\n  play p1 "add one"\n  expect p1.points == 3\n}\n',
                 rules=variant, name="triple")
    result = run_file(path)
    assert sorted((r.name, r.passed) for r in result.results) == [("stop ends", True), ("three points", True)]
    only = write(tmp_path, 'use "counter.tests" only "one point"\n', rules=variant, name="only")
    assert [(r.name, r.passed) for r in run_file(only).results] == [("one point", False)]
    unknown = write(tmp_path, 'use "counter.tests" except "two points"\n', rules=variant, name="unknown")
    assert [d.message for d in run_file(unknown).problems] == ["counter.tests has no scenario named 'two points'"]


def test_a_reused_scenario_keeps_the_player_count_of_its_own_file(tmp_path):
    many = COUNTER.replace("players 2", "players 2..4")
    write(tmp_path, 'players 3\nscenario "the third adds" {\n  play p1 "add one"\n  play p2 "add one"\n'
                    '  play p3 "add one"\n  expect p3.points == 1\n}\n', rules=many)
    path = write(tmp_path, 'use "counter.tests"\nscenario "two of them" {\n  expect size(players) == 2\n}\n',
                 rules=many, name="pair")   # (this file's count: the game's lowest, 2)
    results = {r.name: (r.passed, r.players) for r in run_file(path).results}
    assert results == {"the third adds": (True, 3), "two of them": (True, 2)}
    duel = write(tmp_path, 'use "counter.tests"\n', name="duel")   # (a ruleset of 2 players only: this file's count)
    assert [(r.name, r.players) for r in run_file(duel).results] == [("the third adds", 2)]


BROKEN_SECOND = """players 2
scenario "good one" {
  play p1 "add one"   # a comment with scenario "x" { in it
  expect p1.points == 1
}
scenario "broken { in its name" {
  play p1 "add one" (
  expect p1.points == 1
}
scenario "good two" {
  play p1 "stop"
  expect over
}
"""


def test_a_syntax_error_in_one_scenario_leaves_it_out_and_the_others_run(tmp_path):
    path = write(tmp_path, BROKEN_SECOND)
    result = run_file(path)
    assert [(r.name, r.passed) for r in result.results] == [("good one", True), ("good two", True)]
    assert [(d.code, d.span.line, d.span.column) for d in result.problems] == [("E002", 7, 21)]
    cli = CliRunner().invoke(main, ["test", str(path)])
    assert cli.exit_code == 1 and f"{path}:7:21: E002" in cli.output
    assert cli.output.splitlines()[-1] == "2 scenarios: 2 passed, 0 failed (1 file); 1 file with problems (above)"
    user = write(tmp_path, 'use "counter.tests"\n', name="user")   # the file reused has the same problem
    reused = run_file(user)
    assert [r.name for r in reused.results] == ["good one", "good two"] and len(reused.problems) == 1


def test_a_syntax_error_outside_the_scenarios_stops_the_file(tmp_path):
    path = write(tmp_path, BROKEN_SECOND.replace("players 2", "players two"))
    result = run_file(path)
    assert result.results == [] and [(d.code, d.span.line) for d in result.problems] == [("E002", 1)]


def test_scenario_blocks_are_found_outside_strings_and_comments():
    from rulelang.syntax.scenario_blocks import scenario_blocks
    text = BROKEN_SECOND + 'scenario "never closed" {\n  expect over\n'
    starts = [text[start:end].split("\n")[0] for start, end in scenario_blocks(text)]
    assert starts == ['scenario "good one" {', 'scenario "broken { in its name" {', 'scenario "good two" {',
                      'scenario "never closed" {']
    assert scenario_blocks(text)[-1][1] == len(text)


def test_chance_outcomes_by_label_and_from_the_seed(tmp_path):
    rules = ('game "Dice" { players 1 }\ndie d6 = 1..6\nvar total: int = 0\n'
             'phase play {\n  let a = roll d6\n  total += a\n  let b = roll d6\n  total += b\n'
             '  choose by players[0] { option "end" { end game } }\n}\n')
    path = write(tmp_path, 'scenario "rolled" {\n  play chance "6"\n  play chance "5"\n  expect total == 11\n}\n'
                           'scenario "drawn" {\n  seed 9\n  expect total >= 2 and total <= 12\n}\n',
                 rules=rules, name="dice")
    assert [r.passed for r in run_file(path).results] == [True, True]


def test_the_cli_prints_failures_and_a_summary_and_exits_1(tmp_path):
    path = write(tmp_path, 'scenario "good" {\n  expect over == false\n}\n'
                           'scenario "bad" {\n  expect p1.points == 2\n}\n')
    result = CliRunner().invoke(main, ["test", str(path), "-v"])
    assert result.exit_code == 1
    assert f"{path}:5:10: E701 scenario 'bad': expected p1.points == 2, but p1.points is 0" in result.output
    assert result.output.splitlines()[-1] == "2 scenarios: 1 passed, 1 failed (1 file)"
    assert "ok   " in result.output and "FAIL " in result.output
    data = json.loads(CliRunner().invoke(main, ["test", str(path), "--format", "json", "-k", "good"]).output)
    assert data["summary"] == "1 scenario: 1 passed, 0 failed (1 file)"
    assert CliRunner().invoke(main, ["test", str(path), "-k", "good"]).exit_code == 0


def test_files_outside_the_root_are_refused(tmp_path):
    (tmp_path / "inner").mkdir()
    path = write(tmp_path / "inner", 'use "../secret.tests"\n')
    (problem,) = run_file(path).problems
    assert problem.code == "E001" and "leads out of the root folder" in problem.message


@pytest.mark.parametrize("name", ["kuhn_poker", "tic_tac_toe"])
def test_a_ruleset_path_finds_its_test_file(name):
    assert find_test_files([GAMES_DIR / f"{name}.rules"]) == [GAMES_DIR / f"{name}.tests"]


def test_a_scenario_starts_from_a_position_file(tmp_path):
    shutil.copy(GAMES_DIR / "kuhn_poker.rules", tmp_path / "kuhn_poker.rules")
    dealt = rulelang.load(GAMES_DIR / "kuhn_poker.rules").new_initial_state()  # waits for the first bet
    pc = dealt.to_json()["frames"][0]["pc"]
    (tmp_path / "queen_against_king.position").write_text(
        'game "Kuhn poker"\nplayers 2\nexplicit chance\nphase play\n'
        'zone deck: card "jack"\nzone hand of player 1: card "queen"\nzone hand of player 2: card "king"\n'
        f'frame play pc {pc}: first = player 1, second = player 2\n')   # after the deal
    path = tmp_path / "kuhn_poker.tests"
    path.write_text('scenario "the king calls and wins" {\n  position "queen_against_king.position"\n'
                    '  play p1 "bet"\n  play p2 "call"\n  expect winners == [p2]\n  expect scores == [-2, 2]\n}\n'
                    'scenario "a missing position" {\n  position "nowhere.position"\n  play p1 "bet"\n}\n')
    good, missing = run_file(path).results
    assert good.passed, good.failure
    assert missing.failure is not None and missing.failure.code == "E702"
    assert "E001 cannot read" in missing.failure.notes[0]


def test_a_background_opens_every_scenario_of_its_file(tmp_path):
    path = write(tmp_path, 'background {\n  given { p1.points = 5 }\n  expect p1.points == 5\n}\n'
                           'scenario "from five" {\n  seed 2\n  play p1 "add two"\n  expect p1.points == 7\n}\n'
                           'scenario "again from five" {\n  play p1 "add one"\n  expect p1.points == 6\n}\n'
                           'scenario "wrong" {\n  expect p1.points == 0\n}\n')
    results = run_file(path).results
    assert [(r.name, r.passed) for r in results] == [("from five", True), ("again from five", True), ("wrong", False)]
    failure = results[2].failure
    assert failure is not None and failure.message == "expected p1.points == 0, but p1.points is 5"
    variant = write(tmp_path, 'use "counter.tests" only "from five"\n', name="reuse")
    assert [r.passed for r in run_file(variant).results] == [True]   # the background comes along


HIDDEN = """
game "Peek" { players 2 }
component card { n: int } shown as "#{n}"
deck cards: card in pile = [card(n: k) for k in 1..4]
zone pile: card visible none
zone table: card visible all
player zone hand: card visible owner
phase play {
  for p in players { move top(pile) to p.hand }
  choose by players[0] { option "show" { move top(players[0].hand) to table } option "keep" { end game } }
  end game
}
"""


def test_seen_by_checks_what_a_player_is_shown(tmp_path):
    path = write(tmp_path, 'scenario "shown" {\n'
                           '  expect seen by p1 p1.hand\n  expect not seen by p2 p1.hand\n'
                           '  expect not seen by p1 pile\n'
                           '  play p1 "show"\n  expect seen by p2 table\n}\n'
                           'scenario "wrong" {\n  expect seen by p2 top(p1.hand)\n}\n', rules=HIDDEN, name="peek")
    shown, wrong = run_file(path).results
    assert shown.passed, shown.failure
    assert wrong.failure is not None and wrong.failure.code == "E701"
    assert wrong.failure.message.startswith("the observation of p2 (player 2) does not show '#")
