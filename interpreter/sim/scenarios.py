"""Scenario tests: the scenarios of a test file (``NAME.tests``) run against its ruleset.

A scenario starts a game (a player count and a seed, or a position file), changes it with
the ruleset's own statements (``given { ... }``), takes actions by their labels (``play``)
and checks conditions written as expressions of the rules (``expect``). Each ``given``
block becomes a procedure of the game under test and each expectation a function, with
the players bound as ``p1``, ``p2``...: the checker and the compiler treat them like any
rule, so a misspelt name in a scenario gets the same diagnostic as one in a ruleset.

Chance outcomes that no ``play chance`` step names are drawn from the scenario's seed.
A scenario stops at its first failure: an expectation that does not hold (E701) or a step
that cannot run (E702: an action not offered, a player not to act...).
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulelang import ast, scenario_ast
from rulelang.check.checker import check
from rulelang.check.settings import Settings, read_settings
from rulelang.check.variants import read_source
from rulelang.diagnostics import Diagnostic, Span, errors_in
from rulelang.errors import RulelangError, RulesetError
from rulelang.files import FileAccessError, confined_path
from rulelang.syntax.scenario_blocks import parse_tests_apart

from ..game import Game
from ..model.program import Expr
from ..model.values import Component, Value, ZoneRef, display, who
from ..state.state import CHANCE, Action, State

MAX_CHANCE_STEPS = 100_000   # chance outcomes drawn in a row before a scenario is called a runaway
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
BOUND_NAMES = ("winners", "over", "to_act", "scores")   # what an expectation may name besides p1, p2...


@dataclass(frozen=True)
class ScenarioResult:
    """One scenario run: its name and place, and its failure (None: it passed)."""

    name: str
    span: Span
    players: int
    failure: Diagnostic | None = None

    @property
    def passed(self) -> bool:
        return self.failure is None


@dataclass
class FileResult:
    """The scenarios of one test file, and the problems that kept scenarios from running
    (a file that cannot be read or parsed, a ruleset with errors)."""

    path: str
    results: list[ScenarioResult] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)

    @property
    def failed(self) -> list[ScenarioResult]:
        return [r for r in self.results if not r.passed]


class StepFailed(Exception):
    """A scenario step failed; ``diagnostic`` says where and why."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


# ---------------------------------------------------------------- files

def find_test_files(paths: Iterable[str | Path]) -> list[Path]:
    """The test files that ``paths`` name: a ``.tests`` file, a ruleset (its ``.tests`` file
    of the same name, if any), a folder (every ``.tests`` file inside, sorted)."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += sorted(path.rglob("*.tests"))
        elif path.suffix == ".rules":
            found += [path.with_suffix(".tests")] if path.with_suffix(".tests").exists() else []
        else:
            found.append(path)
    return found


@dataclass
class _Sources:
    """The files a test file names, which must lie in ``root``, and the test files read so
    far (for the text of an expression in a message)."""

    root: Path
    texts: dict[str, str] = field(default_factory=dict)
    problems: list[Diagnostic] = field(default_factory=list)   # syntax errors of scenarios left out

    def parse(self, path: Path) -> scenario_ast.TestsFile:
        """The test file's AST; a scenario with a syntax error is left out of it, its
        diagnostics kept in ``problems``."""
        shown = str(path)
        self.texts[shown] = read_source(path, shown, what="test file")
        tests, problems = parse_tests_apart(self.texts[shown], shown)
        self.problems += problems
        return tests

    def named(self, name: str, where: Span) -> Path:
        """The file ``name`` written in the file of ``where``, checked to lie in the root;
        shown as that file's folder joined with the name."""
        try:
            confined_path(name, Path(where.file).parent, self.root)
        except FileAccessError as error:
            raise RulesetError([Diagnostic("E001", f"cannot read {error.shown}: {error.reason}", where)]) from None
        return Path(where.file).parent / name

    def text_of(self, span: Span) -> str:
        """The source text of ``span``, on one line."""
        lines = self.texts.get(span.file, "").splitlines()
        if not 0 < span.line <= span.end_line <= len(lines):
            return "?"
        if span.line == span.end_line:
            return lines[span.line - 1][span.column - 1:span.end_column - 1]
        parts = [lines[span.line - 1][span.column - 1:], *lines[span.line:span.end_line - 1],
                 lines[span.end_line - 1][:span.end_column - 1]]
        return " ".join(part.strip() for part in parts)


def _scenarios(tests: scenario_ast.TestsFile, sources: _Sources,
               seen: frozenset[str] = frozenset()) -> list[tuple[scenario_ast.Scenario, int | None]]:
    """The scenarios of ``tests``, each with the player count its own file gives (its
    ``players`` line, or None): those of the files it uses (less the ones it leaves out, or
    just the ones it names), then its own."""
    found: list[tuple[scenario_ast.Scenario, int | None]] = []
    for use in tests.uses:
        path = sources.named(use.path, use.span)
        if str(path) in seen or str(path) == tests.path:
            raise RulesetError([Diagnostic("E702", f"test files use each other in a circle: {use.path}", use.span)])
        inner = _scenarios(sources.parse(path), sources, seen | {tests.path})
        unknown = sorted(set(use.names) - {s.name for s, _ in inner})
        if unknown:
            raise RulesetError([Diagnostic("E702", f"{use.path} has no scenario named {unknown[0]!r}", use.span)])
        found += [(s, count) for s, count in inner if (s.name in use.names) == use.only]
    return found + [(_with_background(scenario, tests.background), tests.players) for scenario in tests.scenarios]


def _with_background(scenario: scenario_ast.Scenario,
                     background: tuple[scenario_ast.Step, ...]) -> scenario_ast.Scenario:
    """The scenario with its file's background steps after its settings."""
    settings = tuple(s for s in scenario.steps
                     if isinstance(s, (scenario_ast.SetPlayers, scenario_ast.SetSeed, scenario_ast.FromPosition)))
    rest = scenario.steps[len(settings):]
    return replace(scenario, steps=settings + background + rest) if background else scenario


# ---------------------------------------------------------------- running a file

def run_file(path: str | Path, root: str | Path | None = None, select: str | None = None) -> FileResult:
    """Run every scenario of the test file ``path`` (those whose name holds ``select``).
    Files it names (the ruleset, used test files, positions) must lie in ``root``: by default
    the test file's folder."""
    path = Path(path)
    result = FileResult(str(path))
    sources = _Sources(Path(root) if root is not None else path.parent)
    try:
        tests = sources.parse(path)
        scenarios = [(s, count) for s, count in _scenarios(tests, sources) if select is None or select in s.name]
        game_path = sources.named(tests.ruleset or path.with_suffix(".rules").name, tests.span)
        declarations, base_dir, shown = _read_ruleset(game_path, sources.root)
    except RulesetError as error:
        result.problems += sources.problems + error.diagnostics
        return result
    result.problems += sources.problems
    settings, _ = read_settings(declarations, shown)
    groups: dict[int, list[scenario_ast.Scenario]] = {}
    for scenario, own_count in scenarios:
        groups.setdefault(_player_count(scenario, own_count, tests.players, settings.players), []).append(scenario)
    for count, group in sorted(groups.items()):
        result.results += _run_group(group, count, declarations, settings, base_dir, shown, sources)
    result.results.sort(key=lambda r: (r.span.file != result.path, r.span.file, r.span.line))
    return result


def _read_ruleset(path: Path, root: Path) -> tuple[list[ast.Decl], Path, str]:
    from rulelang.loader import read_ruleset  # the facade: it builds games, so it imports this runtime
    declarations, base_dir, shown = read_ruleset(path, root=root)
    return declarations, base_dir, shown


def _player_count(scenario: scenario_ast.Scenario, own: int | None, this_file: int | None,
                  allowed: tuple[int, int]) -> int:
    """The scenario's player count: its own ``players`` step; else the count of the file it
    is written in where the ruleset under test allows it (a scenario reused by ``use`` keeps
    its file's); else the count of the file run; else the lowest the ruleset allows."""
    counts = [step.count for step in scenario.steps if isinstance(step, scenario_ast.SetPlayers)]
    if counts:
        return counts[-1]
    if own is not None and allowed[0] <= own <= allowed[1]:
        return own
    return this_file if this_file is not None else allowed[0]


def _run_group(scenarios: list[scenario_ast.Scenario], count: int, declarations: Sequence[ast.Decl], settings: Settings,
               base_dir: Path, shown: str, sources: _Sources) -> list[ScenarioResult]:
    """Run scenarios for ``count`` players: one game holds the rules of all of them. A
    scenario whose own rules have errors fails with the first; the others still run."""
    plans = [_Plan(scenario, count, number) for number, scenario in enumerate(scenarios, 1)]
    results: list[ScenarioResult] = []
    problems = errors_in(check([*declarations, *(d for p in plans for d in p.declarations)], shown, base_dir,
                               lint=True))
    runnable = []
    for plan in plans:
        own = [d for d in problems if d.span is not None and _within(d.span, plan.scenario.span)]
        if own:
            results.append(ScenarioResult(plan.scenario.name, plan.scenario.span, count, own[0]))
        else:
            runnable.append(plan)
    if not runnable:
        return results
    others = [d for d in problems if not any(d.span is not None and _within(d.span, s.span) for s in scenarios)]
    try:
        if others:
            raise RulesetError(others)
        game = Game([*declarations, *(d for p in runnable for d in p.declarations)], count, base_dir, settings)
    except RulesetError as error:
        first = error.diagnostics[0]
        return results + [ScenarioResult(p.scenario.name, p.scenario.span, count, first) for p in runnable]
    return results + [_run_scenario(game, plan, sources) for plan in runnable]


def _within(inner: Span, outer: Span) -> bool:
    return inner.file == outer.file and (outer.line, outer.column) <= (inner.line, inner.column) \
        and (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)


# ---------------------------------------------------------------- one scenario

class _Plan:
    """A scenario made ready to run: its ``given`` blocks as procedures, its expectations as
    functions (with the players as parameters ``p1``, ``p2``...)."""

    def __init__(self, scenario: scenario_ast.Scenario, count: int, number: int):
        self.scenario = scenario
        self.players = tuple(f"p{i + 1}" for i in range(count))
        self.declarations: list[ast.Decl] = []
        self.names: dict[int, str] = {}   # by id() of the step: equal steps may repeat
        span = scenario.span
        player_params = tuple(ast.Param(span, name, ast.TypeRef(span, "player")) for name in self.players)
        bound = (ast.Param(span, "winners", ast.TypeRef(span, "list", False, ast.TypeRef(span, "player"))),
                 ast.Param(span, "over", ast.TypeRef(span, "bool")),
                 ast.Param(span, "to_act", ast.TypeRef(span, "list", False, ast.TypeRef(span, "player"))),
                 ast.Param(span, "scores", ast.TypeRef(span, "list", False, ast.TypeRef(span, "int"))))
        for step in scenario.steps:
            where = f"{Path(step.span.file).name}:{step.span.line}:{step.span.column}, scenario {number}"
            if isinstance(step, scenario_ast.Given):
                self.names[id(step)] = f"given ({where})"
                self.declarations.append(ast.ProcedureDecl(step.span, self.names[id(step)], params=player_params,
                                                           body=step.body, name_span=step.span))
            elif isinstance(step, scenario_ast.Expect):
                self.names[id(step)] = f"expect ({where})"
                self.declarations.append(ast.FunctionDecl(
                    step.span, self.names[id(step)], params=player_params + bound,
                    result=ast.TypeRef(step.span, "bool"), body=step.condition, name_span=step.span))


def _run_scenario(game: Game, plan: _Plan, sources: _Sources) -> ScenarioResult:
    scenario = plan.scenario
    run = _Run(game, plan, sources)
    try:
        for step in scenario.steps:
            run.step(step)
    except StepFailed as failure:
        return ScenarioResult(scenario.name, scenario.span, game.num_players, failure.diagnostic)
    return ScenarioResult(scenario.name, scenario.span, game.num_players)


class _Run:
    """The state of one scenario as it runs, created at the first step that needs it."""

    def __init__(self, game: Game, plan: _Plan, sources: _Sources):
        self.game, self.plan, self.sources = game, plan, sources
        self.seed = 0
        self.chooser = random.Random(0)
        self._state: State | None = None
        self.players = {name: game.catalog.players[i] for i, name in enumerate(plan.players)}
        # events recorded only where a step reads a seat's narrated log: the rules run as a
        # host runs them (no event log) everywhere else
        self.narrated = any(isinstance(step, scenario_ast.ExpectLog) and step.player is not None
                            for step in plan.scenario.steps)

    def state(self, step: scenario_ast.Step) -> State:
        if self._state is None:
            self._state = self._start(step, None)
        return self._state

    def _start(self, step: scenario_ast.Step, position: State | None) -> State:
        try:
            state = position or self.game.new_initial_state(self.seed, explicit_chance=True, events=self.narrated)
        except RulelangError as error:
            raise StepFailed(_failure("E702", "the game cannot start", step, error.diagnostics)) from None
        return state

    def step(self, step: scenario_ast.Step) -> None:
        if isinstance(step, (scenario_ast.SetPlayers, scenario_ast.SetSeed, scenario_ast.FromPosition)):
            self._setting(step)
            return
        if not (isinstance(step, scenario_ast.Play) and step.player == "chance"):
            self._settle_chance(step)
        if isinstance(step, scenario_ast.Given):
            self._given(step)
        elif isinstance(step, scenario_ast.Play):
            for label in step.labels:
                self._play(step, label)
                if label != step.labels[-1] and step.player != "chance":
                    self._settle_chance(step)
        elif isinstance(step, scenario_ast.Expect):
            self._expect(step)
        elif isinstance(step, scenario_ast.ExpectOffered):
            self._expect_offered(step)
        elif isinstance(step, scenario_ast.ExpectPrompt):
            self._expect_prompt(step)
        elif isinstance(step, scenario_ast.ExpectLog):
            self._expect_log(step)
        elif isinstance(step, scenario_ast.ExpectSeen):
            self._expect_seen(step)

    # ---- steps ----
    def _setting(self, step: scenario_ast.Step) -> None:
        if self._state is not None:
            raise StepFailed(Diagnostic("E702", "players, seed and position come before the steps that play",
                                        step.span))
        if isinstance(step, scenario_ast.SetSeed):
            self.seed = step.seed
            self.chooser = random.Random(step.seed)
        elif isinstance(step, scenario_ast.FromPosition):
            self._state = self._from_position(step)

    def _from_position(self, step: scenario_ast.FromPosition) -> State:
        try:
            path = self.sources.named(step.path, step.span)
            text = read_source(path, str(path), what="position file")
            return self.game.state_from_position(text, path=str(path))
        except RulelangError as error:
            raise StepFailed(_failure("E702", f"cannot start from the position {step.path}", step,
                                      error.diagnostics)) from None

    def _given(self, step: scenario_ast.Given) -> None:
        state = self.state(step)
        name = self.plan.names[id(step)]
        state.pending = None   # the decision is asked again after the change
        try:
            state.push(name, dict(self.players), None)
            state.run()
        except RulelangError as error:
            raise StepFailed(_failure("E702", "the given block fails", step, error.diagnostics)) from None
        if any(frame.name == name for frame in state.frames):
            raise StepFailed(Diagnostic("E702", "a given block cannot ask for a decision or a chance outcome",
                                        step.span))
        broken = state.check_invariants()
        if broken:
            raise StepFailed(Diagnostic("E702", f"after this given block the invariant {broken[0]!r} does "
                                                f"not hold", step.span))
        state.origin, state.since_origin = state.clone(), 0   # an action that fails comes back here

    def _play(self, step: scenario_ast.Play, label: str) -> None:
        state = self.state(step)
        player = self._player(step, step.player)
        if step.prompt is not None:
            asked = state.prompt(player)
            if asked != step.prompt:
                raise StepFailed(Diagnostic("E701", f"{_who(player)} is asked {_quote(asked)}, not "
                                                    f"{_quote(step.prompt)}", step.span))
        actions = self._offered(step, player)
        chosen = next((a for a in actions if a.label == label), None)
        if chosen is None:
            raise StepFailed(Diagnostic("E702", f"{_who(player)} is not offered {label!r}",
                                        step.span, notes=(_offer_note(actions),)))
        try:
            state.apply_action(chosen, player)
        except RulelangError as error:
            raise StepFailed(_failure("E702", f"playing {label!r} fails", step, error.diagnostics)) from None

    def _expect(self, step: scenario_ast.Expect) -> None:
        state = self.state(step)
        holds = self._value(step, step.condition)
        if holds is True:
            return
        condition = step.condition
        message = f"expected {self.sources.text_of(condition.span)}, but {self._why(step, condition, holds)}"
        notes = (f"to act: {', '.join(_who(p) for p in state.current_players()) or 'nobody (the game is over)'}",)
        raise StepFailed(Diagnostic("E701", message, condition.span, notes=notes))

    def _why(self, step: scenario_ast.Step, condition: ast.Expr, holds: Value) -> str:
        """Why ``condition`` (whose value is ``holds``) is not true: the values of the sides
        of a comparison, found in the first part of an 'and' that does not hold."""
        if isinstance(condition, ast.BinaryOp) and condition.op == "and":
            for part in (condition.left, condition.right):
                value = self._value(step, part)
                if value is not True:
                    return f"{self.sources.text_of(part.span)} does not hold: {self._why(step, part, value)}"
        if isinstance(condition, ast.BinaryOp) and condition.op in COMPARISONS:
            sides = [(self.sources.text_of(side.span), self._value(step, side))
                     for side in (condition.left, condition.right) if not _written_out(side)]
            return " and ".join(f"{text} is {display(value)}" for text, value in sides)
        if holds is not False:
            return f"it is {display(holds)}, not true or false"
        return f"{self.sources.text_of(condition.span)} is false"

    def _value(self, step: scenario_ast.Step, expr: ast.Expr) -> Value:
        state = self.state(step)
        try:
            compiled: Expr = self.game.program.compile_expression(expr, (*self.players, *BOUND_NAMES))
            return state.evaluate(compiled, self._bound(state), expr.span)
        except RulelangError as error:
            raise StepFailed(_failure("E702", "the expectation cannot be evaluated", step,
                                      error.diagnostics)) from None

    def _bound(self, state: State) -> dict[str, Value]:
        players = self.game.catalog.players
        return {**self.players, "winners": tuple(players[i] for i in state.winners()),
                "over": state.is_terminal(), "to_act": tuple(players[i] for i in state.current_players()
                                                             if i != CHANCE),
                "scores": tuple(int(score) for score in state.returns())}

    def _expect_offered(self, step: scenario_ast.ExpectOffered) -> None:
        player = self._player(step, step.player)
        actions = self._offered(step, player)
        labels = [a.label for a in actions]
        if step.exact:
            wrong = labels != list(step.labels)
            problem = f"{_who(player)} is offered {_listed(labels)}, not {_listed(step.labels)}"
        else:
            missing = [label for label in step.labels if (label in labels) != step.offered]
            wrong = bool(missing)
            problem = f"{_who(player)} is {'not ' if step.offered else ''}offered {missing[0]!r}" if missing else ""
        if wrong:
            raise StepFailed(Diagnostic("E701", problem, step.span, notes=(_offer_note(actions),)))

    def _expect_prompt(self, step: scenario_ast.ExpectPrompt) -> None:
        player = self._player(step, step.player)
        asked = self.state(step).prompt(player)
        if asked != step.text:
            raise StepFailed(Diagnostic("E701", f"{_who(player)} is asked {_quote(asked)}, not {_quote(step.text)}",
                                        step.span))

    def _expect_log(self, step: scenario_ast.ExpectLog) -> None:
        state = self.state(step)
        lines, log = [*state.log, *(text for _, _, text in state.private_log)], "the log"
        if step.player is not None:
            player = self._player(step, step.player)
            if state.event_log is None:
                raise StepFailed(Diagnostic("E702", "this state records no events, so it has no narrated log "
                                                    "(a position's state does not)", step.span))
            lines, log = [str(line["text"]) for line in state.narration(player)], f"the log of {_who(player)}"
        holding = [line for line in lines if step.text in line]
        if step.present and not holding:
            raise StepFailed(Diagnostic("E701", f"no line of {log} holds {step.text!r}", step.span,
                                        notes=tuple(f"log: {line}" for line in lines[-3:])))
        if not step.present and holding:
            raise StepFailed(Diagnostic("E701", f"a line of {log} holds {step.text!r}: {holding[0]!r}", step.span))

    def _expect_seen(self, step: scenario_ast.ExpectSeen) -> None:
        state = self.state(step)
        player = self._player(step, step.player)
        value = self._value(step, step.value)
        if isinstance(value, ZoneRef):
            value = tuple(state.zones[value.slot])
        components = [value] if isinstance(value, Component) else list(value) if isinstance(value, tuple) else None
        if components is None or not all(isinstance(c, Component) for c in components):
            raise StepFailed(Diagnostic("E702", f"'seen by' needs a component, a list of components or a zone, "
                                                f"not {display(value)}", step.value.span))
        shown = set(_components_shown(state.observation(player)))
        wrong = [c for c in components if isinstance(c, Component) and (c.id in shown) != step.seen]
        if wrong:
            how = "does not show" if step.seen else "shows"
            raise StepFailed(Diagnostic("E701", f"the observation of {_who(player)} {how} {wrong[0].label!r}",
                                        step.span))

    # ---- helpers ----
    def _player(self, step: scenario_ast.Step, name: str | None) -> int:
        """The player a step names (``chance``, ``p1``...), or the only one to act."""
        state = self.state(step)
        to_act = state.current_players()
        if name is None:
            if len(to_act) != 1 or to_act[0] == CHANCE:
                listed = ", ".join(_who(p) for p in to_act) or "nobody (the game is over)"
                raise StepFailed(Diagnostic("E702", f"say which player: to act are {listed}", step.span))
            return to_act[0]
        if name == "chance":
            return CHANCE
        if name not in self.players:
            raise StepFailed(Diagnostic("E702", f"no player {name!r}: the players are "
                                                f"{', '.join(self.players)} (and chance)", step.span))
        return self.players[name].index

    def _offered(self, step: scenario_ast.Step, player: int) -> list[Action]:
        state = self.state(step)
        if player not in state.current_players():
            listed = ", ".join(_who(p) for p in state.current_players()) or "nobody (the game is over)"
            raise StepFailed(Diagnostic("E702", f"{_who(player)} is not to act; to act: {listed}", step.span))
        if player == CHANCE:
            return [action for action, _ in state.chance_outcomes()]
        return state.legal_actions(player)

    def _settle_chance(self, step: scenario_ast.Step) -> None:
        """Draw the chance outcomes due now from the scenario's seed."""
        state = self.state(step)
        for _ in range(MAX_CHANCE_STEPS):
            if not state.is_chance_node():
                return
            outcomes = state.chance_outcomes()
            (action,) = self.chooser.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])
            try:
                state.apply_action(action)
            except RulelangError as error:
                raise StepFailed(_failure("E702", "a chance outcome fails", step, error.diagnostics)) from None
        raise StepFailed(Diagnostic("E702", f"more than {MAX_CHANCE_STEPS} chance outcomes in a row", step.span))


def _components_shown(data: object) -> Iterator[int]:
    """The ids of the components an observation shows (``{"component": id, ...}`` anywhere)."""
    if isinstance(data, dict):
        if isinstance(data.get("component"), int):
            yield data["component"]
        for item in data.values():
            yield from _components_shown(item)
    elif isinstance(data, list):
        for item in data:
            yield from _components_shown(item)


def _written_out(expr: ast.Expr) -> bool:
    """Whether an expression is a value written out (5, -1, "x", [1, 2]): its value says
    nothing its text does not."""
    if isinstance(expr, ast.UnaryOp) and expr.op == "-":
        return _written_out(expr.operand)
    if isinstance(expr, ast.ListExpr):
        return all(_written_out(item) for item in expr.items)
    return isinstance(expr, ast.Literal)


def _who(player: int) -> str:
    return "chance" if player == CHANCE else f"p{player + 1} ({who(player)})"


def _quote(text: str | None) -> str:
    return "nothing" if text is None else repr(text)


def _listed(labels: Sequence[str]) -> str:
    return "[" + ", ".join(repr(label) for label in labels) + "]" if labels else "nothing"


def _offer_note(actions: Sequence[Action]) -> str:
    shown = ", ".join(repr(a.label) for a in actions[:20]) + (", ..." if len(actions) > 20 else "")
    return f"offered: {shown or 'nothing'}"


def _failure(code: str, message: str, step: scenario_ast.Step, causes: Sequence[Diagnostic]) -> Diagnostic:
    """A failure at ``step`` caused by the diagnostics of the rules (shown as notes)."""
    return Diagnostic(code, message, step.span, notes=tuple(str(d) for d in causes[:3]))


def summary(results: Sequence[FileResult]) -> str:
    """'85 scenarios: 84 passed, 1 failed (5 files)', with the files that could not run and
    those that ran without a scenario of theirs that could not be read."""
    total = sum(len(r.results) for r in results)
    failed = sum(len(r.failed) for r in results)
    broken = sum(1 for r in results if r.problems and not r.results)
    partly = sum(1 for r in results if r.problems and r.results)
    files = f"{len(results)} file{'s' if len(results) != 1 else ''}"
    text = f"{total} scenario{'s' if total != 1 else ''}: {total - failed} passed, {failed} failed ({files})"
    text += f"; {broken} file{'s' if broken != 1 else ''} could not run" if broken else ""
    return text + (f"; {partly} file{'s' if partly != 1 else ''} with problems (above)" if partly else "")


def diagnostics(results: Sequence[FileResult]) -> Iterator[tuple[FileResult, Diagnostic, str | None]]:
    """Every problem and failure, with the name of the failed scenario (None for a file's problem)."""
    for result in results:
        for problem in result.problems:
            yield result, problem, None
        for failed in result.failed:
            assert failed.failure is not None
            yield result, failed.failure, failed.name


__all__ = ["FileResult", "ScenarioResult", "diagnostics", "find_test_files", "run_file", "summary"]
