"""States saved in format 2 (tests/data/format2_states.json) and the seed rulesets they were
saved with (tests/data/format2_rules.json): a format-2 position counts one place a statement,
so such a state belongs to the code of its ruleset as it was then, not as the games' files
are now (their narration has statements since)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ("jamaica/board.yaml", "tobago/island.yaml")

FORMAT_2 = json.loads((ROOT / "tests" / "data" / "format2_states.json").read_text(encoding="utf-8"))
"""States saved by rulelang at commit d05173c (format 2, one operation per statement), deep
in random games: up to 11 procedures running, in loops."""

FORMAT_2_RULES = json.loads((ROOT / "tests" / "data" / "format2_rules.json").read_text(encoding="utf-8"))["rules"]
"""The seed rulesets as they were at that commit, where the games' files have changed since."""


def ruleset_saved_with(name: str, folder: Path) -> Path:
    """The ruleset that the format-2 state of ``name`` was saved with, in ``folder``: a copy of
    the one of that commit (or of today's, where it has not changed), with the rulesets it
    extends and the boards it loads."""
    if name not in FORMAT_2_RULES:
        shutil.copy(ROOT / "games" / f"{name}.rules", folder / f"{name}.rules")
        return folder / f"{name}.rules"
    for stem, text in FORMAT_2_RULES.items():
        (folder / f"{stem}.rules").write_text(text, encoding="utf-8")
    for board in BOARDS:
        (folder / board).parent.mkdir(exist_ok=True)
        shutil.copy(ROOT / "games" / board, folder / board)
    return folder / f"{name}.rules"
