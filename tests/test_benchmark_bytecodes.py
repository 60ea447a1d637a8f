"""benchmarks/bytecodes.py, the tracer that finds where a decision's bytecodes go: it plays the
games instructions.py plays (the players the ruleset allows), counts every decision's
bytecodes, and names each generated line by its text in the game's generated code."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_tracer_counts_a_two_player_game_and_shows_its_generated_lines() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bytecodes.py"), "--playouts", "1,3",
                           "--lines", "30", str(ROOT / "games" / "tic_tac_toe.rules")],
                          capture_output=True, text=True, timeout=120, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    head, *rows = done.stdout.splitlines()
    decisions, per_decision = head.split(" decisions, ")
    assert int(decisions) > 0 and float(per_decision.split()[0]) > 0
    generated = [row for row in rows if "<rules:" in row and row.split()[1].count(":") == 2]
    assert generated, done.stdout   # (the rules' own code runs among the costliest lines)
    import rulelang
    listing = rulelang.load(str(ROOT / "games" / "tic_tac_toe.rules")).generated_code()
    for row in generated:
        text = row.split(maxsplit=2)[2]
        assert text != "?" and text[:60] in listing, row
