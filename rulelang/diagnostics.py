"""Diagnostics as data: spans, codes and the one registry of every code.

A diagnostic is what the user sees when something is wrong: a code, a severity, a
location (``path:line:col``), a message and, where it helps, a hint. The letter of a code
tells its severity: ``E`` error, ``W`` warning, ``I`` information.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Span:
    """A region of a source file; lines and columns are 1-based, the end is exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    @staticmethod
    def point(file: str, line: int, column: int) -> Span:
        """A span one character wide."""
        return Span(file, line, column, line, column + 1)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Code:
    """One entry of the registry."""

    code: str
    name: str
    summary: str

    @property
    def severity(self) -> str:
        return SEVERITIES[self.code[0]]


SEVERITIES = {"E": "error", "W": "warning", "I": "info"}
UNNAMED_TEXT = "<text>"   # the file name of a text that comes from no file

_CODES = [
    # Reading files and syntax.
    Code("E001", "unreadable-file", "The file cannot be read or is not UTF-8 text."),
    Code("E002", "syntax-error", "The text does not follow the grammar of the language."),
    Code("E003", "unclosed-block", "A block opened with '{' is never closed."),
    Code("E004", "unexpected-end", "The file ends in the middle of a declaration or statement."),
    Code("E005", "too-deep", "The text nests deeper than the parser allows."),
    # Names.
    Code("E101", "unknown-name", "A name is used that is not declared anywhere in scope."),
    Code("E102", "duplicate-name", "Two declarations share one name."),
    Code("E103", "unknown-attribute", "An attribute ('.name') that no player, space or component has."),
    Code("E104", "unknown-phase", "A 'next' names a phase that does not exist."),
    Code("E105", "unknown-procedure", "A 'call' names a procedure that does not exist."),
    Code("W106", "shadowed-name", "A local name hides a declaration of the same name."),
    Code("W107", "unused-declaration", "A declaration that nothing uses."),
    Code("W108", "let-hides-outer", "A 'let' of a name bound outside its block: a new variable until the block ends."),
    # Types and arity.
    Code("E201", "wrong-arity", "A function or procedure gets the wrong number of arguments."),
    Code("E202", "bad-setting", "A game setting is unknown or has a value of the wrong kind."),
    Code("E203", "bad-target", "The left side of an assignment cannot be assigned to."),
    Code("E204", "misplaced-statement", "A statement stands where it cannot work (break outside a loop...)."),
    Code("E205", "bad-declaration", "A declaration is malformed (a visibility, a type or a deck that cannot be)."),
    Code("E206", "wrong-kind", "A value that plainly cannot work where it is used (a number where a zone is needed)."),
    Code("W207", "constant-comparison",
         "A comparison whose result is plain without running ('==' that is never true)."),
    Code("E208", "wrong-component-type",
         "A component moved into (or starting in) a zone that declares another component type."),
    # Graph.
    Code("W301", "unreachable-phase", "A phase that no path from the start reaches."),
    Code("W302", "no-way-to-end", "A phase from which the end of the game cannot be reached."),
    Code("W303", "loop-without-decision", "A loop with no decision, chance or exit inside: it may never end."),
    Code("E304", "no-phases", "The ruleset declares no phase to run."),
    Code("W305", "choice-without-options", "A choice that can never offer an option."),
    Code("W306", "procedure-always-recurses",
         "A procedure or function calls itself before it can return: it never ends."),
    Code("W309", "unreachable-statement", "Statements after one that always leaves the block: they never run."),
    Code("W310", "information-leak", "A public log line or a prompt shows what some of its readers may not see."),
    Code("W308", "choice-may-be-empty", "A choice over a filtered list without 'otherwise': it may have no option."),
    Code("W311", "option-labels-may-repeat",
         "A choice's 'shown as' may give two of its options one label (a runtime error, E602)."),
    Code("W312", "quiet-decision", "A decision in a quiet block: the narrated log never tells the choice made."),
    Code("W313", "quiet-turn", "A 'log turn' in a quiet block: the narrated log never heads the turn."),
    # Data.
    Code("E401", "bad-board-data", "A board data file is missing or breaks its schema."),
    Code("E402", "bad-deck", "A deck cannot be built from its declaration."),
    # Variants.
    Code("E501", "missing-base", "The file that a variant extends cannot be found."),
    Code("E502", "override-nothing", "An 'override' names a part that the base does not have."),
    Code("E503", "extension-cycle", "Variant files extend each other in a cycle."),
    Code("E504", "redeclared-without-override", "A variant redeclares a part of its base without 'override'."),
    Code("E505", "several-bases", "A ruleset extends more than one base."),
    Code("E506", "extension-too-deep", "A chain of 'extends' stands on more bases than the limit (64)."),
    Code("E507", "duplicate-part", "Two parts of one setup, phase or procedure share a name."),
    # Loading and running.
    Code("E601", "bad-player-count", "The number of players is outside the ruleset's range."),
    Code("E602", "runtime-error", "The rules did something impossible while running."),
    Code("E603", "runaway-execution", "The rules ran too long without reaching a decision."),
    Code("E604", "empty-choice", "A choice offered no option and has no 'otherwise'."),
    Code("E605", "invariant-broken", "A declared invariant does not hold."),
    Code("E606", "bad-state-data", "Saved state data or a position does not fit this game."),
    Code("E607", "illegal-call", "A host call that is not legal in this state (an action not offered...)."),
    Code("E608", "bad-agent-spec", "A line-up of agents that cannot be read or does not fit the game."),
    Code("E609", "missing-extra", "A feature asked for needs an optional package that is not installed."),
    Code("E610", "worker-failed", "A simulation's worker process or cluster failed or could not be reached."),
    # Scenario tests (rulelang test).
    Code("E701", "expectation-failed", "A scenario's expectation does not hold."),
    Code("E702", "scenario-step-failed", "A scenario step cannot run (an action not offered, a player not to act...)."),
    # Presentation (present { ... }).
    Code("E801", "unknown-presented-name",
         "A presentation names an enum value, component, board, variable, field or zone that does not exist."),
    Code("E802", "bad-presentation-property",
         "A presentation gives a thing a property it cannot have, or a value of the wrong form."),
    Code("E803", "not-a-colour", "A presentation's colour is not #rgb, #rrggbb or a colour name."),
    Code("E804", "face-names-missing-field",
         "A card face or a space label names a field or an attribute that its component or board lacks."),
    # rulelang itself.
    Code("E900", "internal-error", "rulelang itself failed: a bug in rulelang, not in the rules."),
]

REGISTRY: dict[str, Code] = {c.code: c for c in _CODES}


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a ruleset, a data file or a host call."""

    code: str
    message: str
    span: Span | None = None
    hint: str | None = None
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.code not in REGISTRY:
            raise KeyError(f"diagnostic code {self.code} is not in the registry")

    @property
    def severity(self) -> str:
        return REGISTRY[self.code].severity

    @property
    def location(self) -> Span:
        """The span, or the start of an unnamed text for a diagnostic that has none."""
        return self.span if self.span is not None else Span.point(UNNAMED_TEXT, 1, 1)

    def with_file(self, file: str) -> Diagnostic:
        """The same diagnostic, located in ``file`` when it had no span file."""
        if self.span is None:
            return replace(self, span=Span(file, 1, 1, 1, 1))
        return self

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        return f"{where}{self.code} {self.message}"


def errors_in(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics of severity error."""
    return [d for d in diagnostics if d.severity == "error"]
