"""The abstract syntax tree of scenario test files (``NAME.tests``, docs/scenarios.md): a
file's scenarios and their steps, frozen dataclasses with spans like the rulesets' own
(rulelang/ast.py), whose statements and expressions they hold."""
from __future__ import annotations

from rulelang.ast import Block, Expr, Node
from rulelang.nodes import node


@node
class Step(Node):
    """One step of a scenario; each kind below says what it does."""


@node
class SetPlayers(Step):
    """``players N``: the scenario's player count (before any step that plays)."""
    count: int


@node
class SetSeed(Step):
    """``seed N``: the seed of the game and of the chance outcomes no step names."""
    seed: int


@node
class FromPosition(Step):
    """``position "FILE"``: start from a position file (see ``State.to_position``)."""
    path: str


@node
class Given(Step):
    """``given { statements }``: change the state with the ruleset's own statements."""
    body: Block


@node
class Play(Step):
    """``play [PLAYER] "label", ... [prompt "text"]``: take actions by their labels
    (``chance`` as the player names chance outcomes); the prompt, if given, is checked first."""
    player: str | None
    labels: tuple[str, ...]
    prompt: str | None


@node
class Expect(Step):
    """``expect EXPR``: a condition that must hold now."""
    condition: Expr


@node
class ExpectOffered(Step):
    """``expect [not] offered [PLAYER] "label", ...``; ``expect options [PLAYER] ...`` (exactly
    these, in this order: ``exact``)."""
    player: str | None
    labels: tuple[str, ...]
    offered: bool = True
    exact: bool = False


@node
class ExpectPrompt(Step):
    """``expect prompt [PLAYER] "text"``: what that player is asked now."""
    player: str | None
    text: str


@node
class ExpectLog(Step):
    """``expect [not] log [PLAYER] "text"``: a line of the log holds the text (``not``: none
    does); with a player, a line of the narrated log that player sees."""
    text: str
    present: bool = True
    player: str | None = None


@node
class ExpectSeen(Step):
    """``expect [not] seen by PLAYER EXPR``: the components EXPR gives (one, a list or a
    zone's) are (``seen``) or are not shown in that player's observation."""
    player: str
    value: Expr
    seen: bool = True


@node
class Scenario(Node):
    """``scenario "name" { steps }``."""
    name: str
    steps: tuple[Step, ...]


@node
class Use(Node):
    """``use "FILE" [except "NAME", ...]`` or ``use "FILE" only "NAME", ...``: the scenarios
    of another test file, less those named (``only``: just those)."""
    path: str
    names: tuple[str, ...] = ()
    only: bool = False


@node
class TestsFile(Node):
    """A scenario test file: the ruleset it tests (None: the ``.rules`` file of the same
    name), the default player count, the test files it reuses, its scenarios, and the
    steps of its ``background`` block, which run first in each of its scenarios."""
    path: str
    ruleset: str | None
    players: int | None
    uses: tuple[Use, ...]
    scenarios: tuple[Scenario, ...]
    background: tuple[Step, ...] = ()   # steps that open every scenario of the file
