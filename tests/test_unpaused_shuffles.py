"""A 'shuffle' of a zone the rules name, drawn at once by the function of a procedure that
may pause (compiler/unpaused.py): without explicit chance the function shuffles the zone in
place and goes on, where it pushed its frame at the shuffle before; with explicit chance it
still does. The same saved states after each action, the same events and logs, the same
frames where it pauses, and the same errors at every step budget as the operations run one
by one; a new game's start stops before a call whose function may draw (``Code.draws``)."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import load_written
from test_blocks import counters_recorded, failures_where_all_agree, one_by_one

import rulelang
from rulelang.interpreter.compiler import lower

__all__ = ["counters_recorded"]   # (the fixture, used by name)

ROOT = Path(__file__).resolve().parent.parent

SHUFFLES = """\
    game "S" { players 2 }
    component card { rank: int }
    zone pile: card visible count
    zone heap: card visible all
    player zone hand: card visible owner
    deck cards: card in pile = [card(rank: r) for r in 1..6]
    var turns: int = 0
    var total: int = 0

    procedure refill() {
      shuffle pile
      quiet {
        turns += 1
      }
      log "the pile holds " + size(pile)
    }

    procedure gather() {
      for p in players {
        move p.hand to pile
      }
      move heap to pile
      shuffle pile
      for i in 1..2 {
        shuffle heap
        shuffle pile
      }
      for p in players {
        move top(pile) to p.hand
      }
    }

    procedure turn(p: player) {
      call refill()
      move top(pile) to p.hand
      total += 12 / (LIMIT - turns)
      choose c in p.hand by p
      move c to heap
      shuffle pile
      log "" + p + " plays " + c
    }

    phase play {
      call gather()
      for r in 1..3 {
        for p in players {
          call turn(p)
        }
        call gather()
      }
      end game
    }
"""


def shuffles(limit: int) -> str:
    """The ruleset, whose division fails at the LIMIT-th turn (never where it is past 6)."""
    return SHUFFLES.replace("LIMIT", str(limit))


def frames_pushed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Load games from here on with a frame pushed at every call of a procedure that may pause."""
    monkeypatch.setattr(lower, "pauses_at_once", lambda decl, cat: True)


def played(game: rulelang.Game, seed: int, explicit: bool) -> tuple[object, ...]:
    """The saved states after each action of a random game (chance's outcomes drawn too, with
    explicit chance), the frames' counters, its log and events; or its error and span."""
    chooser = random.Random(seed)
    try:
        state = game.new_initial_state(seed=seed, explicit_chance=explicit, events=True)
        seen = [(state.to_json(), [fr.pc for fr in state.frames])]
        while not state.is_terminal():
            player = state.current_players()[0]
            state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
            seen.append((state.to_json(), [fr.pc for fr in state.frames]))
    except rulelang.RulelangError as error:
        return str(error), error.diagnostic.span
    return seen, list(map(str, state.log)), state.events()


def test_a_shuffle_is_drawn_in_place_by_the_function_and_pauses_only_with_explicit_chance(tmp_path: Path) -> None:
    generated = load_written(tmp_path, shuffles(9)).generated_code()
    refill = generated[generated.index("def _q"):]
    refill = refill[:refill.index("\ndef ")]
    assert refill.splitlines()[1] == "    if st.explicit_chance:"   # (its frame pushed at the shuffle)
    in_place = re.search(r"# (_k\d+) = <a zone shuffled in place>", generated)
    assert in_place is not None and f"{in_place.group(1)}(st, " in refill.split("return _PAUSED", 1)[1]   # (then on)
    assert generated.count("def _q") == 3   # (refill, which starts with its shuffle, has one too)


@pytest.mark.parametrize("explicit", [False, True])
def test_games_are_the_games_that_push_a_frame_at_every_call(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, explicit: bool) -> None:
    fast = load_written(tmp_path, shuffles(9))
    frames_pushed(monkeypatch)
    slow = load_written(tmp_path, shuffles(9))
    assert "until it pauses" not in slow.generated_code()
    for seed in range(6):
        seen = played(fast, seed, explicit)
        assert seen == played(slow, seed, explicit) and len(seen[0]) >= 7


def test_a_new_game_s_start_stops_before_a_call_that_may_draw(tmp_path: Path) -> None:
    # (the start is shared by every seed: a shuffle drawn in it would be seed 0's in every game)
    game = load_written(tmp_path, shuffles(9))
    play = game.program.code["play"]
    assert play.draws and play.draws <= set(play.shapes)
    piles = {tuple(game.new_initial_state(seed=seed).to_json()["zones"]["pile"]) for seed in range(8)}
    assert len(piles) > 4


@pytest.mark.usefixtures("counters_recorded")
def test_errors_and_budgets_are_those_of_the_operations_run_one_by_one(tmp_path: Path) -> None:
    failures = failures_where_all_agree((load_written(tmp_path, shuffles(4)),
                                         one_by_one(load_written(tmp_path, shuffles(4)))), 3, range(1, 90))
    errors = [str(failure[0]) for failure in failures]
    assert any("step" in error for error in errors) and any("zero" in error for error in errors)


@pytest.mark.parametrize(("name", "players"), [("jolly_roger", 4), ("asterix", 3)])
def test_seed_games_with_explicit_chance_are_the_games_that_push_frames(
        name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "games" / f"{name}.rules"
    fast = rulelang.load(path, players=players)
    frames_pushed(monkeypatch)
    slow = rulelang.load(path, players=players)
    assert played(fast, 3, True) == played(slow, 3, True)
