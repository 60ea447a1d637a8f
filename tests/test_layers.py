"""The layers of the package, read from the source with Python's ast module:

- the language's front end (every module of rulelang/ but the facade: loader.py, the
  package's __init__.py, cli.py, __main__.py) never imports the runtime
  (rulelang.interpreter), not even inside a function;
- no module-level import circle inside rulelang/, nor inside the runtime (interpreter/);
- no game in the engine: no source file of rulelang/ or interpreter/ names a ruleset of
  games/ (its file name or its title).
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = ROOT / "rulelang"
RUNTIME = ROOT / "interpreter"
RUNTIME_PACKAGE = "rulelang.interpreter"
FACADE = {"loader.py", "__init__.py", "cli.py", "__main__.py"}
FRONT_END = sorted(p for p in LANGUAGE.glob("*.py") if p.name not in FACADE)


def module_name(path: Path, package: str) -> str:
    """The dotted name of a module file of ``package`` (the package itself for __init__.py)."""
    return package if path.stem == "__init__" else f"{package}.{path.stem}"


def imports(node: ast.AST, package: str) -> Iterator[str]:
    """The dotted names an import statement names, relative ones resolved within ``package``:
    ``from . import a`` names both the package and ``package.a`` (which may be a module)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = package.rsplit(".", node.level - 1)[0] if node.level else ""
        source = ".".join(part for part in (base, node.module) if part)
        yield source
        yield from (f"{source}.{alias.name}" for alias in node.names)


def is_type_checking(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:``, whose imports never run."""
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def module_level(statements: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run when the module is imported (inside top-level if/try too)."""
    for statement in statements:
        if is_type_checking(statement):
            continue
        yield statement
        if isinstance(statement, (ast.If, ast.Try)):
            yield from module_level(statement.body + statement.orelse)
            if isinstance(statement, ast.Try):
                yield from module_level([s for handler in statement.handlers for s in handler.body]
                                        + statement.finalbody)


def names_imported(path: Path, package: str, everywhere: bool) -> set[str]:
    """Every dotted name the module at ``path`` imports (``everywhere``: in functions too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    nodes = ast.walk(tree) if everywhere else module_level(tree.body)
    return {name for node in nodes for name in imports(node, package)}


def is_runtime(name: str) -> bool:
    return name == RUNTIME_PACKAGE or name.startswith(RUNTIME_PACKAGE + ".") or name.split(".")[0] == "interpreter"


@pytest.mark.parametrize("path", FRONT_END, ids=[p.name for p in FRONT_END])
def test_the_front_end_never_imports_the_runtime(path):
    found = sorted(n for n in names_imported(path, "rulelang", everywhere=True) if is_runtime(n))
    assert not found, f"rulelang/{path.name} imports the runtime: {found}"


def imported_modules(path: Path, package: str, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that the module at ``path`` imports at module level:
    ``from P import a`` imports module P.a when there is one, else module P."""
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in module_level(tree.body):
        if isinstance(node, ast.ImportFrom):
            source = next(imports(node, package))
            found.update(f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(imports(node, package))
    return found & modules


def import_graph(folder: Path, package: str) -> nx.DiGraph:
    """Module -> module it imports at module level, for the modules of one package."""
    modules = {module_name(p, package): p for p in folder.glob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        graph.add_edges_from((name, target) for target in imported_modules(path, package, set(modules))
                             if target != name)
    return graph


@pytest.mark.parametrize("folder,package", [(LANGUAGE, "rulelang"), (RUNTIME, RUNTIME_PACKAGE)],
                         ids=["rulelang", "interpreter"])
def test_no_import_circles(folder, package):
    cycles = sorted(sorted(c) for c in nx.simple_cycles(import_graph(folder, package)))
    assert not cycles, f"import circles in {folder.name}/: {cycles}"


def test_the_graph_sees_imports():
    """The checks above would pass vacuously if the import reading were broken."""
    graph = import_graph(LANGUAGE, "rulelang")
    assert graph.has_edge("rulelang.linter", "rulelang.checker")
    assert graph.has_edge("rulelang.checker", "rulelang.ast")
    assert "rulelang.interpreter.game" in names_imported(LANGUAGE / "loader.py", "rulelang", everywhere=False)
    runtime = import_graph(RUNTIME, RUNTIME_PACKAGE)
    assert runtime.has_edge("rulelang.interpreter.game", "rulelang.interpreter.catalog")


def _game_names() -> set[str]:
    """The names of the rulesets of games/: their file names and the first word of each title."""
    names = set()
    for path in (ROOT / "games").glob("*.rules"):
        names.add(path.stem.lower())
        title = re.search(r'game\s+"([\w-]+)', path.read_text(encoding="utf-8"))
        if title:
            names.add(title.group(1).lower())
    return names


@pytest.mark.parametrize("path", [*sorted(LANGUAGE.glob("*.py")), *sorted(LANGUAGE.glob("*.lark")),
                                  *sorted(RUNTIME.glob("*.py")), *sorted((RUNTIME / "web").glob("*.*"))],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_source_of_the_engine_names_a_game(path):
    text = path.read_text(encoding="utf-8").lower()
    named = sorted(name for name in _game_names() if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text))
    assert not named, f"{path.name} names {named}: the engine must stay free of any game"
