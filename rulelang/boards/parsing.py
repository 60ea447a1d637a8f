"""Reading a board file's text (YAML, or JSON) safely into data and its YAML node tree,
within bounds on nesting and size, and the ``Locator`` that turns a path in the data
into a BoardError at the matching line and column of the file."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from .errors import BoardError

if TYPE_CHECKING:   # YAML is imported when a board file is read: a grid needs none
    import yaml

MAX_FILE_NODES = 500_000  # bound on YAML nodes (aliases counted once per use)
MAX_NESTING = 100  # bound on the brackets open at once: YAML's reader slows down with the square of it

# The data of a board file as parsed (YAML gives the same shapes as JSON).
JSON: TypeAlias = "str | int | float | bool | Mapping[str, JSON] | Sequence[JSON] | None"
DataPath = tuple[str | int, ...]   # where a value is in the data: keys and list indices


def parse_board_text(text: str, path: Path) -> tuple[JSON, yaml.Node | None]:
    """The data in ``text`` and its YAML node tree (None if not available)."""
    if _nesting(text) > MAX_NESTING:
        raise BoardError(f"board file is nested too deeply (more than {MAX_NESTING} brackets open at once)", path)
    if path.suffix.lower() == ".json":
        return _parse_json(text, path)
    root, data = _compose(text, path)
    if root is None:
        raise BoardError("board file is empty", path, 1, 1)
    return data, root


def _nesting(text: str) -> int:
    """The most brackets (``[`` or ``{``, in strings too) open at once in ``text``."""
    depth = deepest = 0
    for bracket in re.finditer(r"[\[\]{}]", text):
        if bracket.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(depth - 1, 0)
    return deepest


def _parse_json(text: str, path: Path) -> tuple[JSON, yaml.Node | None]:
    try:
        data: JSON = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardError(f"invalid JSON: {error.msg}", path, error.lineno, error.colno) from None
    try:  # JSON is YAML, whose nodes give line numbers; a raw tab in JSON is whitespace
        root, _ = _compose(text.replace("\t", " "), path)
    except BoardError:
        root = None
    return data, root


def _compose(text: str, path: Path) -> tuple[yaml.Node | None, JSON]:
    """Parse YAML safely, returning the node tree and the data built from it."""
    import yaml

    try:
        loader = yaml.SafeLoader(text)
    except yaml.YAMLError:   # a ReaderError's text quotes the file
        raise BoardError("invalid YAML: the file holds characters YAML does not allow", path) from None
    try:
        root = loader.get_single_node()
        if root is None:
            return None, None
        _check_nodes(root, path)
        data: JSON = loader.construct_document(root)
        return root, data
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        raise BoardError(f"invalid YAML: {error.problem or error.context}", path,
                         mark.line + 1 if mark else None, mark.column + 1 if mark else None) from None
    except yaml.YAMLError:   # a ReaderError's text quotes the file
        raise BoardError("invalid YAML: the file holds characters YAML does not allow", path) from None
    except RecursionError:
        raise BoardError("board file is nested too deeply", path) from None
    finally:
        loader.dispose()


def _check_nodes(root: yaml.Node, path: Path) -> None:
    """Refuse duplicate mapping keys, and node trees too big once aliases are expanded."""
    import yaml

    stack, count = [root], 0
    while stack:
        node = stack.pop()
        count += 1
        if count > MAX_FILE_NODES:
            raise BoardError(f"board file is too large (over {MAX_FILE_NODES} nodes, "
                             "counting every use of an alias)", path)
        if isinstance(node, yaml.MappingNode):
            _check_keys(node, path)
            stack.extend(n for pair in _pairs(node) for n in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(_items(node))


def _check_keys(node: yaml.MappingNode, path: Path) -> None:
    import yaml

    seen: set[object] = set()
    for key, _ in _pairs(node):
        if isinstance(key, yaml.ScalarNode):
            if key.value in seen:
                raise BoardError(f"duplicate key {key.value!r}", path, *_position(key))
            seen.add(key.value)


def _pairs(node: yaml.MappingNode) -> list[tuple[yaml.Node, yaml.Node]]:
    """The (key node, value node) pairs of a mapping node."""
    pairs: list[tuple[yaml.Node, yaml.Node]] = node.value
    return pairs


def _items(node: yaml.SequenceNode) -> list[yaml.Node]:
    """The item nodes of a sequence node."""
    items: list[yaml.Node] = node.value
    return items


def _position(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class Locator:
    """Turns a path in the data into a BoardError at the matching file position."""

    def __init__(self, root: yaml.Node | None, file: str | Path | None) -> None:
        self.root = root
        self.file = file

    def node(self, path: Iterable[str | int], key: str | None = None) -> yaml.Node | None:
        """The deepest node along ``path`` (the key node of ``key`` if given)."""
        node = self.root
        if node is None:   # data without a file (a grid): no node, and no YAML to import
            return None
        import yaml

        for part in path:
            child = _child(node, part)
            if child is None:
                return node
            node = child
        if key is not None and isinstance(node, yaml.MappingNode):
            node = next((k for k, _ in _pairs(node) if k.value == str(key)), node)
        return node

    def position(self, path: Iterable[str | int], key: str | None = None) -> tuple[int, int] | None:
        """The 1-based (line, column) of the node along ``path``; None without a file."""
        node = self.node(path, key)
        return None if node is None else _position(node)

    def error(self, message: str, path: DataPath = (), key: str | None = None) -> BoardError:
        """A BoardError for ``path`` whose message starts with the path."""
        where = _format_path(path if key is None else (*path, key))
        line, column = self.position(path, key) or (None, None)
        return BoardError(f"{where}: {message}", self.file, line, column)


def _child(node: yaml.Node | None, part: str | int) -> yaml.Node | None:
    import yaml

    if isinstance(node, yaml.MappingNode):
        return next((v for k, v in _pairs(node) if k.value == str(part)), None)
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
        return _items(node)[part]
    return None


def _format_path(path: Iterable[str | int]) -> str:
    """``("hexes", 0, "q")`` -> ``"hexes[0].q"``; the empty path is ``"board"``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text or "board"
