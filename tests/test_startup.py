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


def test_linting_a_ruleset_with_a_grid_reads_no_yaml_and_no_jsonschema() -> None:
    loaded = modules_after("from rulelang.loader import lint_file\nfrom pathlib import Path\n"
                           "assert lint_file(Path('games/tic_tac_toe.rules')) == []")
    assert not {m for m in loaded if m.startswith(("yaml", "jsonschema", "networkx"))}


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


# ---------------------------------------------------------------- the board schema's fast path

ODD_VALUES: tuple[object, ...] = (True, False, 0, 1, -1, 1.5, 2.0, 10**6, "", "a b", "x\n", "1a", "ok", [], [1],
                                  ["a", "a"], {}, {"k": 1}, None, (1, 2))


def _board_documents() -> list[object]:
    """Every board of the repository's board files, and small boards of each kind."""
    import yaml
    found: list[object] = [{"kind": "square", "width": 3, "height": 2, "diagonal": True,
                            "attributes": {"bonus": [[1, 2, 3], [True, "x", 0]]}},
                           {"kind": "hex", "hexes": [{"q": 0, "r": 0, "id": "h0", "tags": ["a"]}, {"q": 1, "r": 0}]},
                           {"kind": "graph", "spaces": [{"id": "a", "next": "b"}, {"id": "b", "next": ["a", 3]},
                                                        {"id": 3}], "edges": [["a", 3]], "description": "d"}]
    for path in [*ROOT.glob("games/**/*.yaml"), *ROOT.glob("tests/**/*.yaml")]:
        document = yaml.safe_load(path.read_text())
        if isinstance(document, dict) and "kind" in document:
            found.append(document)
    return found


def _variants(document: object) -> list[object]:
    """``document`` with one place changed: each value replaced by each odd value, each key
    of a mapping removed, a key added."""
    import copy
    found: list[object] = []

    def places(node: object, path: tuple[object, ...]) -> list[tuple[object, ...]]:
        inner: list[tuple[object, ...]] = [path]
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in list(items)[:6]:   # the first few of a long list are enough
            inner += places(child, (*path, key))
        return inner

    for path in places(document, ()):
        for odd in (*ODD_VALUES, "DELETE", "ADD"):
            changed = copy.deepcopy(document)
            holder: object = changed
            for key in path[:-1]:
                holder = holder[key]   # type: ignore[index]
            if not path:
                if odd == "ADD" and isinstance(changed, dict):
                    changed["extra"] = 1
                    found.append(changed)
                continue
            last = path[-1]
            if odd == "DELETE":
                del holder[last]   # type: ignore[attr-defined]
            elif odd == "ADD":
                target = holder[last]   # type: ignore[index]
                if isinstance(target, dict):
                    target["extra key"] = 1
                elif isinstance(target, list):
                    target.append(target[0] if target else 1)
            else:
                holder[last] = odd   # type: ignore[index]
            found.append(changed)
    return found


def test_the_fast_board_check_accepts_only_what_jsonschema_accepts() -> None:
    from rulelang.boards import schema
    documents = _board_documents()
    assert all(schema._accepted_at_once(d) for d in documents)   # the fast path is taken
    checked = 0
    for document in documents:
        for variant in _variants(document):
            if schema._accepted_at_once(variant):   # type: ignore[arg-type]
                assert not list(schema._validator().iter_errors(variant)), variant
            checked += 1
    assert checked > 1000


# ---------------------------------------------------------------- the AST's cheap frozen dataclasses

def test_a_node_class_behaves_as_a_frozen_dataclass() -> None:
    import dataclasses

    from rulelang.nodes import node

    def define(decorate):  # type: ignore[no-untyped-def]
        class Base:
            span: int = dataclasses.field(compare=False, repr=False)

        class Thing(decorate(Base)):  # type: ignore[misc]
            name: str
            items: tuple[int, ...] = ()
            extra: list[int] = dataclasses.field(default_factory=list)
            flag: bool = dataclasses.field(default=False, kw_only=True)
        return decorate(Thing)

    made, real = define(node), define(dataclasses.dataclass(frozen=True))
    for args, kwargs in [((1, "a"), {}), ((2, "a", (1,)), {"flag": True}), ((3, "b"), {"extra": [4]})]:
        a, b = made(*args, **kwargs), real(*args, **kwargs)
        assert repr(a).replace("define.<locals>.", "") == repr(b).replace("define.<locals>.", "")
        assert a == made(9, *args[1:], **kwargs) and a.__match_args__ == b.__match_args__
        for thing in (a, b):   # a list field: no hash, as for a dataclass
            with pytest.raises(TypeError, match="unhashable type: 'list'"):
                hash(thing)
        assert hash(dataclasses.replace(a, extra=None)) == hash(dataclasses.replace(b, extra=None))
        assert a != b and dataclasses.replace(a, name="z").name == "z"
        for thing in (a, b):
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'name'"):
                thing.name = "x"
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'name'"):
                del thing.name
    assert made(1, "a").extra is not made(1, "a").extra
    def refusal(call, cls) -> str:  # type: ignore[no-untyped-def]
        with pytest.raises(TypeError) as error:
            call(cls)
        return str(error.value)

    for call in (lambda cls: cls(), lambda cls: cls(1, "a", (), [], True), lambda cls: cls(1, "a", nope=1)):
        local = "define.<locals>."
        assert refusal(call, made).replace(local, "") == refusal(call, real).replace(local, "")


# ---------------------------------------------------------------- schemas compiled once, kept

def _schema_file(name: str) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((ROOT / "rulelang" / "schemas" / name).read_text(encoding="utf-8"))
    return loaded


def _outcome(validate: object, data: object) -> str:
    try:
        validate(data)  # type: ignore[operator]
    except Exception as error:   # the generated code's JsonSchemaValueException
        return f"{type(error).__name__}: {error}"
    return "valid"


@pytest.mark.parametrize("name", ["state.schema.json", "protocol.schema.json"])
def test_a_kept_schema_gives_what_fastjsonschema_compiles(name: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import fastjsonschema

    from rulelang.files import compiled_schema
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    schema = _schema_file(name)
    if name.startswith("protocol"):
        schema = {"$ref": "#/definitions/request", "definitions": schema["definitions"]}
    reference = fastjsonschema.compile(schema)
    written, read_back = compiled_schema("test-schema", schema), compiled_schema("test-schema", schema)
    assert len(list((tmp_path / "rulelang").glob("test-schema-*"))) == 1
    for data in [{}, [], None, 3, {"format": 3}, {"op": "apply", "id": 1}, {"op": 5}, {"format": "x", "players": -1}]:
        assert _outcome(written, data) == _outcome(read_back, data) == _outcome(reference, data)
