"""The shapes that the lowered program and the run loop share.

A procedure is lowered to a ``Code``: a flat list of operations ``op(state, frame)`` that
each move ``frame.pc`` on, with the span of each for error messages. Expressions are
closures ``expr(state, env) -> Value``. A running procedure is a ``Frame``: its code, its
program counter and its local values (``env``), all plain data, so a state pauses and
resumes anywhere. A ``Decision`` is where the run loop stops for a choice or for chance.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeAlias

from rulelang import ast
from rulelang.diagnostics import Span

from .copies_apart import CopiesApart
from .values import Player, RuleError, Value, display

if TYPE_CHECKING:
    from ..state.state import State
    from ..tables.declared import Declared

Env: TypeAlias = dict[str, Value]
"""The local values of a running procedure, by name."""

Expr: TypeAlias = Callable[["State", Env], Value]
"""A compiled expression: reads the state and the locals, returns a value."""

Op: TypeAlias = Callable[["State", "Frame"], None]
"""A compiled operation: changes the state or the frame, and moves ``frame.pc`` on."""

Resume: TypeAlias = Callable[["State", "Frame", Value, int], None]
"""How a decision goes on once ``player`` (the last argument) has chosen ``value``."""

Options: TypeAlias = tuple[tuple[Value, ...], tuple[int, ...]]
"""The options of one player at a decision, and their action ids (in the same order)."""


Run: TypeAlias = Callable[["State", "Frame", int, int], int]
"""How the run loop runs a frame: ``run(state, frame, steps, limit)`` runs its operations
from ``frame.pc`` on, each counted as a step (at most ``limit`` steps in all, counting the
``steps`` done before), until one that may pause, end or change the running procedures; the
steps done then."""


def run_one(st: State, fr: Frame, steps: int, limit: int) -> int:
    """The ``Run`` of code that has no generated one: one operation of ``fr`` (or its return,
    when it is past its last operation), the steps done then."""
    ops = fr.code
    pc = fr.pc
    if pc >= len(ops):
        st.pop(None)
        return steps
    ops[pc](st, fr)
    steps += 1
    if steps > limit:
        raise runaway(limit)
    return steps


def runaway(limit: int) -> RuleError:
    """The error of a run that went ``limit`` steps without reaching a decision (E603)."""
    return RuleError(f"the rules ran {limit} steps without reaching a decision", "E603")


class Ops(list[Op]):
    """The operations of one lowered procedure, and how the run loop runs them (``run``: the
    code's generated resumable function, see compiler/resumable.py, or ``run_one``)."""

    __slots__ = ("run",)

    def __init__(self) -> None:
        super().__init__()
        self.run: Run = run_one


class Code:
    """One lowered procedure or phase: its operations and the span of each."""

    __slots__ = ("draws", "held", "hidden", "legacy", "legacy_size", "local", "name", "ops", "resumed", "shapes",
                 "shuffled", "spans", "stops")

    def __init__(self, name: str):
        self.name = name
        self.ops = Ops()
        self.spans: list[Span | None] = []
        # The operations (by index) that may stop the run for a decision or draw from the
        # random generator: before the first of them, a new game is the same whatever its seed.
        self.stops: set[int] = set()
        # The calls (by index) of a procedure whose Python function (compiler/unpaused.py) may
        # draw from the random generator without pausing: a new game's start stops before them too.
        self.draws: set[int] = set()
        # The operations that change nothing but the state's tables and this frame (never the
        # running procedures, the decision awaited or the end): the run goes on after them.
        self.local: set[int] = set()
        # The operations the resumable function writes inline, by index: ("jump", target) or
        # ("for", key of the walk, variable, where the loop ends), targets as jump boxes; or
        # ("push",), a call that starts a procedure (a new frame), which runs from there;
        # ("unpaused",), a call that runs one as a Python function, which pushes frames only
        # if it pauses (compiler/unpaused.py).
        self.shapes: dict[int, tuple[object, ...]] = {}
        # Saved states of formats 1 and 2 count one operation per statement, where a compiled
        # block is now one: the operation (index) that starts at each of those positions.
        self.legacy: dict[int, int] = {}
        self.legacy_size = 0  # the operations these formats counted so far
        # The locals whose type the code holds to across a pause, by name: a 'let' that alone
        # binds its name, a simultaneous choice's map (compiler/held.py); a state read back
        # is refused if one of its frames breaks them (E606).
        self.held: dict[str, Declared] = {}
        # The target of each 'shuffle', by the environment key of its items while under way: a
        # state read back that pauses in one is refused unless they are the zone's components.
        self.shuffled: dict[str, Expr] = {}
        # The 'let's that hide a local (compiler/let_keys.py), by name: the line and column of
        # each and its environment key, in the order of the text (saved states before format 4
        # named them by line and column: state/let_keys_read.py).
        self.hidden: dict[str, dict[str, tuple[int, int]]] = {}
        # The operations the run may go on at other than from the one before them or after a
        # pause or a call: where jumps and tests go, a menu's options, a choice's 'otherwise'
        # (the resumable function is entered there; an operation after a jump that none of
        # them is can be reached only from a saved state, and runs as any other position does).
        self.resumed: set[int] = set()


class Frame:
    """One running procedure: its code, program counter, local values, and the caller's
    variable that receives its return value."""

    __slots__ = ("code", "env", "name", "pc", "ret")

    def __init__(self, name: str, code: Ops, pc: int, env: Env, ret: str | None = None):
        self.name = name  # (one assignment each: faster than one of a tuple, and states copy frames often)
        self.code = code
        self.pc = pc
        self.env = env
        self.ret = ret

    def copy(self) -> Frame:
        """An independent copy (the locals are copied; the values themselves are immutable)."""
        other = _new_frame(Frame)  # (no __init__ to call)
        other.name, other.code, other.pc, other.ret = self.name, self.code, self.pc, self.ret
        other.env = self.env.copy()
        return other


_new_frame = object.__new__


class Paused:
    """What the Python function of a procedure that may pause returns when, this time, it
    reaches a statement that pauses (or that it does not run itself): it has pushed the frame
    that goes on from there; ``count`` is the frames pushed so far by the calls now returning,
    innermost last (compiler/unpaused.py)."""

    count = 1   # (the class's until ``under`` counts more: no __init__ to call, no __slots__ then)
    # The steps its caller counts for the innermost procedure: 1 where it made the decision of
    # the statement it paused at itself, as the operation its frame stands at would (``DECIDED``:
    # that operation's step; the caller runs the frame no further while the decision is pending).
    decided = 0

    def handed(self, st: State, ret: str | None) -> None:
        """The caller's ``ret`` receives what the procedure called returns (its frame is the
        first of those pushed)."""
        st.frames[len(st.frames) - self.count].ret = ret

    def under(self, st: State, name: str, code: Ops, pc: int, env: Env, ret: str | None) -> Paused:
        """The calling procedure ``name`` (itself run as a Python function) goes on at ``pc``
        with ``env`` once the procedures it called are done: its frame goes under theirs.
        (``PAUSED``, the one every pause returns, is never counted on: a new one counts.)"""
        frames = st.frames
        at = len(frames) - self.count
        frames[at].ret = ret
        frames.insert(at, Frame(name, code, pc, env))
        paused = self
        if self is PAUSED or self is DECIDED:   # (the shared ones: a new one counts on)
            paused = Paused()
            paused.decided = self.decided
        paused.count = self.count + 1
        return paused


PAUSED = Paused()
"""What a procedure that pauses returns where no caller has counted on it yet (count 1): one
object for every pause, not one made and freed each time (``Paused.under`` counts on a new one)."""

DECIDED = Paused()
DECIDED.decided = 1
"""``PAUSED`` where the procedure also made the decision of the statement it paused at, as
the operation its frame stands at would (compiler/unpaused.py: only for a caller that counts
that operation's step, the resumable function of a procedure; run alone, the operation makes
it)."""


def pause(st: State, name: str, code: Ops, pc: int, env: Env) -> Paused:
    """Procedure ``name``, run as a Python function, stops before operation ``pc`` of its
    lowered ``code``: its frame (with the locals ``env``) goes on from there in the run loop."""
    st.frames.append(Frame(name, code, pc, env))
    return PAUSED


_ASKS = {"choose": "choice"}  # what a decision asks for, by its kind, where the two differ


class Decision:
    """A point where the run stops for a choice. Rebuilt by re-running its operation, so it
    is never serialized. ``kind`` is choose, menu, simultaneous or chance; a simultaneous
    choice has options per player (``per_player``), the others one list for ``players``.
    A decision with options per player (a pick, compiler/picks.py) goes on by its ``resume``
    and is never shared: ``State.apply_action`` and ``legal_actions`` read neither ``binds``,
    ``goes`` nor ``shared`` of it (class attributes of a pick's class, which CPython 3.11 reads
    through an instance by its generic lookup; the rerun of a failed action one operation at
    a time, state/precise.py, reads them: None on a pick's class). A decision that ``binds`` a
    local (a choice) never has options per player: ``State.apply_action`` tests ``binds`` first.

    Its ``__init__`` is object's: a decision is made blank by a call of the class with no
    arguments (no Python function called, no tuple of arguments made: ``object.__new__(cls)``
    packs its argument in one and checks it), its fields then set by its maker:
    ``made_decision``, or a choice's ``offered`` in place (compiler/choices.py)."""

    __slots__ = ("actions", "asks", "binds", "chosen", "goes", "ids", "kind", "options", "per_player", "players",
                 "probs", "prompt_of", "resume", "shared", "span", "then")

    kind: str
    players: tuple[int, ...]
    options: tuple[Value, ...]
    ids: tuple[int, ...]
    resume: Resume
    probs: tuple[float, ...]
    per_player: dict[int, Options] | None
    chosen: tuple[int, ...]   # in a simultaneous choice: the players who have already chosen
    # What is asked, for one of ``players``: computed only when a host asks for it, from the
    # state that asks (clones share their decision: it holds no state of its own); the
    # statement that asks; and what kind of answer it wants (see State.decision).
    prompt_of: Callable[[State, int], str] | None
    span: Span | None
    asks: str
    # How the run goes on, as data where it can (``State.apply_action`` then needs no call of
    # ``resume``): the local that takes the value chosen, and the operation after. A menu's:
    # the operation each option goes on at, in the order of the options.
    binds: str | None
    then: int
    goes: tuple[int, ...] | None
    # Whether many states share this decision (a 'choose' keeps its decisions, of one player
    # each), and then its legal actions, the host's Action objects, kept when first asked
    # (``Decisions.legal_actions``).
    shared: bool
    actions: tuple[Any, ...] | None  # (Actions, of the state layer above: Any, not a cast per call)

    def options_of(self, player: int) -> Options:
        """The options of ``player`` (one of ``players``) and their action ids."""
        if self.per_player is not None:
            return self.per_player[player]
        return self.options, self.ids


def made_decision(kind: str, players: tuple[int, ...], options: tuple[Value, ...], ids: tuple[int, ...],
                  resume: Resume, probs: tuple[float, ...] = (), per_player: dict[int, Options] | None = None,
                  chosen: tuple[int, ...] = (), prompt_of: Callable[[State, int], str] | None = None,
                  span: Span | None = None, asks: str = "", binds: str | None = None, then: int = 0,
                  goes: tuple[int, ...] | None = None) -> Decision:
    """A new decision with these fields, not shared and with no actions kept (``asks`` by
    default what its kind asks). Every argument may be given by position (a menu's, made at
    each decision, is made faster so than with keywords)."""
    decision = Decision()
    decision.kind = kind
    decision.players = players
    decision.options = options
    decision.ids = ids
    decision.resume = resume
    decision.probs = probs
    decision.per_player = per_player
    decision.chosen = chosen
    decision.prompt_of = prompt_of
    decision.span = span
    decision.asks = asks or _ASKS.get(kind, kind)
    decision.binds = binds
    decision.then = then
    decision.goes = goes
    decision.shared = False
    decision.actions = None
    return decision


class LogTemplate:
    """The fixed texts of a log message ``"text" + a + b...``: ``texts`` around its values
    (one more than the values), ``layout`` its operands after the first text in their order
    (a literal text, or None for the next value), and ``room``: the characters left within
    the longest line kept unbuilt when each value shows at its widest (``effects.log_template``;
    negative: never kept unbuilt at once); ``item``: the most characters an item of a list of
    names shows as, its separator included (by default more than any line: such a list is
    then never counted short). ``PLAIN`` (no texts) joins its values only."""

    __slots__ = ("item", "layout", "room", "texts")

    def __init__(self, texts: tuple[str, ...], layout: tuple[str | None, ...], room: int, item: int = 1 << 30):
        self.texts, self.layout, self.room, self.item = texts, layout, room, item

    def text(self, values: tuple[Value, ...]) -> str:
        """The line of ``values``: each shown as the rules show it, between the texts."""
        texts = self.texts
        if not texts:
            return "".join([value if type(value) is str else display(value) for value in values])
        parts = [texts[0]]
        for value, text in zip(values, texts[1:], strict=True):
            parts.append(value if type(value) is str else display(value))
            parts.append(text)
        return "".join(parts)

    def operands(self, values: tuple[Value, ...]) -> list[Value]:
        """The operands after the first text, as the message wrote them: its literal texts
        and ``values`` in their places."""
        given = iter(values)
        return [next(given) if text is None else text for text in self.layout]


PLAIN = LogTemplate((), (), -1)
"""The template of a line that is its values joined (``plain_line``)."""


LogLine: TypeAlias = tuple[Any, ...]
"""A line of the log kept unbuilt: a plain tuple ``(template, value, value...)``, a
``LogTemplate`` then the values of its line; its text is built only when someone reads the
log (``State.log``, ``line_text``). The values are immutable and show the same whenever they
are shown (a zone shows its name, not what it holds), so the text is the one the statement
would have built. (A plain tuple, not a class of its own: a tuple is made and freed at C
speed, where the call of a subclass of tuple and its deallocation cost about a thousand
instructions a line.) A list of lines holds texts and such tuples: a line is a text once
``type(line) is str``."""


def plain_line(pieces: Iterable[Value]) -> LogLine:
    """The line of ``pieces`` joined, each value shown as the rules show it."""
    return (PLAIN, *pieces)


def line_text(line: str | LogLine) -> str:
    """The text of a line of the log: a text as it is, a line kept unbuilt built (its
    template's texts around its values)."""
    if isinstance(line, str):
        return line
    template: LogTemplate = line[0]
    return template.text(line[1:])


PlayerValues: TypeAlias = Callable[["State", Sequence[Player]], list[Value]]
"""A per-player rule's values for each of a list of players, in one call (compiler/player_rules.py)."""


class PlayerRule(NamedTuple):
    """A rule computed per player, ``score p = ...`` or ``tiebreak p = ...``: its value for
    one player (``value``, the player bound to ``variable``) and for each of a list of them."""

    kind: str
    variable: str
    value: Expr
    span: Span
    of_players: PlayerValues


class Invariant(NamedTuple):
    """A declared invariant: its label and its compiled condition."""

    label: str
    condition: Expr
    span: Span


@dataclass(frozen=True)
class InitialValues:
    """The compiled initial value of each variable, by owner (``me`` is the owner)."""

    global_values: dict[str, Expr] = field(default_factory=dict)
    player_values: dict[str, Expr] = field(default_factory=dict)
    space_values: dict[str, Expr] = field(default_factory=dict)
    component_values: dict[str, Expr] = field(default_factory=dict)


class GeneratedCode(Protocol):
    """The Python code a game's rules were compiled to (the compiler's ``Module``)."""

    def locate(self, error: BaseException) -> tuple[Span | None, str, BaseException] | None:
        """Where ``error`` happened in the code of a procedure: its span, the procedure's
        name and the error to report; None if not in a procedure's code."""

    def listing(self) -> str:
        """The generated source of every function, with the constants it names."""


ExpressionCompiler: TypeAlias = Callable[[ast.Expr, Iterable[str]], Expr]
"""How a host compiles an expression of the rules (checked with the ruleset) with the local
names it binds: ``compile_expression(expr, scope)``."""


@dataclass(frozen=True)
class Program:
    """What a game's rules were compiled to (``compile_program``): the lowered code of each
    phase and procedure (``$setup`` for the setup), the rules computed per player, the
    initial values of the variables and the invariants, and the generated code itself."""

    code: Mapping[str, Code]
    score: PlayerRule | None
    tiebreak: PlayerRule | None
    initial_values: InitialValues
    invariants: tuple[Invariant, ...]
    generated: GeneratedCode
    never_pausing: Mapping[str, str]
    """The procedures compiled to Python functions (they never pause), with their names."""
    compile_expression: ExpressionCompiler
    apart: CopiesApart | None = None
    """The zones the rules never bring a component that has a copy to (zone_flow.py): a state
    made from data checks them (``CopiesApart.check``)."""
