"""Rewrite the kept playthrough of every ruleset in games/ (run when a change is intended).

    python tests/playthroughs/regenerate.py
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.check.settings import read_settings  # noqa: E402
from rulelang.interpreter.sim.playthrough import playthrough  # noqa: E402
from rulelang.loader import read_ruleset  # noqa: E402

HERE = Path(__file__).resolve().parent


def cases():
    """(ruleset path, player count) for every ruleset, at its lowest and highest count."""
    for path in sorted((ROOT / "games").glob("*.rules")):
        low, high = read_settings(read_ruleset(path)[0], str(path))[0].players
        for players in sorted({low, high}):
            yield path, players


def trace_file(path: Path, players: int) -> Path:
    return HERE / f"{path.stem}-{players}p.txt"


def main() -> None:
    for path, players in cases():
        text = playthrough(rulelang.load(path, players=players), seed=0)
        trace_file(path, players).write_text(text)
        print(f"wrote {trace_file(path, players).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
