"""A command starts at once: what ``import rulelang`` and a lint load, each in a fresh
interpreter (no timing: the modules a start imports are what its time follows), and the
light phase graph the lint checks read is the networkx graph the tools look at."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulelang.check.graph import flow_graph, phase_graph
from rulelang.loader import read_ruleset

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.rules"))


def modules_after(code: str) -> set[str]:
    """The modules loaded once ``code`` has run in a new interpreter, from the repository."""
    script = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_import_rulelang_loads_no_front_end_runtime_or_library() -> None:
    loaded = modules_after("import rulelang")
    heavy = {m for m in loaded if m.startswith(("rulelang.interpreter", "rulelang.check", "rulelang.syntax",
                                                "networkx", "lark", "jsonschema", "rich"))}
    assert not heavy


def test_linting_every_seed_game_imports_no_graph_library() -> None:
    paths = ", ".join(repr(str(p)) for p in GAMES)
    loaded = modules_after(f"from rulelang.loader import lint_file\nfrom pathlib import Path\n"
                           f"for p in [{paths}]:\n    assert lint_file(Path(p)) is not None")
    assert "networkx" not in loaded


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_light_graph_is_the_tools_graph(path: Path) -> None:
    declarations, _, _ = read_ruleset(path)
    light, tools = flow_graph(declarations), phase_graph(declarations)
    assert repr(list(light.nodes.items())) == repr(list(tools.nodes(data=True)))
    assert repr(list(light.edges())) == repr(list(tools.edges(data=True)))
    for node in tools:
        assert list(light.predecessors(node)) == list(tools.predecessors(node))
        assert light.in_degree(node) == tools.in_degree(node)
    import networkx as nx
    assert light.descendants("@start") == nx.descendants(tools, "@start")
    assert json.dumps(light.graph, default=repr) == json.dumps(tools.graph, default=repr)
