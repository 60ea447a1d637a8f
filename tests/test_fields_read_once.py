"""The state's tables read once a generated function (compiler/fields_read_once.py): the
same errors, spans, counters, states, work, events and narration at every step budget as
reading ``st.FIELD`` at each statement, and as the run loop running one operation at a time;
and the fields are set nowhere a generated function may be running (the list of their writers
in the engine's source is the one the module's reasoning covers)."""
from __future__ import annotations

import ast
import random
import textwrap
from pathlib import Path

import pytest
from test_blocks import counters_recorded, failures_where_all_agree, one_by_one

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import fields_read_once, resumable, unpaused

__all__ = ["counters_recorded"]   # (the fixture, used by name)

ROOT = Path(__file__).resolve().parent.parent

RULES = """\
    game "F" { players 2 }
    component card { rank: int } shown as "card {rank}"
    deck cards: card in pile = [card(rank: r) for r in 1..7]
    zone pile: card visible none
    zone discard: card visible all
    player zone hand: card visible owner
    var n: int = 1 visible all
    player var score: int = 0

    setup {
      shuffle pile
      for q in players {
        move top(pile) to q.hand
      }
    }
    phase p {
      repeat {
        for q in players {
          log "" + q + " draws" instead {
            move top(pile) to q.hand
          }
          n = n % 50 + 1
          log "n is " + n
          log "your hand: " + list(q.hand) to [q]
          choose c in q.hand by q
          log "" + q + " plays " + c instead {
            move c to discard
          }
          q.score += c.rank
          n = n + 12 / (n % 13 - 11)
          if size(pile) < 2 {
            move discard to pile
            shuffle pile
          }
          if n > 45 { end game }
        }
      }
    }
    score p = p.score
"""


def _games(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[rulelang.Game, ...]:
    """The game with its tables read once, with every read of ``st.FIELD`` kept, and run one
    operation at a time."""
    kept = rulelang.load(path)
    with monkeypatch.context() as patch:   # (every read of the state's fields as written)
        patch.setattr(resumable, "fields_read_once", lambda lines: lines)
        patch.setattr(unpaused, "fields_read_once", lambda lines: lines)
        read = rulelang.load(path)
    return kept, read, one_by_one(rulelang.load(path))


def _told(game: rulelang.Game, budget: int, seed: int) -> tuple[object, ...]:
    """A random game with events kept: its events, narration and logs at its end or where it failed."""
    game.max_steps = budget
    chooser = random.Random(seed)
    try:
        state = game.new_initial_state(seed=seed, events=True)
    except RulesRuntimeError as error:   # (the setup's own run failed)
        return str(error), error.diagnostic.span
    failed: tuple[object, ...] = ()
    try:
        while not state.is_terminal():
            player = state.current_players()[0]
            state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
    except RulesRuntimeError as error:   # (the state as it was before the action that failed)
        failed = (str(error), error.diagnostic.span)
    return (failed, state.to_json(), state.events(), state.events(0), state.narration(1), state.log,
            state.private_log, state.work)


@pytest.mark.usefixtures("counters_recorded")
def test_the_tables_read_once_fail_and_tell_as_reading_them_each_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(RULES), encoding="utf-8")
    games = _games(path, monkeypatch)
    code = games[0].generated_code()
    for field in fields_read_once.FIELDS:
        assert f"_st_{field} = st.{field}" in code, field
    assert "_st_" not in games[1].generated_code()
    failures = {str(f[0]).split(": ")[1][:4] for f in failures_where_all_agree(games, 4, range(1, 70))}
    assert "E603" in failures and len(failures) > 1, failures   # (the budget, and the division)
    for seed in range(4):
        for budget in (*range(1, 70, 3), 10_000):
            told = [_told(game, budget, seed) for game in games]
            assert told[1] == told[0] and told[2] == told[0], (seed, budget)


def test_a_field_set_or_read_once_is_left_as_it_is() -> None:
    def once(text: str) -> str:
        lines = [(line, None) for line in textwrap.dedent(text).strip("\n").split("\n")]
        return "\n".join(line for line, _ in fields_read_once.fields_read_once(lines, reads=2))
    kept = once("""
        def f(st):
            if st.event_log is None:
                st.zones[3].append(st.event_log)
            st.zones = []
            return st.log_lines
        """)
    assert kept == textwrap.dedent("""\
        def f(st):
            _st_event_log = st.event_log
            if _st_event_log is None:
                st.zones[3].append(_st_event_log)
            st.zones = []
            return st.log_lines""")
    for text in ["def f(st):\n    setattr(st, 'zones', [])\n    st.zones[1]\n    st.zones[2]",
                 "def f(st):\n    st.zones, st.log_lines = [], []\n    st.zones[1]\n    st.zones[2]",
                 "def f(st):\n    first.st.zones[1]\n    st.zonesx[2]"]:
        assert once(text) == text


# Every place in the engine that sets one of the fields read once (or may set any field by
# its name): each on a state no generated function is running on (one being made, copied or
# read from its saved form), once a failed run's error has left every generated function
# (``_taken_from``), or on something other than a state. A new writer fails here: read
# fields_read_once.py's reasoning before adding it.
WRITERS = {
    ("interpreter/state/state.py", "State.__init__"),
    ("interpreter/state/state.py", "State._set_initial_values_of_game"),   # (the same)
    ("interpreter/state/state.py", "State.clone"),   # (the copy's)
    ("interpreter/state/state.py", "State._taken_from"),
    ("interpreter/state/state.py", "State.move_all"),   # (``event_log +=``: the same list, extended)
    ("interpreter/state/deserialize.py", "*"),
    ("interpreter/state/infostate.py", "_copy"),   # (a sample's, made by clone)
    ("interpreter/state/precheck.py", "Precheck.__init__"),   # (a light copy's)
    ("interpreter/tables/catalog.py", "Catalog.__init__"),   # (the catalog's own zones)
    ("interpreter/hosts/memory.py", "game_size"),   # (vars(): read only)
    ("interpreter/hosts/memory.py", "held_by"),
    ("rulelang/nodes.py", "node"),   # (setattr on the syntax tree's classes)
    ("rulelang/syntax/ast_builder.py", ""),
}


def _writers() -> set[tuple[str, str]]:
    """(file, Class.function) of every assignment to a field read once, and every setattr on
    a state, in the engine's source."""
    found: set[tuple[str, str]] = set()
    for path in sorted([*(ROOT / "interpreter").rglob("*.py"), *(ROOT / "rulelang").rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        _visit(tree, [], path.relative_to(ROOT).as_posix(), found)
    return found


def _visit(node: ast.AST, names: list[str], where: str, found: set[tuple[str, str]]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            _visit(child, [*names, child.name], where, found)
            continue
        targets: list[ast.expr] = []
        if isinstance(child, ast.Assign):
            targets = [*child.targets]
        elif isinstance(child, ast.AugAssign | ast.AnnAssign):
            targets = [child.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and part.attr in fields_read_once.FIELDS \
                        and isinstance(part.ctx, ast.Store):
                    found.add((where, ".".join(names)))
        if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) \
                and child.func.id in ("setattr", "delattr", "vars"):   # (any field, by its name)
            found.add((where, ".".join(names)))
        _visit(child, names, where, found)


def test_the_fields_read_once_are_set_only_where_no_generated_function_runs() -> None:
    found = {(where, "*" if where.endswith("deserialize.py") else name) for where, name in _writers()}
    assert found == WRITERS, found ^ WRITERS
    # (move_all's ``+=`` keeps the log's object: a list extends itself)
    state = rulelang.load(ROOT / "games" / "tic_tac_toe.rules").new_initial_state(events=True)
    assert type(state.event_log) is list
