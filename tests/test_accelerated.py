"""The experimental switch RULELANG_ACCELERATED (interpreter/compiler/accelerated.py): off
unless set; set, a game's generated code is taken from the modules built for it (here plain
Python modules, as benchmarks/accelerated.py writes them before Cython compiles them), with
the same play, and a unit that does not match its built source is compiled as without it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = str(ROOT / "games" / "tic_tac_toe.rules")

PLAY = """
import json, random, sys
import rulelang
from rulelang.interpreter.compiler import accelerated, module
made = []
plain = module.Module.__init__
def recording(self):
    plain(self)
    made.append(self)
module.Module.__init__ = recording
game = rulelang.load(sys.argv[1], players=2)
chooser, results = random.Random(0), []
for seed in range(12):
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
    results.append([state.returns(), state.to_position(), state.log, state.work])
files = sorted({m.namespace[name].__code__.co_filename for m in made for name in m.units})
print(json.dumps({"folder": accelerated.FOLDER, "results": results, "files": files}))
if len(sys.argv) > 2:
    for each in made:
        if each.units:
            first, source = next(iter(each.units.items()))
            path = f"{sys.argv[2]}/{accelerated.module_name(first, source)}.py"
            open(path, "w").write(accelerated.module_source(each.units))
"""


def _play(folder: str | None, write_to: Path | None = None) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "RULELANG_ACCELERATED"}
    env.update({"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"})
    if folder is not None:
        env["RULELANG_ACCELERATED"] = folder
    args = [sys.executable, "-c", PLAY, RULES, *([str(write_to)] if write_to else [])]
    done = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_off_by_default_the_code_is_compiled_by_exec(tmp_path: Path) -> None:
    plain = _play(None, write_to=tmp_path)
    assert plain["folder"] == ""
    assert all(str(f).startswith("<rules:") for f in plain["files"])  # type: ignore[attr-defined]
    assert list(tmp_path.glob("rules_*.py"))


def test_built_modules_give_the_same_play(tmp_path: Path) -> None:
    plain = _play(None, write_to=tmp_path)
    built = _play(str(tmp_path))
    assert built["results"] == plain["results"]
    assert built["files"] and all(str(f).startswith(str(tmp_path)) for f in built["files"])  # type: ignore[attr-defined]


def test_a_unit_unlike_its_built_source_is_compiled_as_without_the_switch(tmp_path: Path) -> None:
    plain = _play(None, write_to=tmp_path)
    for path in tmp_path.glob("rules_*.py"):
        text = path.read_text()
        path.write_text(text.replace("UNITS = {'", "UNITS = {'x", 1))  # the first unit's name no longer matches
    built = _play(str(tmp_path))
    assert built["results"] == plain["results"]
    assert any(str(f).startswith("<rules:") for f in built["files"])  # type: ignore[attr-defined]
    assert any(str(f).startswith(str(tmp_path)) for f in built["files"])  # type: ignore[attr-defined]


def test_an_empty_folder_changes_nothing(tmp_path: Path) -> None:
    plain = _play(None)
    built = _play(str(tmp_path))
    assert built["results"] == plain["results"] and built["files"] == plain["files"]
