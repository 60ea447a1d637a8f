"""Shared helpers for the engine's test suite."""
from __future__ import annotations

import atexit
import os
import random
import shutil
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from rulelang import Game

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GAMES_DIR = ROOT / "games"

# The suite's caches (the grammar's tables, the ASTs of its many temporary rulesets) go to a
# folder of its own, not the user's, where they would push the user's own kept ASTs out.
_CACHE = tempfile.mkdtemp(prefix="rulelang-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)


def game_files() -> list[Path]:
    """Every ruleset in games/, found when the tests are collected."""
    return sorted(GAMES_DIR.glob("*.rules"))


def player_counts(path: Path) -> list[int]:
    """The smallest and the largest player count a ruleset declares (its `players` setting):
    the counts in between exercise no other rule, and the suite must stay fast."""
    from rulelang.check.settings import read_settings
    from rulelang.loader import read_ruleset

    declarations, _, _ = read_ruleset(path)
    low, high = read_settings(declarations, str(path))[0].players
    return sorted({low, high})


def game_cases() -> list:
    """(path, players) for every ruleset in games/, at its smallest and largest player count."""
    cases = []
    for path in game_files():
        try:
            counts = player_counts(path)
        except Exception:  # a broken ruleset: its tests fail on load, showing the diagnostics
            counts = [None]
        cases.extend(pytest.param(path, n, id=f"{path.stem}-{n}p" if n else f"{path.stem}-broken") for n in counts)
    return cases


def rules(text: str) -> str:
    """Dedented ruleset text."""
    return textwrap.dedent(text).strip() + "\n"


def load_written(folder: Path, source: str, players: int | None = None):
    """``source`` (dedented) written as ``folder / "game.rules"`` and loaded from that file
    (its diagnostics and the rules' errors name it)."""
    import rulelang

    path = folder / "game.rules"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return rulelang.load(path, players=players)


@pytest.fixture
def load_text():
    """Load a ruleset given as text: load_text(TEXT, players=N)."""
    import rulelang

    def load(text, players=None):
        return rulelang.load(rules(text), players=players)
    return load


def play_randomly(state, chooser: random.Random, limit: int | None = None):
    """``state`` after random actions (each drawn by ``chooser`` from the legal actions of the
    first player to act) until the end, or ``limit`` actions."""
    done = 0
    while not state.is_terminal() and (limit is None or done < limit):
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
        done += 1
    return state


def saved_states(game, seed: int) -> list[dict]:
    """The saved states of one random game of ``game`` (seeded ``seed``) after each action."""
    chooser, state = random.Random(seed), game.new_initial_state(seed=seed)
    saved = [state.to_json()]
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
        saved.append(state.to_json())
    return saved


def worked_states(game, seed: int) -> list[tuple[dict, int]]:
    """The saved state and the work counted after each action of one random game of
    ``game`` (seeded ``seed``): what a specialised path must leave as the general one does."""
    chooser, state, seen = random.Random(seed), game.new_initial_state(seed=seed), []
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
        seen.append((state.to_json(), state.work))
    return seen


def offers_made(game, seed: int) -> list[tuple[object, ...]]:
    """Each decision of a random game of ``game`` (seeded ``seed``): its options' ids, whether
    it is kept, its players, and the saved state and work before it."""
    chooser, state, seen = random.Random(seed), game.new_initial_state(seed=seed), []
    while not state.is_terminal():
        decision = state.pending
        assert decision is not None
        seen.append((decision.ids, decision.shared, decision.players, state.to_json(), state.work))
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
    return seen


def played_to_the_end(game) -> tuple:
    """A game of one player who always takes the last option: where its rules fail (the
    error's text and span), or its saved state and work at the end."""
    from rulelang.errors import RulesRuntimeError

    try:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(state.legal_actions(0)[-1], player=0)
    except RulesRuntimeError as error:
        return str(error), error.diagnostic.span
    return state.to_json(), state.work


def logged_events(game, seed: int) -> tuple[list[str], list[dict]]:
    """The log and the events of one random game of ``game`` (seeded ``seed``) recording events."""
    chooser, state = random.Random(seed), game.new_initial_state(seed=seed, events=True)
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
    return list(map(str, state.log)), state.events()


def worked_and_logged(game) -> tuple[object, ...]:
    """The saved states and work of three random games of ``game``, the log and events of another."""
    return [worked_states(game, seed) for seed in range(3)], logged_events(game, 7)


def transfers_called(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every 'gain' and 'pay' of the games loaded after it made by a call of ``State.transfer``
    (not written in place: procedures.transfer_lines)."""
    from rulelang.interpreter.compiler import procedures
    monkeypatch.setattr(procedures, "transfer_lines", lambda args, holders, held: [
        (0, f"st.transfer({', '.join(args)})")])


def generated_functions(game) -> str:
    """The generated functions of ``game``, without the listing of its constants."""
    listing = game.generated_code()
    return listing[listing.index("\ndef "):]


def decisions_dropped(code: str) -> str:
    """The generated ``code`` without the decisions that procedures' functions make where they
    pause (``if _decide:`` and its block: the operation's own lines, compiler/decided.py)."""
    lines, kept, inside = code.split("\n"), [], None
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if inside is not None and (not line.strip() or indent > inside):
            continue
        inside = indent if line.strip() == "if _decide:" else None
        if inside is None:
            kept.append(line)
    return "\n".join(kept)


def setup_failure(game):
    """The RulesRuntimeError that making ``game``'s initial state raises."""
    from rulelang.errors import RulesRuntimeError
    with pytest.raises(RulesRuntimeError) as caught:
        game.new_initial_state()
    return caught.value


def states_or_error(rules: str, games: int = 4) -> tuple:
    """The saved states and work after each action of ``games`` random games of ``rules``
    (``worked_states``, seeds 0, 1, ...), or the code, message, line and column of the rules'
    error of the first that fails: what a specialised path must give as the general one does."""
    import rulelang
    return games_or_error(rulelang.load(rules), games)


def games_or_error(game: Game, games: int = 4) -> tuple[object, ...]:
    """``states_or_error`` of the loaded ``game``."""
    from rulelang.errors import RulesRuntimeError
    try:
        return tuple(tuple(worked_states(game, seed)) for seed in range(games))
    except RulesRuntimeError as error:
        d = error.diagnostic
        return d.code, d.message, d.span.line, d.span.column


BUDGETED = 100_000   # (a budget a ruleset written with STEPS is loaded at, then lowered)


def budgeted(rules: str) -> Callable[[int], Game]:
    """``rules``, whose step budget is written STEPS, loaded once (at BUDGETED): a function of
    a budget giving that game with its ``max_steps`` lowered to it, as a host lowers it. Below
    runtime.MAX_VISITS the budget changes no generated code, and a state reads it from the
    game (its initial tables and shared start are kept by budget): the game plays as the text
    written with that budget, a load of each budget's text saved (most of these tests' time)."""
    import rulelang
    game = rulelang.load(rules.replace("STEPS", str(BUDGETED)))

    def at(steps: int) -> Game:
        assert steps <= BUDGETED
        game.max_steps = steps
        return game
    return at


def at_every_budget(rules: str, budgets: range) -> list[tuple[object, ...]]:
    """``states_or_error`` of ``rules``, whose step budget is written STEPS, at each of ``budgets``
    (``budgeted``: one load; at the first and last budget, as the text loaded with it gives)."""
    at = budgeted(rules)
    found = [games_or_error(at(steps)) for steps in budgets]
    for n in (0, -1):
        assert found[n] == states_or_error(rules.replace("STEPS", str(budgets[n])))
    return found


def runs_alike_without(monkeypatch, module, name: str, general, rules: str, budgets: range,
                       failing: str | None = None) -> tuple:
    """What a specialised path of the compiler gives, checked to be what the general path
    gives (``module.name`` set to ``general`` for the rest of the test): for ``rules``, whose
    step budget is written STEPS, the games at a large budget, at each of ``budgets``
    (``at_every_budget``) and, if given, those of ``failing`` (rules that fail), each
    ``states_or_error``. Returned for the test's own checks of where the runs stopped."""
    def runs() -> tuple:
        found = (states_or_error(rules.replace("STEPS", "100000")), at_every_budget(rules, budgets))
        return found if failing is None else (*found, states_or_error(failing))
    fast = runs()
    monkeypatch.setattr(module, name, general)
    assert fast == runs()
    return fast


def protocol_labels(folder: Path, ruleset: str) -> list[str]:
    """The labels of the legal actions the JSON-lines protocol gives for a new game (seed 0)
    of the ruleset ``ruleset`` in ``folder``."""
    from rulelang.interpreter.hosts.library import GameLibrary
    from rulelang.interpreter.hosts.sessions import Session
    session = Session(GameLibrary(folder))

    def result(op: str, **fields: object) -> dict[str, object]:
        reply = session.handle({"id": op, "op": op, **fields})
        assert reply["ok"], reply
        found: dict[str, object] = reply["result"]
        return found
    game = result("load", path=ruleset)["game"]
    state = result("new_game", game=game, seed=0)["state"]
    actions = result("legal_actions", state=state)["actions"]
    assert isinstance(actions, list)
    return [label for _, label in actions]


# The suite's longest tests (``--durations`` on two cores, longest first), run before the
# rest: xdist's load scheduling hands out the first quarter of the tests one at a time to
# each worker in turn, so the workers share these and end together, not one of them running
# a long test at the end while the other waits. (Any order is correct: only the time moves.
# Not the tests of a module-scoped fixture, which would be made twice: test_formatted_games',
# test_web_browser's.)
LONGEST = (
    "test_terminal_screen.py::test_every_decision_of_a_random_game_fits_120_by_40[tobago]",
    "test_unpaused_types.py::test_seed_games_save_the_same_text_as_with_a_frame_pushed_at_every_call[tobago-3]",
    "test_openspiel_adapter.py::test_random_sim_test_with_serialization_passes[tobago-4p]",
    "test_terminal_screen.py::test_every_decision_of_a_random_game_fits_120_by_40[jamaica_2p]",
    "test_unpaused.py::test_a_seed_game_is_the_game_that_pushes_a_frame_at_every_call[tobago-3]",
    "test_openspiel_adapter.py::test_random_sim_test_with_serialization_passes[tobago-2p]",
    "test_rl_envs.py::test_the_observation_space_contains_every_observation_of_50_random_games[tobago-2p]",
    "test_scenarios.py::test_every_shipped_test_file_passes",
    "test_properties.py::test_same_seed_and_actions_give_the_same_state[tobago-2p]",
    "test_terminal_screen.py::test_every_decision_of_a_random_game_fits_120_by_40[jamaica]",
    "test_properties.py::test_same_seed_and_actions_give_the_same_state[tobago-4p]",
    "test_properties.py::test_observation_ignores_hidden_information[tobago-4p]",
    "test_server_load.py::test_100_games_with_slow_idle_and_heavy_clients_mixed_in",
    "test_terminal_screen.py::test_every_decision_of_a_random_game_fits_120_by_40[asterix]",
    "test_properties.py::test_observation_ignores_hidden_information[tobago-2p]",
    "test_shuffled.py::test_jolly_roger_shuffles_in_place_as_the_general_path_does",
    "test_quiet_marks.py::test_the_seed_games_play_the_same_with_the_marks_taken_in[asterix]",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """LONGEST first, in its order; the rest as collected."""
    rank = {name: n for n, name in enumerate(LONGEST)}
    items.sort(key=lambda item: rank.get(item.nodeid.removeprefix("tests/"), len(LONGEST)))
