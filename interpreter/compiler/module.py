"""The generated code of one game: the namespace it runs in, its constants and its source.

The compiler (codegen.py, procedures.py) writes each expression and each procedure that
never pauses as Python source; ``Module.define`` compiles it in the game's namespace, which
holds the runtime helpers the code calls (``HELPERS``, under names of their own) and the
constants it names. ``Module.locate`` finds where in the rules a runtime error happened;
``Module.listing`` shows the code (``rulelang code``).
"""
from __future__ import annotations

import re
from types import TracebackType
from typing import Any, NamedTuple

from rulelang.boards import Space
from rulelang.diagnostics import Span

from ..model.program import DECIDED, PAUSED, Frame, Paused, runaway
from ..model.values import Component, Player, ZoneRef, display
from ..tables import effects, runtime
from ..tables.builtins import as_list, sequence
from . import accelerated, short_jumps
from .code_cache import FLAGS, CodeCache

HELPERS: dict[str, object] = {   # the runtime's operations and classes, by the names the code calls them
    "_as_list": as_list, "_sequence": sequence, "_items": runtime.items, "_plus": runtime.plus, "_times": runtime.times,
    "_minus": runtime.minus, "_divide": runtime.divide, "_modulo": runtime.modulo, "_negated": runtime.negated,
    "_range": runtime.inclusive_range, "_index": runtime.index, "_top": runtime.top, "_Visits": runtime.Visits,
    "_concat": runtime.concat, "_size_of": runtime.size_of, "_spec": runtime.component_spec, "_enter": runtime.enter,
    "_too_deep": runtime.too_deep, "_no_attribute": runtime.no_attribute, "_unbound": runtime.unbound,
    "_total": runtime.total,
    "_count": runtime.count, "_least": runtime.least, "_most": runtime.most, "_least_of_two": runtime.least_of_two,
    "_most_of_two": runtime.most_of_two, "_in_order": runtime.in_order, "_in_order_by": runtime.in_order_by,
    "_first_of": runtime.FIRST_OF, "_second_of": runtime.SECOND_OF,
    "_best": runtime.best, "_worst": runtime.worst, "_first": runtime.first, "_elements": runtime.elements,
    "_enter_procedure": runtime.enter_procedure, "_updated": effects.updated, "_set_global": effects.set_global,
    "_move": effects.move, "_supply_named": effects.supply_named, "_amount": effects.amount, "_log": effects.log,
    "_lazy_text": effects.lazy_text, "_reveal": effects.reveal, "_say": effects.say,
    "_turn_begins": effects.turn_begins,
    "_NAMED": effects.NAMED, "_MAX_INT": runtime.MAX_INT,
    "_runaway": runaway, "_Paused": Paused, "_PAUSED": PAUSED, "_DECIDED": DECIDED, "_Frame": Frame,
    "_new_frame": object.__new__,
    "_Player": Player, "_Component": Component, "_Space": Space, "_ZoneRef": ZoneRef,
    **{f"_order{i}": fn for i, fn in enumerate(runtime.ORDERINGS.values())},
}
ORDER_NAMES = {op: f"_order{i}" for i, op in enumerate(runtime.ORDERINGS)}
KIND_NAMES = {Player: "_Player", Component: "_Component", Space: "_Space"}
"""The names the generated code knows the orderings (``<``, ``<=``...) and the kinds of value by."""
CHEAP = re.compile(r"(\w+|\w+\[\w+\])$")
"""Generated source read twice at no cost and with no effect: a local, or an entry of the
environment."""


class Inline(NamedTuple):
    """The body of a generated operation ``op(st, fr)`` as the resumable function of its
    code writes it in place (resumable.py): ``lines`` at no indent, which read ``env`` and
    end by setting ``fr.pc = pc = ...``, where ``@next@`` is the operation after it and
    ``@0@``, ``@1@``... where the jump boxes ``boxes`` go; the span of each line (None: the
    operation's own span, for every line); and what it is, for the listing."""

    lines: tuple[str, ...]
    spans: tuple[Span | None, ...] | None
    boxes: tuple[list[int], ...]
    note: str = ""


class Module:
    """The generated code of one game: the namespace it runs in (helpers and constants) and
    the source of every function, in the order compiled."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = dict(HELPERS)
        self._constants: dict[object, str] = {}
        self._kept: list[object] = []  # constants known by identity, kept alive
        self._notes: dict[str, str] = {}
        self._count = 0
        self.units: dict[str, str] = {}  # the source of each function, by its name
        self.functions: dict[str, str] = {}  # function of the ruleset -> its generated name
        # For the code of a procedure (by its file name): the span of each line, the name of
        # the procedure, and the local of the rules that each Python local holds.
        self._spans: dict[str, list[Span | None]] = {}
        self._procedures: dict[str, str] = {}
        self._local_names: dict[str, dict[str, str]] = {}
        self.inline: dict[object, Inline] = {}  # operation -> its body, written in place by resumable.py
        self.in_place: set[str] = set()  # the operations that every resumable function writes in place
        self.codes: CodeCache | None = None  # the code objects kept across runs (code_cache.py), if any

    def fresh(self, prefix: str) -> str:
        """A name of the generated code not used before."""
        self._count += 1
        return f"{prefix}{self._count}"

    def constant(self, value: object, note: str = "") -> str:
        """The name of a constant holding ``value`` (the same name for the same value);
        ``note`` says what it is in the listing, where the value itself would not."""
        key: object = (type(value), value) if type(value) in (str, int) else id(value)
        name = self._constants.get(key)
        if name is None:
            name = self.fresh("_k")
            self._constants[key] = name
            self._kept.append(value)
            self.namespace[name] = value
            if note:
                self._notes[name] = note
        return name

    def constant_named(self, value: str | int) -> str | None:
        """The name of the constant holding ``value`` if one was made, else None."""
        return self._constants.get((type(value), value))

    def define(self, name: str, source: str, spans: list[Span | None] | None = None, procedure: str = "",
               local_names: dict[str, str] | None = None) -> Any:
        """Compile and run ``source``, which defines ``name``; the function it defines. The
        code of a procedure gives the span of each of its lines, the procedure's name, and
        which local of the rules each Python local holds (``locate``)."""
        filename = f"<rules:{name}>"
        if spans is not None:
            self._spans[filename], self._procedures[filename] = spans, procedure
            self._local_names[filename] = local_names or {}
        if not accelerated.FOLDER or self._built(name, source) is None:
            code = short_jumps.compiled(source, filename, FLAGS) if self.codes is None \
                else self.codes.compiled(source, filename)
            exec(code, self.namespace)  # our own source, names and constants only
        self.units[name] = source
        return self.namespace[name]

    def _built(self, name: str, source: str) -> Any:
        """The function ``name`` as a module built beforehand holds it (accelerated.py: an
        experimental switch, off by default), or None."""
        if not self.units:
            self.namespace = accelerated.built_namespace(name, source, self.namespace) or self.namespace
        return accelerated.built_function(self.namespace, name, source)

    def locate(self, error: BaseException) -> tuple[Span | None, str, BaseException] | None:
        """Where ``error`` happened in the code of a procedure (the innermost one on its
        traceback): the span of the statement, the procedure's name, and the error itself,
        or the rules' error for a local read before it had a value. None if it did not
        happen in a procedure's code."""
        found = None
        trace = error.__traceback__
        while trace is not None:  # (a line of no statement, the machinery of a resumable function, is not one)
            filename = trace.tb_frame.f_code.co_filename
            if filename in self._spans and self._span_at(filename, trace.tb_lineno) is not None:
                found = filename, trace.tb_lineno
            trace = trace.tb_next
        if found is None:
            return None
        filename, line = found
        span = self._span_at(filename, line)
        innermost = trace_end(error).tb_frame.f_code.co_filename if error.__traceback__ else ""
        if isinstance(error, KeyError) and innermost.startswith("<rules:") and error.args \
                and isinstance(error.args[0], str):  # a local of a block read before it has a value
            error = runtime.no_value(error.args[0])
        elif isinstance(error, KeyError) and innermost.startswith("<rules:") and error.args \
                and type(error.args[0]) is Player:   # a map read in place without that player's entry
            error = runtime.no_entry(error.args[0])
        elif isinstance(error, NameError):
            local = re.search(r"'(_l\d+)'", str(error))
            key = self._local_names[filename].get(local.group(1)) if local else None
            if key is not None:
                error = runtime.no_value(key)
        return span, self._procedures[filename], error

    def _span_at(self, filename: str, line: int) -> Span | None:
        spans = self._spans[filename]
        return spans[line - 1] if 0 < line <= len(spans) else None

    def listing(self) -> str:
        """The generated source of every function, with the constants it names."""
        constants = [f"# {name} = {self._notes.get(name) or _shown(self.namespace[name])}"
                     for name in self._constants.values()]
        shown = [source for name, source in self.units.items() if name not in self.in_place]  # (once, in place)
        return "\n".join([*constants, "", *shown])


def trace_end(error: BaseException) -> TracebackType:
    """The innermost entry of the traceback of ``error`` (which has one)."""
    trace = error.__traceback__
    assert trace is not None
    while trace.tb_next is not None:
        trace = trace.tb_next
    return trace


def _shown(value: object) -> str:
    """A constant as the listing shows it: a value of the rules as they write it, a function
    by its name."""
    if isinstance(value, (str, int)):
        text = repr(value)
    elif callable(value) and hasattr(value, "__qualname__"):
        text = f"<function {value.__qualname__}>"
    else:
        text = display(value)
    return text if len(text) <= 80 else text[:77] + "..."
