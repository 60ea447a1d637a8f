"""No file the repository ships names a path of a development machine: sources are cited by
their path in the repository or as ../shared/..., never by an absolute path."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Absolute folders of the machines the project is developed on (written apart, so that this
# file does not name them itself).
MACHINE_PATH = re.compile("(?<![\\w.])/(?:" + "|".join(["wo" + "rk", "ro" + "ot", "ho" + "me/\\w+"]) + ")/")


def shipped_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = [ROOT / name for name in listed.splitlines()]
    return [f for f in files if f.is_file() and f.suffix not in {".png", ".jpg", ".ico"}]


def test_no_shipped_file_names_a_machine_path() -> None:
    found = []
    for path in shipped_text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [f"{path.relative_to(ROOT)}:{n}" for n, line in enumerate(text.splitlines(), 1)
                  if MACHINE_PATH.search(line)]
    assert not found, f"machine paths in {found}"


def test_the_check_sees_a_machine_path() -> None:
    assert MACHINE_PATH.search("# Sources: /" + "work/shared/seeds/x.txt")
    assert not MACHINE_PATH.search("# Sources: ../shared/seeds/x.txt and games/x/board.yaml")
