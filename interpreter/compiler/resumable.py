"""The lowered code of a procedure that may pause as one resumable generated function.

The run loop of a state (``State._run_until_decision``) once dispatched every operation of
a lowered procedure (lower.py) itself: a round of its loop, a look-up and a call each. The
function written here runs the operations of one ``Code`` from ``frame.pc`` on, with an
explicit resume table: a test on the program counter before each block of operations that
go on to the next (blocks.py: entered only at their first, their steps counted together),
in order, so that a block that goes on to the next finds it at once. Jumps and the rounds of a
'for' are written inline; every other operation is called. It stops after an operation
that may pause, end the game or change the running procedures (one not in ``Code.local``),
and when the procedure is past its last operation (it returns); the run loop goes on from
there. A state's position stays its frames' program counters, so saved states, clones and
replays keep their meaning: the function is only a faster way to run the same operations,
each counted as one step as before. The blocks where the run goes on after an operation that
pauses are written once more before the loop, each under one test (preludes.py): a function
entered there runs its block without the dispatch. ``frame.pc`` is written where something reads it: before
an operation that is called, passes the frame, may pause or fail outside a statement's span
(there it is the running operation, and errors are located by it), and before a step past
the budget fails (the operation the run loop would name); elsewhere the local ``pc`` alone
moves on, and an error is located by the span of its line. Code that Python cannot compile
keeps ``run_one``. The budget's tests are then taken out of the function's text, but before
each ``continue`` (optimistic.py): whatever fails in the function is run again one operation
at a time (state/precise.py), and located there.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..model.program import Code, Run, run_one
from ..tables.builtins import FREE_WORK
from . import tails
from .bare_tries import untried
from .blocks import blocks_at, dispatch, entries, jump_target
from .chance import shuffle_zone_in_place
from .fields_read_once import fields_read_once
from .globals_forwarded import globals_forwarded
from .held_reads import read_once, table_read_once
from .locals_read_once import locals_read_once
from .optimistic import untested
from .preludes import preludes
from .shuffled import SHAPE, shuffle_lines
from .tests_proven import tests_proven

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

    from .module import Inline, Module

__all__ = ["write_run"]

Line = tuple[str, "Span | None"]  # a line of the function, and the span of the statement it runs (None: none)


def write_run(code: Code, module: Module, integers: frozenset[str] = frozenset()) -> None:
    """Give ``code.ops`` its resumable function (left as it is if Python cannot compile it):
    the generated operations that go on in the code written in place (``Module.inline``),
    or all called if Python cannot compile that (it nests too deeply); in blocks entered at
    their first operation (blocks.py), a block that goes on to a short one known where it is
    written running its lines there (tails.py) where Python compiles that. ``integers``: the
    constants naming the global variables declared ``int`` (tests_proven.py)."""
    run_one_name = module.constant(run_one, "<the run loop's one operation>")
    for inline, joined in ((True, True), (True, False), (False, False)):
        name = module.fresh("_r")
        size = len(code.ops)
        operations = [_operation(code, at, module, inline) for at in range(size)]
        starts = entries(code, operations)
        held = {module.constant(local) for local in code.held}
        found = blocks_at(operations, code, starts, run_one_name)
        blocks = [(first, side, untried(table_read_once(read_once(body, held)), anywhere=True))
                  for first, side, body in found]   # (it locates no error: every 'try' of a local goes)
        blocks = tails.in_place(blocks) if joined else blocks
        lines = _plain([f"def {name}(st, fr, steps, limit):  # the resumable code of a procedure",
                        "    env = fr.env", "    pc = fr.pc"])
        ended = (size, None, _plain([line[12:] for line in _returned(code.name)] + ["return steps"]))
        lines += [*preludes(code, [*blocks, ended]), *_plain(["    while True:"])]   # (the end too, in place)
        lines += dispatch(blocks, size, "        ")
        lines += _plain([f"        if pc >= {size}:", *_returned(code.name), "            return steps",
                         "        fr.pc = pc   # (a position no block starts at)",
                         f"        return {run_one_name}(st, fr, steps, limit)"])
        lines = untested(lines)   # (the budget tested where the function goes back: optimistic.py)
        lines = locals_read_once(lines)   # (each block with its tails and preludes, as written)
        lines = tests_proven(lines, integers)   # (a guard decided by the test it follows)
        lines = globals_forwarded(lines)   # (a variable read from the local it was just written from)
        lines = fields_read_once(lines)   # (the state's tables read once a call)
        source = "\n".join(line for line, _ in lines) + "\n"
        try:
            run: Run = module.define(name, source, spans=[span for _, span in lines], procedure=code.name)
        except (SyntaxError, RecursionError, MemoryError):  # (too large for Python: run one by one)
            continue
        code.ops.run = run
        if inline:  # (the listing shows them there only)
            module.in_place.update(getattr(op, "__name__", "") for op in code.ops if op in module.inline)
        return


def _returned(name: str) -> list[str]:
    """The lines that return from the procedure ``name`` at its end: ``State.pop(None)``, in
    place where it only takes the frame off (another is under it, waiting for no value; the
    setup's end, which starts the first phase, calls it: its code is named ``setup``, a
    procedure of that name, if any, takes the general path too)."""
    if name == "setup":
        return ["            st.pop(None)"]
    return ["            _frames = st.frames",
            "            if len(_frames) > 1 and _frames[-1].ret is None:",
            "                _frames.pop()   # (State.pop(None) in place)",
            "            else:",
            "                st.pop(None)"]


_COUNT = ["steps += 1", "if steps > limit:", "    raise _runaway(limit)"]
# After a call that pushed a frame: the called procedure runs (while Python's own calls stay
# within NESTED of each other), and its caller goes on if it is the innermost again.
NESTED = 48
_CALLED = ["_called = st.frames[-1]",
           f"if _called is fr or len(st.frames) > {NESTED}:",
           "    return steps",
           "steps = (_run := _called.code.run)(st, _called, steps, limit)",   # (read, then called: no method call)
           "if st.pending is not None or st.terminal or st.frames[-1] is not fr:",
           "    return steps"]


_CALLS = ("push", "unpaused")  # the shapes of calls that may push frames


def _operation(code: Code, at: int, module: Module, inline: bool) -> list[Line]:
    """The lines that run operation ``at`` and leave ``pc`` where it goes on: ``fr.pc`` too
    where the lines read it or may fail outside a statement's span, else only where a step
    past the budget stops them (``_unwritten``)."""
    lines = _operation_lines(code, at, module, inline)
    unwritten = _unwritten(code, at, lines)
    if unwritten is None:
        return [(f"fr.pc = {at}", None), *lines]   # (as the operations before may not have written it)
    return unwritten


def _operation_lines(code: Code, at: int, module: Module, inline: bool) -> list[Line]:
    """The lines that run operation ``at`` and leave ``pc`` (and ``fr.pc``) where it goes on."""
    shape = code.shapes.get(at)
    if inline and shape is not None and shape[0] == "start" and shape[2] in module.inline:
        return _start_in_place(code, at, module, module.inline[shape[2]])
    body = module.inline.get(code.ops[at]) if inline and (shape is None or shape[0] in _CALLS) else None
    if body is not None and shape is not None:  # a call that pushed frames: the procedure called runs from here
        lines = _inlined(body, at, code.spans[at])
        went = _WENT.fullmatch(lines[-1][0])   # (where its lines wrote the frame's counter: no call changes it)
        return [*lines, *_plain(_after_call(shape[0], went.group(1) if went is not None else "fr.pc", decided=True))]
    if body is not None and at not in code.local:  # (one that may pause: the run loop goes on after it)
        return [*_inlined(body, at, code.spans[at]), *_plain([*_COUNT, "return steps"])]
    if body is not None:  # (a jump back skips the tests of the operations after it)
        goes_back = any(jump_target(box) <= at for box in body.boxes)
        back = ["if pc <= " + str(at) + ":", "    continue"] if goes_back else []
        return [*_inlined(body, at, code.spans[at]), *_plain([*_COUNT, *back])]
    return _plain(_called_operation(code, at, module))


_WRITTEN = re.compile(r"(\s*)fr\.pc = pc = ")
_WENT = re.compile(r"fr\.pc = pc = (\d+)")   # the last line of a call written in place: where it goes on
_KNOWN_START = re.compile(r"env\[\w+\] = \(_k\d+, 0\)")   # a 'for' starts its walk over a list known at load
_MACHINERY = re.compile(r"\s*(#.*|try:|except KeyError as error:|_seq, _i = env\[\w+\]|if _i >= len\(_seq\):|else:"
                        r"|del env\[\w+\]|env\[\w+\] = (_seq\[_i\]|\(_seq, _i \+ 1\)|\(_k\d+, 0\))"
                        r"|env\.pop\(\w+, None\)|continue"
                        r"|if pc <= \d+:|fr\.pc = pc = \d+|steps \+= 1|if steps > limit:|    raise _runaway\(limit\))$")


def _unwritten(code: Code, at: int, lines: list[Line]) -> list[Line] | None:
    """``lines`` that go on within the function (the operation is in ``Code.local``) with
    ``fr.pc`` written only before a step past the budget fails (``pc`` is what it would be):
    where no line reads the frame, and every line outside a statement's span is one of the
    walk of a 'for', a jump or the count (none of them fails: an error elsewhere is located
    by its line's span). A 'for' that starts a walk writes it first (``as_list`` may fail).
    None: the lines as they are, ``fr.pc`` written before them."""
    kind = code.shapes.get(at, ("",))[0]
    if at not in code.local and kind not in ("jump", "for", "drop", "start"):
        return None
    first = next(n for n, (line, _) in enumerate(lines) if _WRITTEN.match(line)) if kind == "start" else 0
    if first and all(_KNOWN_START.fullmatch(line) for line, _ in lines[:first]):   # (nothing in it fails)
        first = 0
    if any(_reads_the_frame(line, span) for line, span in lines[first:]):
        return None
    rest = [(_WRITTEN.sub(r"\1pc = ", line), span) for line, span in lines[first:]]
    rest = [(line.replace(_FAIL, f"fr.pc = pc; {_FAIL}"), span) for line, span in rest]
    return [*([(f"fr.pc = {at}", None), *lines[:first]] if first else []), *rest]


def _reads_the_frame(line: str, span: Span | None) -> bool:
    """Whether ``line`` may read ``fr.pc``: it names the frame (other than to write its
    counter), or it may fail where no statement's span locates it."""
    if _WRITTEN.match(line):
        return False
    return re.search(r"\bfr\b", line) is not None or (span is None and _MACHINERY.match(line) is None)


_FAIL = "raise _runaway(limit)"


def _inlined(body: Inline, at: int, span: Span | None) -> list[Line]:
    """The lines of an operation written in place (``Module.inline``), with where it goes on."""
    targets = {"@next@": str(at + 1), **{f"@{k}@": str(jump_target(box)) for k, box in enumerate(body.boxes)}}
    spans = body.spans if body.spans is not None else (span,) * len(body.lines)
    note: list[Line] = [(f"# {body.note}", None)] if body.note else []
    return [*note, *((re.sub(r"@\w+@", lambda m: targets[m.group(0)], line) if "@" in line else line, line_span)
                     for line, line_span in zip(body.lines, spans, strict=True))]


def _start_in_place(code: Code, at: int, module: Module, source: Inline) -> list[Line]:
    """A 'for' starts its walk, its list computed in place (``source``: its expression's
    lines, which leave the value in ``_x``) and made a list as ``_as_list`` does."""
    walk = module.constant(code.shapes[at][1])
    known = re.fullmatch(r"_x = (_k\d+)", source.lines[0]) if len(source.lines) == 1 else None
    if known is not None and _short_tuple(module.namespace[known.group(1)]):   # (a list known at load: no test)
        return _plain([f"env[{walk}] = ({known.group(1)}, 0)", f"fr.pc = pc = {at + 1}", *_COUNT])
    made = f"_x if type(_x) is tuple and len(_x) <= {FREE_WORK} else _as_list(st, _x)"  # (as_list's own test)
    return [*_inlined(source, at, code.spans[at]),
            *_plain([f"env[{walk}] = ({made}, 0)", f"fr.pc = pc = {at + 1}", *_COUNT])]


def _short_tuple(value: object) -> bool:
    """Whether ``value`` is a list that ``_as_list`` gives as it is (a tuple of at most FREE_WORK)."""
    return type(value) is tuple and len(value) <= FREE_WORK


def _plain(lines: list[str]) -> list[Line]:
    return [(line, None) for line in lines]


def _called_operation(code: Code, at: int, module: Module) -> list[str]:
    shape = code.shapes.get(at)
    if shape is not None and shape[0] == "jump":
        target = jump_target(shape[1])
        back = ["continue"] if target <= at else []
        return [f"fr.pc = pc = {target}", *_COUNT, *back]
    if shape is not None and shape[0] == "for":
        walk, var, end = (module.constant(shape[1]), module.constant(shape[2]), jump_target(shape[3]))
        return [f"_seq, _i = env[{walk}]",
                "if _i >= len(_seq):",
                f"    del env[{walk}]",
                f"    fr.pc = pc = {end}",
                "else:",
                f"    env[{var}] = _seq[_i]",
                f"    env[{walk}] = (_seq, _i + 1)",
                f"    fr.pc = pc = {at + 1}",
                *_COUNT, *(["continue"] if end <= at else [])]
    if shape is not None and shape[0] == "start":  # a 'for' starts its walk: (the list, the next index)
        source = module.constant(shape[2], f"<the list of operation {at}>")
        return [f"env[{module.constant(shape[1])}] = (_as_list(st, {source}(st, env)), 0)",
                f"fr.pc = pc = {at + 1}", *_COUNT]
    if shape is not None and shape[0] == "drop":  # a 'for' left by a jump out of it: its walk dropped
        return [f"env.pop({module.constant(shape[1])}, None)", f"fr.pc = pc = {at + 1}", *_COUNT]
    op = module.constant(code.ops[at], f"<operation {at}>")
    if shape is not None and shape[0] == SHAPE:   # a zone the rules name shuffled in place (shuffled.py)
        in_place = module.constant(shuffle_zone_in_place, "<a zone shuffled in place>")
        return shuffle_lines(op, at, module.constant(shape[1]), module.constant(shape[2]), in_place, _COUNT)
    if shape is not None and shape[0] in _CALLS:  # the call runs here, and the caller goes on after it
        return [f"{op}(st, fr)", *_after_call(shape[0])]
    if at in code.local:
        return [f"{op}(st, fr)", *_COUNT, "pc = fr.pc"]
    return [f"{op}(st, fr)", *_COUNT, "return steps"]


def _after_call(kind: object, going: str = "fr.pc", decided: bool = False) -> list[str]:
    """The lines after a call of shape ``kind`` (``_CALLS``): the frames it pushed (always for
    ``push``, only if it paused for ``unpaused``) run from here, then the caller goes on at
    ``going`` (the frame's counter, or the position the call's lines wrote to it: the frames
    called run with frames of their own, and change no other frame's counter). ``decided``:
    the call was written in place, its result in ``_r``; where the function made the decision
    it paused at (decided.py), that operation's step is counted here, and the run stops if
    it is pending."""
    if kind == "push":
        return [*_COUNT, *_CALLED, f"pc = {going}"]
    pushed = ["if st.frames[-1] is not fr:", *("    " + line for line in _CALLED)]
    if decided:   # (a decision pending now stops the run as the frame's first operation would: ``_called`` is not fr)
        pushed[1:3] = ["    steps += _r.decided   # (the step of the operation that made it)", pushed[1],
                       f"    if st.pending is not None or len(st.frames) > {NESTED}:"]
    return [*_COUNT, *pushed, f"pc = {going}"]


