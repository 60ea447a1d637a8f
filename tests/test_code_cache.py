"""The code objects of the generated functions kept on disk (compiler/code_cache.py): a game
compiled again reads back the very code objects Python's compile gives (equal code, the same
file names and listing) and compiles none; a changed ruleset, other options (a variant, another
player count) and a changed compiler each compile what they changed, whose code is what a
compile with no cache gives; a damaged cache file is a miss; rules without a file keep none."""
from __future__ import annotations

import marshal
import shutil
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import cast

import pytest

import rulelang
from rulelang.interpreter.compiler import code_cache, driver, optimistic, short_jumps
from rulelang.interpreter.compiler.module import Module

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "rulelang"


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The file names that the cache compiled (its misses), in order."""
    compiled: list[str] = []

    def counted(source: str, filename: str, flags: int) -> CodeType:
        compiled.append(filename)
        return short_jumps.compiled(source, filename, flags)
    monkeypatch.setattr(code_cache, "compiled_code", counted)
    return compiled


def generated(game: rulelang.Game) -> Module:
    """The generated code of ``game`` (the compiler's Module)."""
    return cast(Module, game.program.generated)


def codes(game: rulelang.Game) -> dict[str, tuple[CodeType, str, bytes]]:
    """The code of every generated function of ``game``, by name: the code object (equal to
    another of the same bytecode, constants, names and lines), its file name and its lines'
    positions (where errors are shown)."""
    module = generated(game)
    return {name: (code, code.co_filename, code.co_linetable)
            for name in module.units for code in [module.namespace[name].__code__]}


def uncached(load: Callable[[], rulelang.Game], monkeypatch: pytest.MonkeyPatch) -> rulelang.Game:
    """The game ``load`` gives when no code is kept (the general path: ``compile`` itself)."""
    with monkeypatch.context() as patched:
        patched.setattr(driver, "_code_cache", lambda catalog: None)
        game = load()
    assert generated(game).codes is None
    return game


@pytest.mark.parametrize(("name", "players"), [("jolly_roger", 4), ("tic_tac_toe", 2), ("jamaica", 3)])
def test_a_game_compiled_again_reads_back_the_code_compile_gives(
        name: str, players: int, compiles: list[str], cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "games" / f"{name}.rules"
    cold = rulelang.load(path, players=players)
    assert len(compiles) == len(generated(cold).units) > 0
    assert len(list(cache_folder.glob("code-*"))) == 1
    compiles.clear()
    warm = rulelang.load(path, players=players)
    assert compiles == []
    general = uncached(lambda: rulelang.load(path, players=players), monkeypatch)
    assert codes(warm) == codes(cold) == codes(general)
    assert warm.generated_code() == cold.generated_code() == general.generated_code()
    assert all(generated(warm).namespace[unit].__code__.co_filename == f"<rules:{unit}>"
               for unit in generated(warm).units)   # (where Module.locate finds a runtime error)


def test_a_runtime_error_is_located_alike_from_the_code_read_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tmp_path / "failing.rules"
    rules.write_text('game "Failing" { players 1 }\nvar n: int = 0\n'
                     'procedure half(k: int) {\n  let m = k - 1\n  n = 10 / (m + 1)\n}\n'
                     'phase p {\n  call half(n)\n  end game\n}\n')
    failures = []
    loads: list[Callable[[], rulelang.Game]] = [lambda: rulelang.load(rules), lambda: rulelang.load(rules),
                                                lambda: uncached(lambda: rulelang.load(rules), monkeypatch)]
    for load in loads:
        with pytest.raises(rulelang.RulesRuntimeError) as failed:
            load().new_initial_state()
        failures.append((str(failed.value), failed.value.diagnostic.span))
    assert failures[0] == failures[1] == failures[2]
    assert failures[0][1] is not None and failures[0][1].line == 5


def test_a_changed_ruleset_compiles_what_changed(
        tmp_path: Path, compiles: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tmp_path / "tic_tac_toe.rules"
    shutil.copy(ROOT / "games" / "tic_tac_toe.rules", rules)
    rulelang.load(rules)
    compiles.clear()
    rules.write_text(rules.read_text().replace("then -1 else 0", "then -2 else 0"))   # (a score the check allows)
    changed = rulelang.load(rules)
    assert 0 < len(compiles) < len(generated(changed).units)
    assert codes(changed) == codes(uncached(lambda: rulelang.load(rules), monkeypatch))


@pytest.mark.parametrize("other", ["players", "variant"])
def test_other_options_compile_their_own_code(
        other: str, compiles: list[str], cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rulelang.load(ROOT / "games" / "jolly_roger.rules", players=4)
    compiles.clear()

    def load() -> rulelang.Game:
        if other == "players":
            return rulelang.load(ROOT / "games" / "jolly_roger.rules", players=5)
        return rulelang.load(ROOT / "examples" / "variants" / "jolly_roger_no_trump.rules", players=4, root=ROOT)
    game = load()
    assert len(compiles) == len(generated(game).units)   # (a file of its own: every function compiled)
    assert len(list(cache_folder.glob("code-*"))) == 2
    assert codes(game) == codes(uncached(load, monkeypatch))
    compiles.clear()
    rulelang.load(ROOT / "games" / "jolly_roger.rules", players=4)
    assert compiles == []   # (and the first game's code is still kept)


def test_a_changed_compiler_compiles_what_it_writes_otherwise(
        compiles: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "games" / "jolly_roger.rules"
    before = rulelang.load(path, players=4)
    compiles.clear()
    monkeypatch.setattr(optimistic, "OVERRUN", optimistic.OVERRUN + "   # (another compiler)")
    changed = rulelang.load(path, players=4)
    assert compiles and len(compiles) < len(generated(changed).units)
    assert "(another compiler)" in changed.generated_code() and "(another compiler)" not in before.generated_code()
    assert codes(changed) == codes(uncached(lambda: rulelang.load(path, players=4), monkeypatch))


@pytest.mark.parametrize("damage", [b"", b"not marshal", marshal.dumps(42), marshal.dumps({b"short": 1}),
                                    marshal.dumps({bytes(32): "not code"})])
def test_a_damaged_cache_file_is_a_miss(damage: bytes, compiles: list[str], cache_folder: Path) -> None:
    path = ROOT / "games" / "tic_tac_toe.rules"
    first = rulelang.load(path)
    (kept,) = cache_folder.glob("code-*")
    kept.write_bytes(damage)
    compiles.clear()
    again = rulelang.load(path)
    assert len(compiles) == len(generated(again).units)
    assert codes(again) == codes(first)
    compiles.clear()
    rulelang.load(path)
    assert compiles == []   # (written whole again)


def test_rules_without_a_file_keep_no_code(cache_folder: Path) -> None:
    text = (ROOT / "games" / "tic_tac_toe.rules").read_text()
    game = rulelang.load(text)
    assert generated(game).codes is None
    assert not list(cache_folder.glob("code-*")) if cache_folder.exists() else True


def test_the_folder_keeps_at_most_max_files(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(code_cache, "MAX_FILES", 2)
    for players in (3, 4, 5):
        rulelang.load(ROOT / "games" / "jolly_roger.rules", players=players)
    assert len(list(cache_folder.glob("code-*"))) == 2
