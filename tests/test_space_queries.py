"""Board queries of a space whose other arguments are constants (``ahead(s, 1)``,
``neighbors(s)``...) answered once per space and per game, and kept (runtime.per_space): the
kept answers are the computed ones, and each call charges the work the computed one does, so
that the step budget and its errors are unchanged."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import worked_states

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import known
from rulelang.interpreter.model.values import RuleError
from rulelang.interpreter.tables import runtime
from rulelang.interpreter.tables.builtins import BUILTINS

GAMES = Path(__file__).resolve().parent.parent / "games"


def _kept_per_space(monkeypatch: pytest.MonkeyPatch) -> None:
    """Queries kept per space as they run, not answered by index from answers computed at
    load (test_space_attributes.py)."""
    monkeypatch.setattr(known, "spaces_by_index", lambda cat: None)


@pytest.fixture(scope="module")
def jamaica() -> rulelang.Game:
    with pytest.MonkeyPatch.context() as patched:
        _kept_per_space(patched)
        return rulelang.load(GAMES / "jamaica.rules", players=4)


def spaces_of(game: rulelang.Game) -> list:
    return [s for board in game.catalog.boards.values() for s in board.spaces]


@pytest.mark.parametrize("name", ["ahead", "behind"])
def test_a_kept_answer_is_the_computed_one_and_charges_the_same_work(jamaica, name):
    state = jamaica.new_initial_state(seed=0)
    spaces = spaces_of(jamaica)
    for steps in (1, 3, len(spaces) + 5):   # past the board's size: the work is charged
        kept = runtime.per_space(BUILTINS[name], [None, steps], 0)
        for space in spaces * 2:   # the second round reads what the first kept
            before = state.work
            computed = BUILTINS[name](state, space, steps)
            computed_work = state.work - before
            assert kept(state, space) == computed
            assert state.work - before == 2 * computed_work
    assert state.work > 0


def test_a_value_other_than_a_space_gets_the_error_of_the_query(jamaica):
    state = jamaica.new_initial_state(seed=0)
    kept = runtime.per_space(BUILTINS["ahead"], [None, 1], 0)
    with pytest.raises(RuleError, match="expected a space, got int"):
        kept(state, 3)
    with pytest.raises(RuleError, match="expected a space, got int"):
        BUILTINS["ahead"](state, 3, 1)


def test_the_generated_code_keeps_the_queries_of_one_varying_space(jamaica):
    assert "kept per space>" in jamaica.generated_code()


def _computed_each_time(made: list[str]):
    """A stand-in for ``runtime.per_space`` that keeps nothing; the names of what it made."""
    def per_space(fn, args, at, free=None):   # (free left empty: no answer read in place)
        made.append(fn.__name__)
        before, after = tuple(args[:at]), tuple(args[at + 1:])
        return lambda st, varying: fn(st, *before, varying, *after)
    return per_space



def test_games_play_and_count_work_as_with_every_query_computed(jamaica, monkeypatch):
    kept = [worked_states(jamaica, seed) for seed in range(3)]
    made: list[str] = []
    _kept_per_space(monkeypatch)
    monkeypatch.setattr(runtime, "per_space", _computed_each_time(made))
    computed_game = rulelang.load(GAMES / "jamaica.rules", players=4)
    assert made   # (its queries are computed at each call)
    assert kept == [worked_states(computed_game, seed) for seed in range(3)]


def test_answers_of_no_work_are_read_in_place_as_the_computed_ones(monkeypatch):
    tobago = rulelang.load(GAMES / "tobago.rules", players=3)
    assert "of the spaces asked, no work charged>" in tobago.generated_code()
    kept = [worked_states(tobago, seed) for seed in range(2)]
    monkeypatch.setattr(runtime, "per_space", _computed_each_time([]))
    assert kept == [worked_states(rulelang.load(GAMES / "tobago.rules", players=3), seed) for seed in range(2)]


RUNAWAY = """\
game "G" { players 1 }
board track = load_board("board.yaml")
var total: int = 0
phase main {
  for r in 1..20 {
    for s in spaces(track) {
      total = total + size(ahead(s, 60))
    }
  }
  end game
}
"""


def _runaway_error(tmp_path: Path) -> tuple[str, int, str]:
    (tmp_path / "board.yaml").write_text((GAMES / "jamaica" / "board.yaml").read_text(encoding="utf-8"))
    (tmp_path / "game.rules").write_text(RUNAWAY, encoding="utf-8")
    game = rulelang.load(tmp_path / "game.rules", players=1)
    with pytest.raises(RulesRuntimeError) as caught:
        game.new_initial_state()
    (diagnostic,) = caught.value.diagnostics
    return diagnostic.code, diagnostic.span.line, diagnostic.message


def test_too_much_work_in_kept_queries_is_the_same_error(tmp_path, monkeypatch):
    kept = _runaway_error(tmp_path)
    assert kept[:2] == ("E603", 7)
    monkeypatch.setattr(runtime, "per_space", _computed_each_time([]))
    assert _runaway_error(tmp_path) == kept
