"""Option labels from the rules: ``choose m in LIST by p shown as "text {m.a}"`` labels each
option (legal actions, decisions, observations, scenarios); the action ids stay those of the
values; two options with one label are E602 at the choice; the checks (E101, W311)."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import protocol_labels, rules

import rulelang
from rulelang.cli import main
from rulelang.interpreter.hosts.seat_view import option_data
from rulelang.interpreter.sim.scenarios import run_file
from rulelang.loader import lint_file

DOMINOES = """
game "Dominoes" { players 2 }
component domino {
  a: int
  b: int
}
zone pile: domino visible all
player var took: int = 0
deck dominoes: domino in pile = [domino(a: 7, b: 9), domino(a: 1, b: 2), domino(a: 9, b: 7)]

phase play {
  choose m in pile by players[0] shown as "columns {m.a} and {m.b}" prompt "pick a domino"
  players[0].took = m.a * 10 + m.b
  choose n in 1..3 by players[1] shown as "take {n}"
  players[1].took = n
  end game
}
score p = p.took
"""


def load(text: str) -> rulelang.Game:
    return rulelang.load(rules(text))


def test_legal_actions_decision_and_observation_carry_the_labels():
    state = load(DOMINOES).new_initial_state()
    labels = ["columns 7 and 9", "columns 1 and 2", "columns 9 and 7"]
    assert [str(a) for a in state.legal_actions()] == labels
    assert [a.label for a in state.legal_actions(0)] == labels
    decision = state.decision()
    assert decision is not None and decision.prompt == "pick a domino"
    assert [a.label for a in decision.actions] == labels
    assert [label for _, label in state.observation(0)["legal_actions"]] == labels
    assert option_data(decision.actions[0])["label"] == "columns 7 and 9"


def test_the_action_ids_and_values_stay_those_without_labels():
    plain = load(DOMINOES.replace(' shown as "columns {m.a} and {m.b}"', "").replace(' shown as "take {n}"', ""))
    labelled = load(DOMINOES)
    ids = [[a.id for a in g.new_initial_state().legal_actions()] for g in (plain, labelled)]
    assert ids[0] == ids[1]
    state = labelled.new_initial_state()
    state.apply_action(state.legal_actions()[1])
    assert [str(a) for a in state.legal_actions()] == ["take 1", "take 2", "take 3"]
    restored = labelled.state_from_json(state.to_json())   # a saved state: the same labels again
    assert [str(a) for a in restored.legal_actions()] == ["take 1", "take 2", "take 3"]
    assert [str(a) for a in state.clone().legal_actions(1)] == ["take 1", "take 2", "take 3"]


def test_two_options_with_one_label_are_e602_at_the_choice():
    text = DOMINOES.replace('"columns {m.a} and {m.b}"', '"column {m.a}"').replace("domino(a: 9, b: 7)",
                                                                                   "domino(a: 7, b: 3)")
    with pytest.raises(rulelang.RulesRuntimeError) as caught:
        load(text).new_initial_state()
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "E602" and "'column 7'" in diagnostic.message
    assert (diagnostic.span.line, diagnostic.span.column) == (11, 3)


def test_scenarios_play_and_expect_options_by_label(tmp_path: Path):
    (tmp_path / "dominoes.rules").write_text(rules(DOMINOES))
    tests = tmp_path / "dominoes.tests"
    tests.write_text(rules("""
        scenario "by label" {
          expect options p1 "columns 7 and 9", "columns 1 and 2", "columns 9 and 7"
          play p1 "columns 9 and 7" prompt "pick a domino"
          expect p1.took == 97
          play p2 "take 2"
          expect over
          expect p2.took == 2
        }
        scenario "the value's own text is not a label" {
          play p1 "7 9"
        }
    """))
    result = run_file(tests)
    assert not result.problems, result.problems
    assert [r.name for r in result.results if r.passed] == ["by label"]
    (failed,) = result.failed
    assert "7 9" in failed.failure.message


def test_the_checks_of_a_label(tmp_path: Path):
    path = tmp_path / "labels.rules"
    path.write_text(rules("""
        game "Labels" { players 2 }
        component tile { n: int }
        zone pile: tile visible all
        deck tiles: tile in pile = [tile(n: 1), tile(n: 2)]
        phase play {
          let p = players[0]
          choose a in pile by p shown as "{p} takes {a.n}"
          choose b in pile by p shown as "a tile"
          choose c in [1] by p shown as "the only one"
          choose d in pile by p shown as "{d.colour}"
          choose e in pile by p shown as "tile {e.n}"
          end game
        }
    """))
    found = [(d.span.line, d.code) for d in lint_file(path)]
    assert found == [(7, "E101"), (8, "W311"), (10, "E103")]


def test_rulelang_play_shows_the_labels_and_takes_one(tmp_path: Path):
    path = tmp_path / "dominoes.rules"
    path.write_text(rules(DOMINOES))
    result = CliRunner().invoke(main, ["play", str(path), "--seed", "1"], input="columns 9 and 7\n")
    assert result.exit_code == 0, result.output
    assert "1.  columns 7 and 9 (7 9)" in result.output   # the label, with the card it names
    assert "3.  columns 9 and 7 (9 7)" in result.output and "game over" in result.output


def test_a_label_reads_the_state_that_offers_it():
    game = load("""
        game "Marks" { players 2 }
        board grid = square_grid(2, 1)
        space var mark: int = 0
        phase play {
          repeat {
            for p in players {
              choose s in spaces(grid) by p shown as "{s} holding {s.mark}"
              s.mark += 1
              if s.mark > 2 { end game }
            }
          }
        }
    """)
    state = game.new_initial_state()
    assert [str(a) for a in state.legal_actions()] == ["a1 holding 0", "b1 holding 0"]
    state.apply_action(state.legal_actions()[0])
    assert [str(a) for a in state.legal_actions()] == ["a1 holding 1", "b1 holding 0"]
    state.apply_action(state.legal_actions()[1])
    assert [str(a) for a in state.legal_actions()] == ["a1 holding 1", "b1 holding 1"]


def test_the_protocol_gives_the_labels(tmp_path: Path):
    (tmp_path / "dominoes.rules").write_text(rules(DOMINOES))
    assert protocol_labels(tmp_path, "dominoes.rules") == ["columns 7 and 9", "columns 1 and 2", "columns 9 and 7"]


def test_a_name_shown_still_starts_a_statement_after_a_choice() -> None:
    game = rulelang.load('game "S" { players 2 }\nvar shown: bool = false\nphase main {\n'
                         '  choose n in [1, 2] by players[0]\n  shown = true\n  choose m in [3] by players[1]\n}\n')
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert state.to_json()["globals"]["shown"] is True
