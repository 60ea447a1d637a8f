"""The protocol of ``rulelang serve`` as data: its version and limits, the checking of a
request against ``rulelang/schemas/protocol.schema.json``, and the error replies with their
codes (``Pnnn`` for a request refused, the engine's codes otherwise; docs/protocol.md).

Nothing here holds a game or a state: a ``Session`` (``sessions.py``) turns a checked request
into a reply, and the transports (``server.py``, ``web.py``) carry the lines.
"""
from __future__ import annotations

import functools
import importlib.resources
import json
import logging
import re
from collections.abc import Callable, Collection
from typing import Any

from rulelang.diagnostics import Diagnostic
from rulelang.errors import BUG_HINT, RulelangError
from rulelang.files import compiled_schema

PROTOCOL_VERSION = 1
SCHEMA = "schemas/protocol.schema.json"
MAX_LINE_BYTES = 1024 * 1024   # a request line, without its newline: ten times the largest saved state of games/
MAX_ID_LENGTH = 200            # characters of a request id that is a string

JSON = dict[str, Any]
LOG = logging.getLogger("rulelang.serve")   # one line for each client that went away, never a traceback
GONE = (ConnectionError, TimeoutError)       # a client that went away, or went quiet past its timeout


class ProtocolError(Exception):
    """A request the protocol refuses (code ``Pnnn``, docs/protocol.md) before the engine sees it."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")   # how a line can spell a surrogate code point


class TooLong:
    """Stands in the stream of lines for a line longer than the limit (which was dropped)."""


TOO_LONG = TooLong()


# ---------------------------------------------------------------- checking requests

def parse_json(line: bytes | str) -> object:
    """The JSON value of one line; P001 if it is not JSON (NaN and Infinity are not)."""
    try:
        return json.loads(line, parse_constant=_no_constant)
    except RecursionError:
        raise ProtocolError("P001", "the JSON nests too deeply") from None
    except ValueError as error:   # JSONDecodeError, UnicodeDecodeError, an integer too long
        raise ProtocolError("P001", f"not JSON: {shorten(str(error))}") from None


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def may_hold_surrogates(line: bytes | str) -> bool:
    """Whether a line's JSON may hold a lone surrogate: a text line, or one that spells one."""
    return isinstance(line, str) or SURROGATE_ESCAPE.search(line) is not None


def refuse_lone_surrogates(request: object) -> None:
    """P011 when a string or a key of the request holds a lone surrogate (``"\\ud800"`` in JSON): text
    that no UTF-8 reply, file name or message can hold. Walked without recursion."""
    pending: list[tuple[str, object]] = [("request", request)]
    while pending:
        where, value = pending.pop()
        if isinstance(value, str):
            check_encodable(value, where)
        elif isinstance(value, dict):
            for key, item in value.items():
                check_encodable(key, f"a key of {where}")
                pending.append((f"{where}.{shorten(key, 40)}", item))
        elif isinstance(value, list):
            pending.extend((f"{where}[{index}]", item) for index, item in enumerate(value))


def check_encodable(text: str, where: str) -> None:
    """P011 unless ``text`` can be written as UTF-8 (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        code_point = f"U+{ord(text[error.start]):04X}"
        raise ProtocolError("P011", f"{where} holds a lone surrogate ({code_point}), which is not text: "
                                    "send each character as itself or as a pair of \\u escapes") from None


def as_object(request: object) -> JSON:
    """The request, which must be a JSON object (P003)."""
    if not isinstance(request, dict):
        raise ProtocolError("P003", f"a request is a JSON object, not {json_type(request)}")
    return request


def request_id_of(request: JSON) -> object:
    """The request's ``id`` (None when it has none); P003 for one that cannot be echoed."""
    request_id = request.get("id")
    if request_id is None or (isinstance(request_id, str) and len(request_id) <= MAX_ID_LENGTH):
        return request_id
    if isinstance(request_id, int) and not isinstance(request_id, bool) and abs(request_id) < 2**53:
        return request_id
    raise ProtocolError("P003", f"the id must be a string of at most {MAX_ID_LENGTH} characters, "
                                f"an integer below 2^53 in size, or null, not {shorten(repr(request_id))}")


def op_of(request: JSON, ops: Collection[str]) -> str:
    """The request's ``op``: P003 if it has none, P004 if it names none of ``ops``."""
    op = request.get("op")
    if not isinstance(op, str):
        raise ProtocolError("P003", "a request needs an 'op': a string")
    if op not in ops:
        raise ProtocolError("P004", f"unknown op {shorten(repr(op))}; the ops are: {', '.join(sorted(ops))}")
    return op


def check_request(op: str, request: JSON) -> None:
    """P003 when the fields of the request do not fit its op (the schema's definition). A
    field's number is never a float: JSON Schema takes 1.0 for an integer, the engine not."""
    from fastjsonschema import JsonSchemaValueException

    check_fields(op, request)
    for name, value in request.items():
        if isinstance(value, float):
            raise ProtocolError("P003", f"request.{shorten(name, 40)} must be an integer, not {shorten(repr(value))}")
    try:
        _request_validator(op)(request)
    except JsonSchemaValueException as error:
        where = "request" + str(error.name or "data")[len("data"):]
        message = str(error.message)
        if message.startswith(str(error.name) + " "):
            message = message[len(str(error.name)) + 1:]
        raise ProtocolError("P003", f"{where} {shorten(message)}") from None


def check_fields(op: str, request: JSON) -> None:
    """P003 for a field the op does not take or one it needs, named in words."""
    definition = schema()["definitions"][f"request_{op}"]
    unknown = sorted(set(request) - set(definition["properties"]))
    if unknown:
        raise ProtocolError("P003", f"'{op}' takes no field {', '.join(repr(shorten(n, 40)) for n in unknown[:5])}; "
                                    f"its fields: {', '.join(sorted(definition['properties']))}")
    missing = [name for name in definition["required"] if name not in request]
    if missing:
        fields = "the field" if len(missing) == 1 else "the fields"
        raise ProtocolError("P003", f"'{op}' needs {fields} {', '.join(map(repr, missing))}")
    alternatives = [case["required"][0] for case in definition.get("oneOf", [])]
    if alternatives and sum(name in request for name in alternatives) != 1:
        raise ProtocolError("P003", f"'{op}' needs exactly one of the fields {' and '.join(map(repr, alternatives))}")


@functools.cache
def schema() -> JSON:
    """The protocol's JSON Schema, as shipped in the package."""
    text = importlib.resources.files("rulelang").joinpath(SCHEMA).read_text(encoding="utf-8")
    loaded: JSON = json.loads(text)
    return loaded


@functools.cache
def _request_validator(op: str) -> Callable[[object], object]:
    return validator(f"request_{op}")


@functools.cache
def validator(definition: str) -> Callable[[object], object]:
    """A definition of the schema (``request``, ``reply``, ``request_apply``...) compiled once."""
    return compiled_schema(f"protocol-{definition}",
                           {"$ref": f"#/definitions/{definition}", "definitions": schema()["definitions"]})


# ---------------------------------------------------------------- replies

def error_reply(request_id: object, op: str | None, error: ProtocolError | RulelangError) -> JSON:
    """``{"id", "ok": false, "error": {...}}``, with the op when the request named a known one."""
    reply: JSON = {"id": request_id}
    if op is not None:
        reply["op"] = op
    reply.update(ok=False, error=error_data(error))
    return reply


def error_data(error: ProtocolError | RulelangError) -> JSON:
    """An error as data: the first diagnostic's code, message, location and hint, and every
    diagnostic when the engine gave several (a ruleset with several problems)."""
    if isinstance(error, ProtocolError):
        return {"code": error.code, "message": error.message}
    data = diagnostic_data(error.diagnostic)
    if len(error.diagnostics) > 1:
        data["diagnostics"] = [diagnostic_data(d) for d in error.diagnostics]
    return data


def diagnostic_data(diagnostic: Diagnostic) -> JSON:
    """One diagnostic of an error reply: its code, message, location and hint."""
    data: JSON = {"code": diagnostic.code, "message": diagnostic.message}
    if diagnostic.span is not None:
        data["location"] = str(diagnostic.span)
    if diagnostic.hint is not None:
        data["hint"] = diagnostic.hint
    return data


def internal_error(error: BaseException) -> RulelangError:
    """A failure of rulelang itself (E900), reported instead of crashing the server."""
    return RulelangError([Diagnostic("E900", f"rulelang failed: {type(error).__name__}: {shorten(str(error))}",
                                     hint=BUG_HINT)])


def encode(reply: JSON) -> bytes:
    """One reply line, always: an E900 reply if the result cannot be written as JSON, a P011
    reply if it holds text that UTF-8 cannot (its id kept when that can be written)."""
    try:
        text = json.dumps(reply, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        error = ProtocolError("P011", "the reply would hold a lone surrogate, which is not text")
        return encode_plainly(error_reply(encodable_id(reply.get("id")), reply.get("op"), error))
    except (ValueError, TypeError, RecursionError) as failure:
        return encode_plainly(error_reply(encodable_id(reply.get("id")), reply.get("op"), internal_error(failure)))


def encode_plainly(reply: JSON) -> bytes:
    """A reply of the server's own (an error, with an id that can be written) as one line."""
    return json.dumps(reply, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"


def encodable_id(request_id: object) -> object:
    """The id, or None when it is text that UTF-8 cannot write."""
    if isinstance(request_id, str):
        try:
            request_id.encode("utf-8")
        except UnicodeEncodeError:
            return None
    return request_id


def shorten(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters (with "..."), for a message that quotes a client."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def json_type(value: object) -> str:
    """How a message names the JSON type of ``value`` ("an array", "null"...)."""
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def log_gone(server: str, peer: object, error: BaseException) -> None:
    """One line on the server's log for a client that went away mid-exchange."""
    LOG.warning("%s: a client went away (%s): %s", server, peer_name(peer), type(error).__name__)


def peer_name(peer: object) -> str:
    """A client's address as ``host:port`` (or as it came)."""
    if isinstance(peer, tuple) and len(peer) >= 2:
        return f"{peer[0]}:{peer[1]}"
    return str(peer)
