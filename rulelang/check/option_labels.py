"""The checks of the labels a choice gives its options (``choose m in LIST by p shown as
"text {m.a}"``): E101, a placeholder that names anything but the option (a label is
computed from its option alone); W311, a label that may be the same for two options (a
text without placeholders over a list that may hold two items), which is the runtime
error E602 when the choice offers them."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from rulelang import ast
from rulelang.check.tree import walk
from rulelang.diagnostics import Diagnostic


def check_option_label_names(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """E101: a placeholder of an option label that does not start with the option's name."""
    for choice in _labelled_choices(decls):
        assert choice.shown_as is not None
        for part in choice.shown_as.parts:
            root = _root(part)
            if root != choice.var:
                yield Diagnostic("E101", f"the label of an option names '{root}': its placeholders name the "
                                         f"option '{choice.var}' only (or its attributes)", choice.shown_as.span,
                                 hint=f"write '{{{choice.var}}}' or '{{{choice.var}.ATTRIBUTE}}', or say the rest in "
                                      f"'prompt'")


def check_option_labels_repeat(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """W311: an option label without placeholders over a list that may hold two items."""
    for choice in _labelled_choices(decls):
        assert choice.shown_as is not None
        if not choice.shown_as.parts and not _at_most_one(choice.source):
            yield Diagnostic("W311", f"every option of this choice is labelled {choice.shown_as.text!r}: with two "
                                     f"options or more the choice stops the game (E602)", choice.shown_as.span,
                             hint=f"name the option in the label: '{{{choice.var}}}' or "
                                  f"'{{{choice.var}.ATTRIBUTE}}'")


def option_label_parts(choice: ast.Choose) -> list[ast.Expr]:
    """The placeholders of ``choice``'s option label that name its option (the scopes check them)."""
    return [] if choice.shown_as is None else [p for p in choice.shown_as.parts if _root(p) == choice.var]


def _labelled_choices(decls: Sequence[ast.Decl]) -> Iterator[ast.Choose]:
    for node in walk(tuple(decls)):
        if isinstance(node, ast.Choose) and node.shown_as is not None:
            yield node


def _root(expr: ast.Expr) -> str:
    """The name a placeholder starts with (a name, or a name with attributes)."""
    while isinstance(expr, ast.Attribute):
        expr = expr.target
    return expr.name if isinstance(expr, ast.Name) else ""


def _at_most_one(source: ast.Expr) -> bool:
    """Whether a list certainly holds one item or none: one written out, or N..N."""
    if isinstance(source, ast.ListExpr):
        return len(source.items) <= 1
    return (isinstance(source, ast.BinaryOp) and source.op == ".." and isinstance(source.left, ast.Literal)
            and isinstance(source.right, ast.Literal) and source.left.value == source.right.value)
