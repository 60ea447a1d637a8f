"""The compiler (interpreter/compiler/codegen.py, procedures.py): the rules become Python source that
names nothing of the ruleset, procedures that never pause become Python functions, runs of
statements that cannot pause become one operation, and errors still point at the rules."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import load_written

import rulelang
from rulelang.cli import main
from rulelang.errors import RulesRuntimeError

ROOT = Path(__file__).resolve().parent.parent


def load(tmp_path: Path, source: str, players: int = 1) -> rulelang.Game:
    return load_written(tmp_path, source, players=players)


def failure(game: rulelang.Game) -> RulesRuntimeError:
    with pytest.raises(RulesRuntimeError) as caught:
        game.new_initial_state()
    return caught.value


HOSTILE = '''\
    game "G" { players 1 }
    var said: string = ""
    var n: int = 0
    procedure speak(x: int) {
      let quote = "\\"); import os; os.system('rm -rf /') #"
      said = quote + x
      n += x * 3
    }
    phase p {
      call speak(7)
      log "x\\"\\"\\"; raise SystemExit #"
      end game
    }
'''


def test_no_text_of_the_ruleset_is_written_into_the_generated_code(tmp_path):
    game = load(tmp_path, HOSTILE)
    code = game.generated_code()
    for text in ("os.system", "SystemExit", "speak", "quote", "said"):
        assert text not in code.replace("# _k", "")[code.index("\ndef "):], text  # names and strings are constants
    state = game.new_initial_state()
    assert state.to_json()["globals"]["said"] == "\"); import os; os.system('rm -rf /') #7"
    assert state.to_json()["globals"]["n"] == 21
    assert state.log == ['x"""; raise SystemExit #']


def test_the_generated_code_is_python_that_says_where_each_function_comes_from(tmp_path):
    game = rulelang.load(ROOT / "games" / "jamaica.rules", players=3)
    code = game.generated_code()
    compile(code, "<listing>", "exec")
    assert code.count("def _p") == len(game.program.never_pausing) > 0
    assert "procedure at line " in code and "statements at line " in code


def test_rulelang_code_prints_it():
    result = CliRunner().invoke(main, ["code", str(ROOT / "games" / "tic_tac_toe.rules")])
    assert result.exit_code == 0
    assert "def _e" in result.output and "# line 17, column 22" in result.output   # the choice's list
    missing = CliRunner().invoke(main, ["code", str(ROOT / "games" / "no_such.rules")])
    assert missing.exit_code == 1 and "E001" in missing.output


PAUSING = '''\
    game "G" { players 2 }
    var total: int = 0
    procedure add(k: int) { total += k }
    procedure twice(k: int) { call add(k)  call add(k) }
    procedure ask(p: player) { choose k in 1..3 by p  call add(k) }
    procedure relay(p: player) { call ask(p) }
    procedure deep(k: int) { if k > 0 { call deep(k - 1) } }
    phase p {
      call twice(2)
      for q in players { call relay(q) }
      call deep(3)
      end game
    }
'''


def test_procedures_that_never_pause_are_python_functions(tmp_path):
    game = load(tmp_path, PAUSING, players=2)
    assert set(game.program.never_pausing) == {"add", "twice", "deep"}
    state = game.new_initial_state()
    assert [frame.name for frame in state.frames] == ["p", "relay", "ask"]  # a call of one is no frame
    state.apply_action(state.legal_action_ids()[2])   # 3
    state.apply_action(state.legal_action_ids()[0])   # 1
    assert state.is_terminal() and state.to_json()["globals"]["total"] == 4 + 3 + 1


@pytest.mark.parametrize("where", ["procedure", "phase"])
def test_an_error_in_compiled_code_points_at_its_statement(tmp_path, where):
    body = "let a = 1\n  let b = a - 1\n  let c = 10 / b\n"
    source = (f'game "G" {{ players 1 }}\nprocedure f() {{\n  {body}}}\nphase p {{\n  call f()\n  end game\n}}\n'
              if where == "procedure" else f'game "G" {{ players 1 }}\nphase p {{\n  {body}  end game\n}}\n')
    error = failure(load(tmp_path, source))
    (diagnostic,) = error.diagnostics
    assert (diagnostic.code, diagnostic.span.line) == ("E602", 5)
    assert diagnostic.message == f"division by zero (in {'f' if where == 'procedure' else 'p'})"


@pytest.mark.parametrize("where", ["procedure", "phase"])
def test_a_local_read_before_it_has_a_value_is_the_rules_error(tmp_path, where):
    body = "for i in [] { }\n  let y = i + 1\n"
    source = (f'game "G" {{ players 1 }}\nprocedure f() {{\n  {body}}}\nphase p {{\n  call f()\n  end game\n}}\n'
              if where == "procedure" else f'game "G" {{ players 1 }}\nphase p {{\n  {body}  end game\n}}\n')
    (diagnostic,) = failure(load(tmp_path, source)).diagnostics
    assert diagnostic.code == "E602" and diagnostic.message.startswith("'i' has no value here")
    assert diagnostic.span.line == 4


def test_a_runaway_compiled_loop_is_stopped_by_the_step_budget(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1  max_steps 1000 }
        var n: int = 0
        procedure spin() { while true { n += 1 } }
        phase p { call spin()  end game }
    ''')
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.code == "E603" and "1000 steps" in diagnostic.message and diagnostic.span.line == 3


def test_loops_in_compiled_code_break_continue_and_test_as_written(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1 }
        var seen: list[int] = []
        var rounds: int = 0
        procedure walk() {
          for i in 1..10 {
            if i % 2 == 0 { continue }
            if i > 7 { break }
            seen = seen + [i]
          }
          repeat until rounds >= 2 {
            rounds += 1
            if rounds < 3 { continue }
          }
        }
        phase p { call walk()  end game }
    ''')
    data = game.new_initial_state().to_json()["globals"]
    assert data["seen"] == [1, 3, 5, 7]
    assert data["rounds"] == 2   # a 'continue' in 'repeat ... until' tests the condition (else 3)


def test_an_attribute_of_an_item_whose_kind_is_certain_is_read_without_a_test(tmp_path):
    code = rulelang.load(ROOT / "games" / "tic_tac_toe.rules", players=2).generated_code()
    # [s for s in spaces(grid) if s.mark == none] and all(s.mark == p for s in line) for line in lines(grid, 3):
    # spaces come from board queries, so s.mark is read in place, with no test of the kind of s
    assert "type(_v" not in code and "_no_attribute(_v" not in code
    game = load(tmp_path, '''\
        game "G" { players 1 }
        board grid = square_grid(2, 2)
        space var mark: int = 0
        var chosen: list[space] = []
        phase p {
          chosen = [s for s in spaces(grid) if s.mark == 0]
          let found = [s.mark for s in chosen]
          end game
        }
    ''')
    # a variable declared list[space] holds spaces (checked when written): its items are read in place
    assert "type(_v" not in game.generated_code()
    game.new_initial_state()
    game = load(tmp_path, (tmp_path / "game.rules").read_text(encoding="utf-8").replace("list[space]", "list[board]"))
    assert "type(_v" in game.generated_code()  # a list of a type not held: its items are tested
    game.new_initial_state()


def test_a_list_of_options_offered_again_is_looked_up_once(tmp_path):
    game = rulelang.load(ROOT / "games" / "tic_tac_toe.rules", players=2)
    state, again = game.new_initial_state(), game.new_initial_state()
    for game_state, picks in ((state, (0, 0)), (again, (1, 0))):   # a1 then b1, b1 then a1: the same spaces left
        for player, pick in enumerate(picks):
            game_state.apply_action(game_state.legal_actions(player)[pick], player=player)
    assert state.pending is again.pending and state.pending.shared   # spaces, interned values: kept
    assert state.pending.ids == tuple(state.legal_action_ids()) and len(state.pending.ids) == 7
    numbers = load(tmp_path, '''\
        game "G" { players 1 }
        phase p { choose k in [1, 2, 3] by players[0]  choose k in [1, 2, 3] by players[0]  end game }
    ''')
    state = numbers.new_initial_state()
    first = state.pending
    state.apply_action(state.legal_actions(0)[0], player=0)
    assert not first.shared and state.pending is not first  # numbers are not interned: not kept


def test_a_new_game_starts_as_a_copy_of_the_first_decision_when_nothing_before_it_draws(tmp_path):
    game = rulelang.load(ROOT / "games" / "tic_tac_toe.rules", players=2)
    first, second = game.new_initial_state(seed=1), game.new_initial_state(seed=2)
    (start, _, _), = game.starts.values()
    assert start.pending is not None   # kept at its decision: a new game runs nothing
    assert first.legal_action_ids() == second.legal_action_ids() and first.rng != second.rng
    rolling = load(tmp_path, '''\
        game "G" { players 1 }
        die d6 = 1..6
        var rolled: int = 0
        setup { let r = roll d6  rolled = r }
        phase p { choose k in 1..rolled by players[0]  end game }
    ''')
    sizes = {len(rolling.new_initial_state(seed=seed).legal_action_ids()) for seed in range(20)}
    (start, _, _), = rolling.starts.values()
    assert start.pending is None and len(sizes) > 1   # the setup draws: each game runs from its draw


_ROUNDS_BEFORE_A_DRAW = '''\
    game "G" { players 1  max_steps 50 }
    component card { rank: int }
    zone pile: card visible count
    deck cards: card in pile = [card(rank: r) for r in 1..5]
    var total: int = 0
    procedure heavy() {
      for i in 1..30 {
        total += i
      }
    }
    procedure dealt() {
      shuffle pile
      call heavy()
    }
    setup {
      call heavy()
      call dealt()
    }
    phase p { choose c in [1, 2] by players[0]  end game }
'''


@pytest.mark.parametrize("shared", [True, False])
def test_a_shared_start_counts_the_rounds_run_before_it_stopped(tmp_path, shared):
    # the setup's 30 rounds before the draw and 30 after it are 60: over the budget of 50,
    # whether the game starts as a copy of the setup run up to its draw or runs it all
    game = load(tmp_path, _ROUNDS_BEFORE_A_DRAW)
    if not shared:
        game.starts[(False, game.max_steps)] = None   # (no shared start: the game runs from its setup)
    with pytest.raises(RulesRuntimeError) as raised:
        game.new_initial_state(seed=3)
    assert raised.value.diagnostic.code == "E603"
    assert (raised.value.diagnostic.span.line, raised.value.diagnostic.span.column) == (7, 3)   # (the loop)


def test_work_counted_in_a_loop_of_any_still_meets_the_bound(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 1  max_steps 5000 }
        board grid = square_grid(30, 30)
        space var mark: int = 0
        var hit: bool = false
        phase p {
          hit = any(all(s.mark == 1 for s in line) for line in lines(grid, 2))
          end game
        }
    ''')
    assert "_w += " in game.generated_code()  # counted in a local: the loop reads nothing of the state
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.code == "E603" and "items of work" in diagnostic.message and diagnostic.span.line == 6


def test_the_game_holds_its_compiled_program_beside_a_catalog_that_holds_no_compiler():
    game = rulelang.load(ROOT / "games" / "kuhn_poker.rules")
    assert not hasattr(game.catalog, "compiler")
    assert {"play", "showdown"} <= set(game.program.code)
    assert game.program.generated.listing() == game.generated_code()
    state = game.new_initial_state(seed=1)
    assert state.game.program is game.program and state.frames[0].code is game.program.code["play"].ops
