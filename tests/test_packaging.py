"""The built wheel: ``rulelang`` is its only import root, the runtime is inside it as
``rulelang.interpreter``, and the package data (grammar, schemas, type marker, the docs
that ``rulelang explain`` reads, the web page's files) ship with it. The wheel is installed into a folder of its
own and imported from outside the repository, as a host program would."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out),
         str(ROOT)], capture_output=True, text=True, cwd=out)
    if build.returncode != 0:
        pytest.fail(f"pip wheel failed:\n{build.stderr[-2000:]}")
    (found,) = out.glob("rulelang-*.whl")
    return found


def test_the_only_top_level_package_is_rulelang(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        top_level = next(n for n in names if n.endswith("top_level.txt"))
        assert archive.read(top_level).decode().split() == ["rulelang"]
    roots = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert roots == {"rulelang"}


def test_the_runtime_and_the_package_data_are_inside(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for expected in ("rulelang/interpreter/__init__.py", "rulelang/interpreter/state/state.py", "rulelang/py.typed",
                     "rulelang/syntax/grammar.lark", "rulelang/schemas/board.schema.json",
                     "rulelang/schemas/state.schema.json", "rulelang/docs/diagnostics.md"):
        assert expected in names
    page = ROOT / "interpreter" / "hosts" / "web"   # the web page: its HTML, CSS and every ES module
    for file in page.iterdir():
        assert f"rulelang/interpreter/hosts/web/{file.name}" in names, file.name


def test_pyproject_lists_every_package() -> None:
    """Each folder of rulelang/ and interpreter/ with an __init__.py is a package of
    pyproject's list: setuptools would otherwise ship it only as data, with a warning."""
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = re.search(r"^packages = \[(.*?)\]", config, re.M | re.S)   # (tomllib is Python 3.11 on)
    assert block is not None
    listed = set(re.findall(r'"([\w.]+)"', block.group(1)))
    language = ROOT / "rulelang"
    folders = {".".join(("rulelang", *p.parent.relative_to(language).parts)) for p in language.rglob("__init__.py")
               if not p.is_relative_to(language / "interpreter")}
    folders |= {".".join(("rulelang.interpreter", *p.parent.relative_to(ROOT / "interpreter").parts))
                for p in (ROOT / "interpreter").rglob("__init__.py")}
    assert not sorted(folders - listed)


def test_an_installed_wheel_loads_plays_and_explains_from_outside_the_repository(
        wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    script = (
        "import rulelang, rulelang.interpreter\n"
        f"assert rulelang.__file__.startswith({str(target)!r}), rulelang.__file__\n"
        "assert rulelang.interpreter.Game is rulelang.Game\n"
        "game = rulelang.load('game \"g\" { players 1 }\\nphase p { end game }')\n"
        "state = game.new_initial_state()\n"
        "assert state.is_terminal()\n"
        "assert game.state_from_json(state.to_json()).to_json() == state.to_json()\n"
        "from rulelang.report import explain\n"
        "print(explain('W303').splitlines()[0])\n")
    env = {**os.environ, "PYTHONPATH": str(target)}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "### W303 loop-without-decision"
