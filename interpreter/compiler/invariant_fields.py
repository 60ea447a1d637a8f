"""A field of a component that a compiled loop's body reads more than once, of a Python local
that the body uses for nothing else (``face_up.kind`` in each round), read once before the
loop into a local that the body reads.

The code reads a field bare (``x.record[K]``) only where ``x`` is certainly a component and
every component has the field (codegen.py: elsewhere behind a test of its type, another use
of the local, which leaves it as it is); a component's fields never change. So the read can
neither fail nor give another value before the loop than in any of its rounds; the local is
bound there (the rules' scopes: a name the body reads and does not bind is bound before the
loop), and the body, which uses it only so, never binds it again.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from rulelang.diagnostics import Span

from .patterns import pattern

_FIELD_READ = re.compile(r"\b(_l\d+)\.record\[(_k\d+)\]")


def fields_read_once(lines: list[tuple[str, Span | None]], at: int, fresh: Callable[[str], str]) -> int:
    """Before the loop whose ``for`` is ``lines[at]``, each such field read into a local that
    its body reads; where the ``for`` is then."""
    indent = len(lines[at][0]) - len(lines[at][0].lstrip())
    end = at + 1
    while end < len(lines) and (len(lines[end][0]) - len(lines[end][0].lstrip()) > indent or not lines[end][0].strip()):
        end += 1
    body = "\n".join(text for text, _ in lines[at + 1:end])
    reads = _FIELD_READ.findall(body)
    held = {read: fresh("_f") for read in sorted(set(reads)) if reads.count(read) > 1 and _only_fields(body, read[0])
            and not pattern(rf"\b{read[0]}\b").search(lines[at][0])}
    if not held:
        return at
    for k in range(at + 1, end):
        text, span = lines[k]
        lines[k] = _FIELD_READ.sub(lambda m: held.get((m.group(1), m.group(2)), m.group(0)), text), span
    span = lines[at][1]
    lines[at:at] = [(f"{' ' * indent}{local} = {read[0]}.record[{read[1]}]", span) for read, local in held.items()]
    return at + len(held)


def _only_fields(body: str, local: str) -> bool:
    """Whether ``body`` uses ``local`` only to read its fields."""
    return len(pattern(rf"\b{local}\b").findall(body)) == len(pattern(rf"\b{local}\.record\[_k\d+\]").findall(body))
