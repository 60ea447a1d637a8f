"""Text -> Lark tree -> AST. Nothing else: no checks, no semantics."""
from __future__ import annotations

import os
import sys
import typing
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedInput, VisitError

from . import ast
from .diagnostics import Diagnostic, Span
from .errors import RulesetError
from .syntax_errors import syntax_diagnostics

GRAMMAR = Path(__file__).with_name("grammar.lark")
MAX_NESTING = 200
MAX_DEPTH = 1000


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR.read_text(), parser="lalr", propagate_positions=True, maybe_placeholders=True,
                cache=_grammar_cache())


def _grammar_cache() -> str | bool:
    """A private file where Lark keeps the analysed grammar (checked against the grammar's
    hash on loading), so a command starts 0.2 s sooner; False when there is no such place."""
    try:
        home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulelang"
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        return str(home / f"grammar-py{sys.version_info[0]}{sys.version_info[1]}.lark-cache")
    except (OSError, RuntimeError):
        return False


def parse(text: str, path: str = "<text>") -> ast.Ruleset:
    """Parse ruleset text into an AST; raises RulesetError with every syntax diagnostic.
    The AST is immutable, so the same text read again (a base file that several variants
    extend) is parsed once."""
    return _parse(text, path)


@lru_cache(maxsize=32)
def _parse(text: str, path: str) -> ast.Ruleset:
    too_deep = _nesting_problem(text, path)
    if too_deep:
        raise RulesetError([too_deep])
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise RulesetError(syntax_diagnostics(error, text, path, _parser().parse)) from None
    except LarkError as error:  # pragma: no cover - lark internal failure
        raise RulesetError([Diagnostic("E002", f"cannot parse: {error}", Span.point(path, 1, 1))]) from None
    try:
        ruleset = _ToAst(path).transform(tree)
    except (RecursionError, VisitError) as error:
        if isinstance(error, VisitError) and not isinstance(error.orig_exc, RecursionError):
            raise
        raise RulesetError([_deepest_statement(tree, path)]) from None
    too_deep = _depth_problem(ruleset)
    if too_deep:
        raise RulesetError([too_deep])
    return ruleset


_EXPRESSIONS = typing.get_args(ast.Expr) + (ast.CompClause,)


def _deepest_statement(tree: Tree, path: str) -> Diagnostic:
    """E005 at the statement or declaration holding the deepest part of a parse tree too
    deep to turn into an AST ('not not not ...' thousands of times)."""
    deepest, anchor_of_deepest = -1, tree
    stack = [(tree, 0, tree)]
    while stack:
        node, depth, anchor = stack.pop()
        if node.data.endswith(("_stmt", "_decl")):
            anchor = node
        if depth > deepest:
            deepest, anchor_of_deepest = depth, anchor
        stack.extend((child, depth + 1, anchor) for child in node.children if isinstance(child, Tree))
    return Diagnostic("E005", f"this nests more than {MAX_DEPTH} deep", _span(path, anchor_of_deepest.meta),
                      hint="split it with 'let' or into procedures")


def _depth_problem(ruleset: ast.Ruleset) -> Diagnostic | None:
    """Refuse an AST deeper than MAX_DEPTH (a chain like 1+1+...+1 of thousands of terms),
    which the recursive later stages could not handle; point at the statement holding it."""
    stack = [(ruleset, 0, ruleset)]
    while stack:
        node, depth, anchor = stack.pop()
        if not isinstance(node, _EXPRESSIONS):
            anchor = node
        if depth > MAX_DEPTH:
            return Diagnostic("E005", f"this nests more than {MAX_DEPTH} deep", anchor.span,
                              hint="split it with 'let' or into procedures")
        for name in node.__dataclass_fields__:
            child = getattr(node, name)
            for item in (child if isinstance(child, tuple) else (child,)):
                for x in (item if isinstance(item, tuple) else (item,)):
                    if isinstance(x, ast.Node):
                        stack.append((x, depth + 1, anchor))
    return None


def _nesting_problem(text: str, path: str) -> Diagnostic | None:
    """Refuse absurd nesting before the recursive stages see it."""
    depth = 0
    line = col = 1
    for ch in text:
        if ch in "{[(":
            depth += 1
            if depth > MAX_NESTING:
                return Diagnostic("E005", f"brackets nest more than {MAX_NESTING} deep",
                                  Span.point(path, line, col), hint="split the rule into procedures")
        elif ch in "}])":
            depth -= 1
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
    return None


def _span(path: str, meta) -> Span:
    if getattr(meta, "empty", True):
        return Span.point(path, 1, 1)
    return Span(path, meta.line, meta.column, meta.end_line, meta.end_column)


def _token_span(path: str, tok: Token) -> Span:
    return Span(path, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok))


def _unquote(tok: Token) -> str:
    return bytes(str(tok)[1:-1], "utf-8").decode("unicode_escape") if "\\" in tok else str(tok)[1:-1]


_ARITH_NAMES = {"+": "+", "-": "-", "*": "*", "/": "/", "%": "%"}


@v_args(meta=True)
class _ToAst(Transformer):
    """One method per grammar rule; each builds one AST node."""

    def __init__(self, path: str):
        super().__init__(visit_tokens=False)
        self.path = path

    def _s(self, meta) -> Span:
        return _span(self.path, meta)

    # ---- file and declarations ----
    def start(self, meta, items):
        return ast.Ruleset(self._s(meta), self.path, tuple(items))

    def item(self, meta, children):
        override, decl = children
        if override is None:
            return decl
        return _with_override(decl)

    def _decl(self, cls, meta, name_tok, **fields):
        return cls(self._s(meta), str(name_tok), name_span=_token_span(self.path, name_tok), **fields)

    def game_decl(self, meta, children):
        title, *settings = children
        return ast.GameDecl(self._s(meta), "game", title=_unquote(title), settings=tuple(settings),
                            name_span=_token_span(self.path, title))

    def setting(self, meta, children):
        name, value = children
        return ast.Setting(self._s(meta), str(name), value)

    def extends_decl(self, meta, children):
        (path,) = children
        return ast.Extends(self._s(meta), "extends", path=_unquote(path), name_span=_token_span(self.path, path))

    def enum_decl(self, meta, children):
        name, values = children
        return self._decl(ast.EnumDecl, meta, name, values=values)

    def name_list(self, meta, children):
        return tuple(str(c) for c in children)

    def component_decl(self, meta, children):
        name, *fields, shown = children
        return self._decl(ast.ComponentDecl, meta, name, fields=tuple(fields), shown_as=shown)

    def field_decl(self, meta, children):
        name, typ = children
        return ast.FieldDecl(self._s(meta), str(name), typ)

    def show_clause(self, meta, children):
        return _unquote(children[0])

    def player_owner(self, meta, children):
        return "player"

    def space_owner(self, meta, children):
        return "space"

    def component_owner(self, meta, children):
        return "component"

    def deck_decl(self, meta, children):
        owner, name, typ, zone, size, contents = children
        return self._decl(ast.DeckDecl, meta, name, owner=owner, type=typ, zone=str(zone), contents=contents,
                          size=size)

    def deck_size(self, meta, children):
        return int(children[0])

    def zone_decl(self, meta, children):
        owner, name, typ, vis = children
        return self._decl(ast.ZoneDecl, meta, name, owner=owner, type=typ, visibility=vis)

    def var_decl(self, meta, children):
        owner, name, typ, initial, vis = children
        return self._decl(ast.VarDecl, meta, name, owner=owner, type=typ, initial=initial, visibility=vis)

    def supply_decl(self, meta, children):
        name, total, vis = children
        return self._decl(ast.SupplyDecl, meta, name, total=total, visibility=vis)

    def die_decl(self, meta, children):
        name, faces = children
        return self._decl(ast.DieDecl, meta, name, faces=faces)

    def board_decl(self, meta, children):
        name, source = children
        return self._decl(ast.BoardDecl, meta, name, source=source)

    def visibility(self, meta, children):
        return str(children[0])

    def simple_type(self, meta, children):
        name, optional = children
        return ast.TypeRef(self._s(meta), str(name), optional is not None)

    def list_type(self, meta, children):
        item, optional = children
        return ast.TypeRef(self._s(meta), "list", optional is not None, item)

    def setup_decl(self, meta, children):
        return ast.SetupDecl(self._s(meta), "setup", body=children[0], name_span=self._s(meta))

    def phase_decl(self, meta, children):
        name, body = children
        return self._decl(ast.PhaseDecl, meta, name, body=body)

    def procedure_decl(self, meta, children):
        name, *params, body = children
        return self._decl(ast.ProcedureDecl, meta, name, params=tuple(p for p in params if p is not None), body=body)

    def param(self, meta, children):
        name, typ = children
        return ast.Param(self._s(meta), str(name), typ)

    def score_decl(self, meta, children):
        name, value = children
        return ast.ScoreDecl(self._s(meta), str(name), value=value, name_span=_token_span(self.path, name))

    def tiebreak_decl(self, meta, children):
        name, value = children
        return ast.TiebreakDecl(self._s(meta), str(name), value=value, name_span=_token_span(self.path, name))

    def invariant_decl(self, meta, children):
        label, condition = children
        return ast.InvariantDecl(self._s(meta), _unquote(label), condition=condition,
                                 name_span=_token_span(self.path, label))

    # ---- statements ----
    def block(self, meta, children):
        return ast.Block(self._s(meta), tuple(children))

    def let_stmt(self, meta, children):
        return ast.Let(self._s(meta), str(children[0]), children[1])

    def roll_stmt(self, meta, children):
        return ast.Roll(self._s(meta), str(children[0]), str(children[1]))

    def random_stmt(self, meta, children):
        return ast.RandomPick(self._s(meta), str(children[0]), children[1])

    def call_let_stmt(self, meta, children):
        name, proc, args = children
        return ast.CallLet(self._s(meta), str(name), str(proc), args or ())

    def assign_stmt(self, meta, children):
        target, op, value = children
        return ast.Assign(self._s(meta), target, str(op), value)

    def if_stmt(self, meta, children):
        cond, body, *rest = children
        otherwise = rest.pop()
        branches = ((cond, body),) + tuple(rest)
        return ast.If(self._s(meta), branches, otherwise)

    def elif_clause(self, meta, children):
        return (children[0], children[1])

    def else_clause(self, meta, children):
        return children[0]

    def for_stmt(self, meta, children):
        return ast.For(self._s(meta), str(children[0]), children[1], children[2])

    def while_stmt(self, meta, children):
        return ast.While(self._s(meta), children[0], children[1])

    def repeat_stmt(self, meta, children):
        return ast.Repeat(self._s(meta), children[0])

    def repeat_until_stmt(self, meta, children):
        return ast.Repeat(self._s(meta), children[1], until=children[0])

    def break_stmt(self, meta, children):
        return ast.Break(self._s(meta))

    def continue_stmt(self, meta, children):
        return ast.Continue(self._s(meta))

    def choose_stmt(self, meta, children):
        var, source, chooser, otherwise = children
        return ast.Choose(self._s(meta), str(var), source, chooser, otherwise)

    def otherwise_clause(self, meta, children):
        return children[0]

    def menu_stmt(self, meta, children):
        chooser, *options = children
        return ast.Menu(self._s(meta), chooser, tuple(options))

    def option(self, meta, children):
        label, cond, body = children
        return ast.Option(self._s(meta), _unquote(label), cond, body)

    def simultaneous_stmt(self, meta, children):
        pvar, players, var, source = children
        return ast.Simultaneous(self._s(meta), str(pvar), players, str(var), source)

    def move_stmt(self, meta, children):
        return ast.Move(self._s(meta), children[0], children[1])

    def shuffle_stmt(self, meta, children):
        return ast.Shuffle(self._s(meta), children[0])

    def gain_stmt(self, meta, children):
        amount, supply, player = children
        return ast.Gain(self._s(meta), amount, str(supply), player)

    def pay_stmt(self, meta, children):
        amount, supply, payer, payee = children
        return ast.Pay(self._s(meta), amount, str(supply), payer, payee)

    def call_stmt(self, meta, children):
        return ast.CallStmt(self._s(meta), str(children[0]), children[1] or ())

    def return_stmt(self, meta, children):
        return ast.Return(self._s(meta), children[0])

    def next_stmt(self, meta, children):
        return ast.Next(self._s(meta), str(children[0]))

    def end_stmt(self, meta, children):
        return ast.EndGame(self._s(meta))

    def log_stmt(self, meta, children):
        return ast.Log(self._s(meta), children[0])

    # ---- expressions ----
    def if_expr(self, meta, children):
        return ast.IfExpr(self._s(meta), *children)

    def _chain(self, meta, children, op):
        result = children[0]
        for right in children[1:]:
            result = ast.BinaryOp(self._s(meta), op, result, right)
        return result

    def or_chain(self, meta, children):
        return self._chain(meta, children, "or")

    def and_chain(self, meta, children):
        return self._chain(meta, children, "and")

    def not_op(self, meta, children):
        return ast.UnaryOp(self._s(meta), "not", children[0])

    def compare(self, meta, children):
        if len(children) == 1 or children[1] is None:
            return children[0]
        left, op, right = children
        return ast.BinaryOp(self._s(meta), str(op), left, right)

    def in_op(self, meta, children):
        return ast.BinaryOp(self._s(meta), "in", children[0], children[1])

    def not_in(self, meta, children):
        return ast.BinaryOp(self._s(meta), "not in", children[0], children[1])

    def range_op(self, meta, children):
        if len(children) == 1 or children[1] is None:
            return children[0]
        return ast.BinaryOp(self._s(meta), "..", children[0], children[1])

    def arith(self, meta, children):
        result = children[0]
        for i in range(1, len(children), 2):
            result = ast.BinaryOp(self._s(meta), str(children[i]), result, children[i + 1])
        return result

    def neg(self, meta, children):
        return ast.UnaryOp(self._s(meta), "-", children[0])

    def attribute(self, meta, children):
        return ast.Attribute(self._s(meta), children[0], str(children[1]))

    def index(self, meta, children):
        return ast.Index(self._s(meta), children[0], children[1])

    def call(self, meta, children):
        name, args = children
        return ast.Call(self._s(meta), str(name), args or ())

    def arglist(self, meta, children):
        return tuple(children)

    def keyword_arg(self, meta, children):
        return ast.KeywordArg(self._s(meta), str(children[0]), children[1])

    def generator(self, meta, children):
        element, *clauses, key, descending = children
        return ast.Generator(self._s(meta), element, tuple(clauses), key, descending is not None)

    def comp_clause(self, meta, children):
        var, source, cond = children
        return ast.CompClause(self._s(meta), str(var), source, cond)

    def comprehension(self, meta, children):
        element, *clauses = children
        return ast.Comprehension(self._s(meta), element, tuple(clauses))

    def int_lit(self, meta, children):
        return ast.Literal(self._s(meta), int(children[0]))

    def str_lit(self, meta, children):
        return ast.Literal(self._s(meta), _unquote(children[0]))

    def true_lit(self, meta, children):
        return ast.Literal(self._s(meta), True)

    def false_lit(self, meta, children):
        return ast.Literal(self._s(meta), False)

    def none_lit(self, meta, children):
        return ast.Literal(self._s(meta), None)

    def name(self, meta, children):
        return ast.Name(self._s(meta), str(children[0]))

    def list_lit(self, meta, children):
        return ast.ListExpr(self._s(meta), tuple(c for c in children if c is not None))


def _with_override(decl: ast.Decl) -> ast.Decl:
    from dataclasses import replace
    return replace(decl, override=True)


sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
