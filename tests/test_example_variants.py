"""The variants in examples/variants/: each is small, lints clean, plays to the end at its
smallest and largest player counts with its invariants holding, and changes what it says."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import rulelang
from rulelang.check.settings import read_settings
from rulelang.loader import lint_file, read_ruleset

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((ROOT / "examples" / "variants").glob("*.rules"))
MAX_LINES = 12


def rule_lines(path: Path) -> int:
    """Lines of rules: neither blank nor only a comment."""
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.strip().startswith("#"))


def player_counts(path: Path) -> list[int]:
    decls, _, _ = read_ruleset(path, root=ROOT)
    low, high = read_settings(decls, str(path))[0].players
    return sorted({low, high})


def play(game: rulelang.Game, seed: int) -> rulelang.State:
    """A random game to its end, checking the invariants at every decision."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.check_invariants() == []
        player = state.current_players()[0]
        state.apply_action(rng.choice(state.legal_actions(player)), player=player)
    assert state.check_invariants() == []
    return state


def test_there_are_at_least_five_variants() -> None:
    assert len(VARIANTS) >= 5


@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_a_variant_is_small_and_lints_clean(path: Path) -> None:
    assert rule_lines(path) <= MAX_LINES
    assert [str(d) for d in lint_file(path, root=ROOT)] == []


@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_a_variant_plays_to_the_end_at_its_player_counts(path: Path) -> None:
    for players in player_counts(path):
        state = play(rulelang.load(path, players, root=ROOT), seed=players)
        assert len(state.returns()) == players


def load(name: str, players: int, extra: str = "", tmp_path: Path | None = None) -> rulelang.Game:
    """Variant ``name``; with ``extra``, through a probe file in ``tmp_path`` that extends the
    variant and adds those declarations (a property the test then checks as an invariant)."""
    path = ROOT / "examples" / "variants" / f"{name}.rules"
    if not extra:
        return rulelang.load(path, players, root=ROOT)
    assert tmp_path is not None
    probe = tmp_path / "probe.rules"
    probe.write_text(f'extends "{os.path.relpath(path, tmp_path)}"\n{extra}\n', encoding="utf-8")
    return rulelang.load(probe, players, root="/")


def test_half_tolls_halve_every_toll_rounding_up(tmp_path: Path) -> None:
    game = load("jamaica_half_tolls", 3, 'invariant "half" = all(s.price == none and toll(s) == none'
                " or toll(s) * 2 >= s.price and toll(s) * 2 <= s.price + 1 for s in spaces(track))", tmp_path)
    assert any(inv.label == "half" for inv in game.program.invariants)
    play(game, seed=1)


def test_twelve_rounds_end_the_game_by_round_12() -> None:
    variant = load("jamaica_12_rounds", 3)
    base = rulelang.load(ROOT / "games" / "jamaica.rules", 3)
    variant_rounds = [play(variant, seed).global_values["round"] for seed in range(4)]
    base_rounds = [play(base, seed).global_values["round"] for seed in range(4)]
    assert max(variant_rounds) <= 12 < max(base_rounds)


def test_two_actions_a_turn_end_tobago_in_fewer_turns() -> None:
    variant = load("tobago_two_actions", 2)
    base = rulelang.load(ROOT / "games" / "tobago.rules", 2)
    variant_turns = sum(play(variant, seed).global_values["turns"] for seed in range(3))
    base_turns = sum(play(base, seed).global_values["turns"] for seed in range(3))
    assert variant_turns < base_turns


def test_jolly_roger_takes_six_players_with_six_pirates() -> None:
    game = load("jolly_roger_6p", 6)
    assert sum(1 for c in game.catalog.components if c.type == "pirate") == 6
    with pytest.raises(rulelang.RulesetError):
        rulelang.load(ROOT / "games" / "jolly_roger.rules", 6)


def test_asterix_plays_with_a_deck_of_46() -> None:
    game = load("asterix_no_high_romans", 3)
    enemies = [c for c in game.catalog.components if c.fields["kind"].name in ("roman", "pirate")]
    assert len(enemies) == 46 and max(c.fields["rank"] for c in enemies) == 10
