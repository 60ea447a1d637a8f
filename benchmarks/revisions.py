"""A past revision of the repository beside this tree, for the benchmarks that compare the two
in one run (compare.py, instructions.py, greedy.py, startup.py)."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def checked_out(revision: str) -> Iterator[Path]:
    """A temporary git worktree of ``revision``, byte-compiled, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="rulelang-rev-"))
    tree = folder / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), revision], cwd=ROOT, check=True)
    link = tree / "rulelang" / "interpreter"
    if not link.exists():   # older revisions installed the runtime without the link
        link.symlink_to(Path("..") / "interpreter")
    # Byte-compiled up front, as the tree it is compared with is: compiling at start-up costs
    # time and leaves another heap behind, which moves the garbage collector's work inside
    # what is measured.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], check=False, capture_output=True)
    try:
        yield tree
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
        shutil.rmtree(folder, ignore_errors=True)
