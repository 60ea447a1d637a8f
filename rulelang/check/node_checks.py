"""The checks of single nodes of a declaration, with the kinds of its names (kinds.py): E206
for a value that plainly cannot work where a statement, a builtin, an operator, an
assignment or a rule uses it, and the warnings of choices that are always or possibly
empty. ``check_nodes`` runs them all in one walk."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from rulelang import ast
from rulelang.check.kinds import NOT_CONSTANT, Kind, Kinds, describe, kinds_by_declaration
from rulelang.check.signatures import SIGNATURES
from rulelang.check.tree import walk
from rulelang.check.zone_types import move_into_other_type
from rulelang.diagnostics import Diagnostic

# What a statement needs where: (requirement, what it is called).
_NEEDS = {
    "zone": ({"zone"}, "a zone"),
    "movable": ({"zone", "list", "component"}, "a component, a list of components or a zone"),
    "amount": ({"number"}, "a number"),
    "holder": ({"player", "component"}, "a player or a component"),
    "player": ({"player"}, "a player"),
    "player?": ({"player", "none"}, "a player or none"),
    "players": ({"list", "zone", "map"}, "a list of players"),
    "items": ({"list", "zone", "enum", "board", "die", "map"}, "a list, a range or a zone"),
    "shuffled": ({"zone", "list"}, "a zone or a list variable"),
}

_SLOTS: dict[type[ast.Node], tuple[tuple[str, str, str], ...]] = {
    ast.Move: (("what", "movable", "'move'"), ("to", "zone", "'move ... to'")),
    ast.Gain: (("amount", "amount", "'gain'"), ("player", "holder", "'gain ... to'")),
    ast.Pay: (("amount", "amount", "'pay'"), ("payer", "holder", "'pay ... from'"),
              ("payee", "holder", "'pay ... to'")),
    ast.Choose: (("source", "items", "'choose ... in'"), ("chooser", "player", "'choose ... by'")),
    ast.Menu: (("chooser", "player", "'choose by'"),),
    ast.Turn: (("player", "player?", "'log turn'"),),
    ast.Simultaneous: (("players", "players", "'simultaneous ... in'"),
                       ("source", "items", "'simultaneous ... choose ... in'")),
    ast.For: (("source", "items", "'for ... in'"),),
    ast.CompClause: (("source", "items", "'for ... in'"),),
    ast.RandomPick: (("source", "items", "'random'"),),
    ast.Shuffle: (("target", "shuffled", "'shuffle'"),),
}

_HINTS = {("player", "number"): "a player is written players[0], p, next_player(p)...: a number is not a player",
          ("player?", "number"): "a player is written players[0], p, next_player(p)...: a number is not a player",
          ("items", "number"): "a range of numbers is written 1..N",
          ("amount", "string"): "an amount is a number, written without quotes"}


def statement_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a value that plainly cannot work where a statement uses it (a number where a
    zone, a player or a component is needed...)."""
    for attr, need, what in _SLOTS[type(node)]:
        expr: ast.Expr | None = getattr(node, attr)
        kind = kinds.of(expr) if expr is not None else None
        if expr is None or kind is None or kind.single is None:
            continue
        allowed, wanted = _NEEDS[need]
        if kind.single not in allowed:
            yield Diagnostic("E206", f"{what} needs {wanted}, not {describe(kind.single)}", expr.span,
                             hint=_HINTS.get((need, kind.single)))


# What each kind of argument in the signature table accepts (signatures.py).
_ITEMS = frozenset(_NEEDS["items"][0])
_ARGUMENTS: dict[str, frozenset[str]] = {
    "items": _ITEMS, "list": _ITEMS, "enum": _ITEMS, "holder": frozenset({"player", "component"}),
    "number": frozenset({"number"}), "string": frozenset({"string"}), "player": frozenset({"player"}),
    "zone": frozenset({"zone"}), "space": frozenset({"space"}), "board": frozenset({"board"}),
    "supply": frozenset({"supply"}), "component": frozenset({"component"}),
}


def argument_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a builtin function given an argument that plainly cannot work (``size(3)``)."""
    if isinstance(node, ast.Call) and node.function in kinds.functions:
        yield from _function_argument_kinds(node, kinds.functions[node.function], kinds)
        return
    signature = SIGNATURES.get(node.function) if isinstance(node, ast.Call) else None
    if not isinstance(node, ast.Call) or signature is None or node.function in kinds.components:
        return
    if signature.arity_problem(sum(not isinstance(a, ast.KeywordArg) for a in node.args)):
        return   # E201 says what is wrong with this call
    for position, (arg, param) in enumerate(zip(node.args, signature.params, strict=False), 1):
        kind = kinds.of(arg) if not isinstance(arg, (ast.Generator, ast.KeywordArg)) else None
        allowed = _ARGUMENTS.get(param)
        if kind is not None and kind.single and allowed and kind.single not in allowed:
            yield Diagnostic("E206", f"argument {position} of {node.function}() needs {describe(param)}, "
                                     f"not {describe(kind.single)}", arg.span)


def _function_argument_kinds(node: ast.Call, function: ast.FunctionDecl, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a function of the ruleset given an argument that plainly is not of its parameter's type."""
    if len(node.args) != len(function.params):
        return   # E201 says what is wrong with this call
    for arg, param in zip(node.args, function.params, strict=True):
        kind = kinds.of(arg) if not isinstance(arg, (ast.Generator, ast.KeywordArg)) else None
        problem = _argument_problem(kind, kinds.declared(param.type))
        if problem is not None:
            yield Diagnostic("E206", f"argument '{param.name}' of {node.function}() is declared {param.type}, "
                                     f"not {problem}", arg.span)


def _argument_problem(given: Kind | None, wanted: Kind | None) -> str | None:
    """What ``given`` plainly is when it is not of the declared kind ``wanted`` (a map to
    values of another kind included); else None."""
    if given is None or wanted is None:
        return None
    if given.single and given.single not in wanted.classes:
        return describe(given.single)
    entry = _other_entries(given, wanted)
    return None if entry is None else f"a map to {describe(entry)}"


def _other_entries(given: Kind, wanted: Kind) -> str | None:
    """The kind of the values of ``given`` if it is plainly a map whose values are of
    another kind than ``wanted``'s; else None."""
    if given.single != "map" or "map" not in wanted.classes or given.item is None or wanted.item is None:
        return None
    entry = given.item.single
    return entry if entry is not None and entry not in wanted.item.classes else None


_UNORDERED = {"none", "supply", "die", "board", "zone", "enum"}


def _family(cls: str) -> str:
    """Kinds whose values can be equal or ordered between them: numbers and true/false are."""
    if cls == "bool":
        return "number"
    return "enum value" if cls.startswith("enum value:") else cls


def operator_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: an order or arithmetic between values that plainly cannot be ordered or computed."""
    if not isinstance(node, ast.BinaryOp) or node.op not in ("<", "<=", ">", ">=", "+", "-", "*", "/", "%"):
        return
    a, b = kinds.of(node.left), kinds.of(node.right)
    if a and b and a.single and b.single:
        problem = _operator_problem(node.op, a.single, b.single)
        if problem:
            yield Diagnostic("E206", problem, node.span)


# Kinds of value that have no attribute: 'top(draw, 2).rank' reads one of a list.
_WITHOUT_ATTRIBUTES = {"list": "take one item first: top(z) or xs[0]; or one per item: [c.NAME for c in xs]",
                       "number": None, "string": None, "bool": None}


def attribute_of_plain_value(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: an attribute of a value that is plainly a list, a number, a string or a truth
    value (the result of a builtin, a literal...), which have none."""
    if not isinstance(node, ast.Attribute):
        return
    kind = kinds.of(node.target)
    if kind is None or not kind.certain or kind.single not in _WITHOUT_ATTRIBUTES:
        return
    hint = _WITHOUT_ATTRIBUTES[kind.single]
    yield Diagnostic("E206", f"{describe(kind.single)} has no attribute '{node.name}'", node.span,
                     hint=hint.replace("NAME", node.name) if hint else None)


def _operator_problem(op: str, a: str, b: str) -> str | None:
    families = {_family(a), _family(b)}
    if op in ("<", "<=", ">", ">="):
        if families & _UNORDERED or len(families) > 1:
            return f"'{op}' cannot order {describe(a)} and {describe(b)}"
    elif op == "+":
        # numbers add, lists join, and anything joins a string as text
        if "string" not in families and families != {"number"} and families != {"list"}:
            return f"'+' cannot add {describe(a)} and {describe(b)}"
    elif op == "*":
        # numbers multiply; a list or a string repeats a number of times
        if families not in ({"number"}, {"list", "number"}, {"string", "number"}):
            return f"'*' cannot multiply {describe(a)} and {describe(b)}"
    elif families != {"number"}:
        return f"'{op}' cannot compute with {describe(a)} and {describe(b)}"
    return None


def comparison(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """W207: a comparison whose result is plain without running ('==' never true...)."""
    if not isinstance(node, ast.BinaryOp) or node.op not in ("==", "!="):
        return
    found = _equality(kinds.of(node.left), kinds.of(node.right))
    if found:
        equal, why = found
        verdict = "always true" if equal == (node.op == "==") else "never true"
        yield Diagnostic("W207", f"this comparison is {verdict}: {why}", node.span,
                         hint="compare values of the same kind" if not equal else None)


def _equality(a: Kind | None, b: Kind | None) -> tuple[bool, str] | None:
    """(always equal?, why) when it is plain whether two values are equal, else None."""
    if a is None or b is None:
        return None
    if a.value is not NOT_CONSTANT and b.value is not NOT_CONSTANT and _comparable_constants(a, b):
        if a.value == b.value:
            return True, f"{_show(a.value)} is always equal to {_show(b.value)}"
        return False, f"{_show(a.value)} and {_show(b.value)} are different values"
    if not (a.certain or b.certain):
        return None   # declared types are not enforced: only trust one against a plain value
    if (a.value is None and not b.certain) or (b.value is None and not a.certain):
        return None   # nor do they promise that a value is never none
    shared = {_family(c) for c in a.classes} & {_family(c) for c in b.classes}
    if shared and (shared != {"enum value"} or _enums(a) & _enums(b)):
        return None
    return False, f"{_describe_kind(a)} is never equal to {_describe_kind(b)}"


def _comparable_constants(a: Kind, b: Kind) -> bool:
    """Two constants of one kind, or two numbers (true and false count as 1 and 0)."""
    if a.single is None or b.single is None:
        return False
    return a.single == b.single or _family(a.single) == _family(b.single) == "number"


def _enums(kind: Kind) -> set[str]:
    return {c.split(":", 1)[1] for c in kind.classes if c.startswith("enum value:")}


def _describe_kind(kind: Kind) -> str:
    return " or ".join(sorted(describe(c) for c in kind.classes))


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return str(value[1])
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def assignment_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a value of one kind assigned to a variable declared of another, or '+=' and
    '-=' where they cannot compute."""
    if not isinstance(node, ast.Assign):
        return
    target, value = kinds.of(node.target), kinds.of(node.value)
    if target is None or value is None or target.single is None or value.single is None:
        return
    name = _target_name(node.target)
    have, want = _family(value.single), _family(target.single)
    if node.op == "-=" and want != "number":
        yield Diagnostic("E206", f"'-=' needs a number to subtract from, and {name} is {describe(target.single)}",
                         node.target.span)
    elif node.op in ("+=", "-=") and want == "number" and have != "number":
        yield Diagnostic("E206", f"'{node.op}' on {name}, a number, needs a number, not {describe(value.single)}",
                         node.value.span, hint=_HINTS.get(("amount", value.single)))
    elif node.op == "=" and have != want and "none" not in target.classes | {value.single}:
        yield Diagnostic("E206", f"{name} holds {describe(target.single)}: it cannot be set to "
                                 f"{describe(value.single)}", node.value.span)


def _target_name(target: ast.Expr) -> str:
    if isinstance(target, ast.Name):
        return f"'{target.name}'"
    if isinstance(target, ast.Attribute):
        return f"'{target.name}'"
    return "this"


_NUMERIC_AGGREGATES = frozenset({"sum", "min", "max"})


def aggregate_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: 'sum', 'min' or 'max' over values that are not numbers (cards rather than their
    ranks)."""
    if not (isinstance(node, ast.Call) and node.function in _NUMERIC_AGGREGATES and len(node.args) == 1) \
            or node.function in kinds.functions:
        return
    (arg,) = node.args
    item = kinds.of(arg.element) if isinstance(arg, ast.Generator) and arg.key is None else (
        kinds.item_of(arg) if not isinstance(arg, (ast.Generator, ast.KeywordArg)) else None)
    if item is None or item.single is None or _family(item.single) in ("number", "string"):
        return
    hint = (f"{node.function}(x.FIELD for x in ...) gives the number; best(x for x in ... by x.FIELD) the item"
            if item.single == "component" else None)
    yield Diagnostic("E206", f"{node.function}() needs numbers, and each item here is {describe(item.single)}",
                     arg.span, hint=hint)


def initial_value_kind(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a variable whose initial value is plainly not of its declared type."""
    if not isinstance(node, ast.VarDecl) or node.initial is None:
        return
    declared, value = kinds.declared(node.type), kinds.of(node.initial)
    if declared is None or value is None or value.single is None or value.single in declared.classes:
        return
    if _family(value.single) != _family(next(iter(declared.classes - {"none"}), "none")):
        yield Diagnostic("E206", f"'{node.name}' is declared {node.type}, but its initial value is "
                                 f"{describe(value.single)}", node.initial.span)


def rule_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a score or a tie-break that is not a number, an invariant that is not true or false."""
    if isinstance(node, (ast.ScoreDecl, ast.TiebreakDecl)) and node.value is not None:
        kind = kinds.of(node.value)
        if kind is not None and kind.single is not None and _family(kind.single) != "number":
            yield Diagnostic("E206", f"a {node.kind} must be a number, not {describe(kind.single)}", node.value.span)
    elif isinstance(node, ast.InvariantDecl) and node.condition is not None:
        kind = kinds.of(node.condition)
        if kind is not None and kind.single is not None and kind.single != "bool":
            yield Diagnostic("E206", f"an invariant must be true or false, not {describe(kind.single)}",
                             node.condition.span)




# ---------------------------------------------------------------- choices

def empty_choice(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """W305: a choice that can never offer an option (and has no 'otherwise')."""
    if isinstance(node, ast.Choose) and node.otherwise is None and _always_empty(node.source):
        yield Diagnostic("W305", "this choice can never offer an option", node.source.span,
                         hint="when reached it stops the game (E604): give it options, or add "
                              "'otherwise { ... }'")
    elif isinstance(node, ast.Simultaneous) and _always_empty(node.source):
        yield Diagnostic("W305", "this simultaneous choice can never offer an option", node.source.span,
                         hint="when reached it stops the game (E604): give it options")
    elif isinstance(node, ast.Menu) and all(_is_false(o.condition) for o in node.options):
        yield Diagnostic("W305", "every option of this choice is 'when false'", node.span,
                         hint="when reached it stops the game (E604): let at least one option be open")


def possibly_empty_choice(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """W308: a choice over a filtered list ('... if COND') with no 'otherwise': when no item
    passes the filter, the game stops with E604."""
    if isinstance(node, ast.Choose) and node.otherwise is None and isinstance(node.source, ast.Comprehension) \
            and any(_filters(c) for c in node.source.clauses) and not _always_empty(node.source):
        yield Diagnostic("W308", "this choice is over a filtered list and has no 'otherwise': when nothing "
                                 "passes the filter the game stops (E604)", node.source.span,
                         hint="add 'otherwise { ... }', or check 'if size(...) > 0' before choosing")


def _filters(clause: ast.CompClause) -> bool:
    """Whether a clause's condition may leave out many items: 'x != ONE' leaves out one only
    (the others of a list of players, say), which is not counted."""
    c = clause.condition
    if c is None:
        return False
    one_out = isinstance(c, ast.BinaryOp) and c.op == "!=" and any(
        isinstance(side, ast.Name) and side.name == clause.var for side in (c.left, c.right))
    return not one_out


def _always_empty(expr: ast.Expr | None) -> bool:
    """A list that is empty whatever the state: [], 5..1, a comprehension over one of those."""
    if isinstance(expr, ast.ListExpr):
        return not expr.items
    if isinstance(expr, ast.BinaryOp) and expr.op == "..":
        low, high = expr.left, expr.right
        return (isinstance(low, ast.Literal) and type(low.value) is int
                and isinstance(high, ast.Literal) and type(high.value) is int and low.value > high.value)
    if isinstance(expr, ast.Comprehension):
        return any(_always_empty(c.source) or _is_false(c.condition) for c in expr.clauses)
    return False


def _is_false(expr: ast.Expr | None) -> bool:
    return isinstance(expr, ast.Literal) and expr.value is False


NodeCheck = Callable[[ast.Node, Kinds], Iterator[Diagnostic]]

# Checks of one node, with the kinds of its declaration: node type -> checks.
NODE_CHECKS: dict[type[ast.Node], list[NodeCheck]] = {t: [statement_kinds] for t in _SLOTS}
NODE_CHECKS[ast.BinaryOp] = [operator_kinds, comparison]
NODE_CHECKS[ast.Call] = [argument_kinds, aggregate_kinds]
NODE_CHECKS[ast.Attribute] = [attribute_of_plain_value]
NODE_CHECKS[ast.Assign] = [assignment_kinds]
NODE_CHECKS[ast.VarDecl] = [initial_value_kind]
for _rule in (ast.ScoreDecl, ast.TiebreakDecl, ast.InvariantDecl):
    NODE_CHECKS[_rule] = [rule_kinds]
for _choice in (ast.Choose, ast.Simultaneous, ast.Menu):
    NODE_CHECKS.setdefault(_choice, []).append(empty_choice)
NODE_CHECKS[ast.Choose].append(possibly_empty_choice)
NODE_CHECKS[ast.Move].append(move_into_other_type)


def check_nodes(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """Every node check of NODE_CHECKS, in one walk over the declarations."""
    for decl, kinds in kinds_by_declaration(decls):
        for node in walk(decl):
            for node_check in NODE_CHECKS.get(type(node), ()):
                yield from node_check(node, kinds)
