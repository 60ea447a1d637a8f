"""docs/protocol.md gives the reply of every op as a table of fields ("The replies, field by
field"): the tables name exactly the fields of the protocol's schema, which closes every
object of a reply (tests/test_server.py checks that every reply fits the schema), so a client
written from the page alone knows every field the server sends."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rulelang.interpreter.hosts.protocol import schema
from rulelang.interpreter.hosts.sessions import OPS

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## The replies, field by field"


def documented_tables() -> dict[str, set[str]]:
    """The fields of each table of the section, by its heading: ``envelope`` and ``error`` for
    the two tables before the first op, then each op a heading names."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = text[text.index(SECTION):]
    section = section[:section.index("\n## ", len(SECTION))]
    parts = re.split(r"^### (.*)$", section, flags=re.M)
    first = re.split(r"\n\n(?=An `error`)", parts[0])
    tables = {"envelope": fields_of(first[0]), "error": fields_of(first[1])}
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        for op in re.findall(r"`(\w+)`", heading):
            tables[op] = fields_of(body)
    return tables


def fields_of(table: str) -> set[str]:
    """The fields the first column of a Markdown table names (several in a cell: `a`, `b`)."""
    found: set[str] = set()
    for row in re.findall(r"^\| (.+?) \|", table, flags=re.M):
        if row not in ("field", "---"):
            found.update(re.findall(r"`([\w.\[\]]+)`", row))
    return found


def schema_fields(node: Any, prefix: str = "") -> set[str]:
    """Every field of an object the schema ``node`` allows, nested ones as ``a.b`` and
    ``a[].b`` (items of a list)."""
    definitions = schema()["definitions"]
    while isinstance(node, dict) and "$ref" in node:
        node = definitions[node["$ref"].rsplit("/", 1)[1]]
    if not isinstance(node, dict):
        return set()
    found: set[str] = set()
    for key in ("allOf", "oneOf", "anyOf"):
        for part in node.get(key, []):
            found |= schema_fields(part, prefix)
    if isinstance(node.get("items"), dict):
        found |= schema_fields(node["items"], prefix + "[]")
    for name, value in node.get("properties", {}).items():
        path = f"{prefix}.{name}" if prefix else name
        found |= {path} | schema_fields(value, path)
    return found


def results_by_op() -> dict[str, Any]:
    """The schema of each op's result, from the reply's ``if op ... then result`` branches."""
    branches = schema()["definitions"]["ok_reply"]["allOf"]
    return {b["if"]["properties"]["op"]["const"]: b["then"]["properties"]["result"] for b in branches}


def test_every_op_has_a_table_that_names_exactly_the_fields_of_its_result() -> None:
    tables, results = documented_tables(), results_by_op()
    assert set(results) == set(OPS) and set(OPS) <= set(tables)
    for op in OPS:
        assert tables[op] == schema_fields(results[op]), op


def test_the_envelope_and_the_error_tables_name_exactly_their_fields() -> None:
    tables, definitions = documented_tables(), schema()["definitions"]
    envelope = set(definitions["ok_reply"]["properties"]) | set(definitions["error_reply"]["properties"])
    assert tables["envelope"] == envelope
    assert tables["error"] == schema_fields(definitions["error"])


def test_the_load_table_names_the_player_range_and_the_seats() -> None:
    assert {"min_players", "max_players", "seats"} <= documented_tables()["load"]
