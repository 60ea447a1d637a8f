"""The layers of the package and the rules of their imports, read from the source with Python's
ast module (docs/architecture.md draws them):

- every module of ``rulelang/`` and ``interpreter/`` belongs to one layer of ``LAYERS``;
- a module imports only modules of its own layer or of a layer below it: at module level and
  inside functions alike (only ``if TYPE_CHECKING:`` imports are free, since they never run).
  So the front end never imports the runtime, runtime layers import only downward, and the
  hosts are imported by nothing but the CLI;
- no import circle among the modules, counting imports inside functions too;
- no module imports another module's ``_private`` name;
- no game in the engine: no source file of rulelang/ or interpreter/ names a ruleset of
  games/ (its file name or its title).
"""
from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = ROOT / "rulelang"
RUNTIME = ROOT / "interpreter"
RUNTIME_PACKAGE = "rulelang.interpreter"

# From the bottom up: a module may import its own layer and the layers before it.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("basics", ("rulelang.diagnostics", "rulelang.errors", "rulelang.files", "rulelang.nodes", "rulelang.ast",
                "rulelang.present_ast",
                "rulelang.scenario_ast",
                "rulelang.report", "rulelang.limits", "rulelang.memory")),
    ("syntax", ("rulelang.syntax",)),
    ("boards", ("rulelang.boards",)),
    ("check", ("rulelang.check",)),
    ("model", ("rulelang.interpreter.model",)),
    ("tables", ("rulelang.interpreter.tables",)),
    ("state", ("rulelang.interpreter.state",)),
    ("compiler", ("rulelang.interpreter.compiler",)),
    ("game", ("rulelang.interpreter.game", "rulelang.interpreter")),
    ("load", ("rulelang.loader",)),
    ("editor", ("rulelang.editor",)),
    ("agents", ("rulelang.interpreter.agents",)),
    ("sim", ("rulelang.interpreter.sim",)),
    ("hosts", ("rulelang.interpreter.hosts",)),
    ("facade", ("rulelang.cli", "rulelang.commands", "rulelang.__main__", "rulelang")),
]


def layer_of(module: str) -> int | None:
    """The index in ``LAYERS`` of the layer that ``module`` belongs to (the longest prefix wins)."""
    best: tuple[int, int] | None = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index)
    return None if best is None else best[1]


def module_name(path: Path) -> str:
    """The dotted name of a module file of the installed package (the package for __init__.py)."""
    if path.is_relative_to(RUNTIME):
        parts = [RUNTIME_PACKAGE, *path.relative_to(RUNTIME).with_suffix("").parts]
    else:
        parts = ["rulelang", *path.relative_to(LANGUAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_files() -> list[Path]:
    """Every Python file of the package (the runtime once, not again through rulelang/interpreter)."""
    language = [p for p in LANGUAGE.rglob("*.py") if not p.is_relative_to(LANGUAGE / "interpreter")]
    return sorted([*language, *RUNTIME.rglob("*.py")])


MODULES = {module_name(p): p for p in source_files()}


@dataclass(frozen=True)
class Import:
    """One module an import statement of ``importer`` brings in, at ``line``."""

    importer: str
    target: str
    line: int
    names: tuple[str, ...]


def is_type_checking(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:``, whose imports never run."""
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def running_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node`` that can run: all but the bodies of ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if is_type_checking(child):
            assert isinstance(child, ast.If)
            for statement in child.orelse:
                yield statement
                yield from running_nodes(statement)
            continue
        yield child
        yield from running_nodes(child)


def resolved(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The absolute name of the module ``from ... import`` reads from."""
    if not node.level:
        return node.module or ""
    base = importer if is_package else importer.rsplit(".", 1)[0]
    for _ in range(node.level - 1):
        base = base.rsplit(".", 1)[0]
    return ".".join(part for part in (base, node.module) if part)


def imports_of(source: str, importer: str, *, is_package: bool = False,
               modules: set[str] | None = None) -> list[Import]:
    """The modules of the package that ``source`` (the text of module ``importer``) imports when
    it runs, anywhere in it: ``from P import a`` imports module ``P.a`` when there is one, else
    module ``P``. Imports from outside the package are left out."""
    known = set(MODULES) if modules is None else modules
    found = []
    for node in running_nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [Import(importer, alias.name, node.lineno, ()) for alias in node.names
                      if alias.name.split(".")[0] == "rulelang"]
        elif isinstance(node, ast.ImportFrom):
            base = resolved(node, importer, is_package)
            if base.split(".")[0] != "rulelang":
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                target = submodule if submodule in known else base
                found.append(Import(importer, target, node.lineno, () if target == submodule else (alias.name,)))
    return found


@functools.cache
def all_imports() -> tuple[Import, ...]:
    """Every import of every module of the package (read once for all the tests here)."""
    return tuple(found for name, path in MODULES.items()
                 for found in imports_of(path.read_text(encoding="utf-8"), name, is_package=path.name == "__init__.py"))


def violations(found: Iterable[Import]) -> list[str]:
    """The imports that reach up the layers, and those of a module that has no layer."""
    wrong = []
    for each in found:
        here, there = layer_of(each.importer), layer_of(each.target)
        if here is None:
            wrong.append(f"{each.importer} belongs to no layer: add it to LAYERS in tests/test_layers.py")
        elif there is not None and there > here:
            wrong.append(f"{each.importer}:{each.line} ({LAYERS[here][0]}) imports {each.target} "
                         f"({LAYERS[there][0]}), a layer above it")
    return wrong


def test_every_module_has_a_layer() -> None:
    assert not sorted(name for name in MODULES if layer_of(name) is None)


def test_imports_go_only_down_the_layers() -> None:
    assert not violations(all_imports())


def test_no_import_circle_counting_imports_in_functions() -> None:
    graph = nx.DiGraph()
    graph.add_nodes_from(MODULES)
    # A package's __init__ is run before any of its modules: an edge to it is no circle of ours.
    graph.add_edges_from((each.importer, each.target) for each in all_imports()
                         if each.target != each.importer and not each.importer.startswith(each.target + "."))
    cycles = sorted(sorted(c) for c in nx.simple_cycles(graph))
    assert not cycles, f"import circles: {cycles}"


def test_no_private_name_is_imported_across_modules() -> None:
    private = sorted(f"{each.importer}:{each.line} imports {name} from {each.target}"
                     for each in all_imports() for name in each.names if name.startswith("_"))
    assert not private


def test_an_import_inside_a_function_counts() -> None:
    """The checks would pass vacuously if function-level imports were missed or if nothing
    were ever read: a host imported in a function of the model is caught, one under
    ``TYPE_CHECKING`` is not, and real edges of the package are seen."""
    source = ("from typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from ..hosts import server\n"
              "def f():\n    from ..hosts.server import Server\n    return Server\n")
    found = imports_of(source, "rulelang.interpreter.model.values",
                       modules={"rulelang.interpreter.hosts.server", "rulelang.interpreter.model.values"})
    assert [(each.target, each.line) for each in found] == [("rulelang.interpreter.hosts.server", 5)]
    assert violations(found) == ["rulelang.interpreter.model.values:5 (model) imports "
                                 "rulelang.interpreter.hosts.server (hosts), a layer above it"]
    front_end = imports_of("def g():\n    import rulelang.interpreter.game\n", "rulelang.check.linter")
    assert violations(front_end) and "(check) imports rulelang.interpreter.game (game)" in violations(front_end)[0]
    edges = {(each.importer, each.target) for each in all_imports()}
    assert ("rulelang.interpreter.game", "rulelang.interpreter.tables.catalog") in edges
    assert ("rulelang.check.linter", "rulelang.check.checker") in edges


def _game_names() -> set[str]:
    """The names of the rulesets of games/: their file names and the first word of each title."""
    names = set()
    for path in (ROOT / "games").glob("*.rules"):
        names.add(path.stem.lower())
        title = re.search(r'game\s+"([\w-]+)', path.read_text(encoding="utf-8"))
        if title:
            names.add(title.group(1).lower())
    return names


ENGINE_FILES = sorted([*source_files(), *(LANGUAGE / "syntax").glob("*.lark"),
                       *(p for p in (RUNTIME / "hosts" / "web").rglob("*.*"))])


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_source_of_the_engine_names_a_game(path: Path) -> None:
    text = path.read_text(encoding="utf-8").lower()
    named = sorted(name for name in _game_names() if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text))
    assert not named, f"{path.name} names {named}: the engine must stay free of any game"
