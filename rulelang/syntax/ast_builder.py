"""Lark tree -> AST: ``AstBuilder``, the Lark transformer with one method per grammar rule,
each building one AST node, and the reading of the texts in a ruleset (string literals and
their escapes, the placeholders of prompts). It works with an explicit stack
(``Transformer_NonRecursive``), so no input can exhaust Python's stack while it is read."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import replace
from typing import TypeAlias, TypeVar, cast

from lark import Token, v_args
from lark.tree import Meta

from rulelang import ast, scenario_ast
from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import RulesetError
from rulelang.syntax.parts import Spliced, splice_parts, spliced
from rulelang.syntax.placeholders import PLACEHOLDER
from rulelang.syntax.present_builder import PresentBuilder
from rulelang.syntax.syntax_errors import token_span

MAX_INT_DIGITS = 18  # an integer literal is below 10**18


# ---------------------------------------------------------------- string literals

_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|.)")
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def unquote(literal: str) -> str:
    """The text of a string literal: quotes removed, escapes decoded (``\\n``, ``\\t``,
    ``\\r``, ``\\"``, ``\\\\``, ``\\u00e9``, ``\\U0001F3B2``, ``\\x41``); other characters,
    non-ASCII ones included, stay as written, and so does an unknown escape."""
    return _ESCAPE.sub(_decode_escape, literal[1:-1])


def _decode_escape(match: re.Match[str]) -> str:
    escape = match.group(1)
    if len(escape) == 1:
        return _SIMPLE_ESCAPES.get(escape, match.group(0))
    code = int(escape[1:], 16)
    return chr(code) if code <= sys.maxunicode else match.group(0)


# ---------------------------------------------------------------- tree -> AST

def _meta_span(path: str, meta: Meta) -> Span:
    if meta.empty:
        return Span.point(path, 1, 1)
    return Span(path, meta.line, meta.column, meta.end_line, meta.end_column)


Branch: TypeAlias = "tuple[ast.Expr, ast.Block]"   # a condition and the block it guards


@v_args(meta=True, inline=True)
class AstBuilder(PresentBuilder):
    """One method per grammar rule, taking the rule's parts; each builds one AST node.
    ``None`` stands for an optional part ``[...]`` that the text leaves out."""

    _unquote = staticmethod(unquote)   # how the presentation's texts are read too

    def __init__(self, path: str) -> None:
        super().__init__(visit_tokens=False)
        self.path = path
        # Each rule's method bound once: lark's v_args wrapper builds a new bound wrapper at
        # every lookup, once a node otherwise (a fifth of building the AST).
        for name in _RULE_METHODS:
            self.__dict__[name] = getattr(self, name)

    def _span(self, meta: Meta) -> Span:
        return _meta_span(self.path, meta)

    def _name_span(self, token: Token) -> Span:
        return token_span(self.path, token)

    # ---- file and declarations ----
    def start(self, meta: Meta, *items: ast.Decl) -> ast.Ruleset:
        return ast.Ruleset(self._span(meta), self.path, items)

    def item(self, meta: Meta, override: Token | None, decl: ast.Decl) -> ast.Decl:
        return decl if override is None else replace(decl, override=True)

    def game_decl(self, meta: Meta, title: Token, *settings: ast.Setting) -> ast.GameDecl:
        return ast.GameDecl(self._span(meta), "game", title=unquote(title), settings=settings,
                            name_span=self._name_span(title))

    def setting(self, meta: Meta, name: Token, value: ast.Expr) -> ast.Setting:
        return ast.Setting(self._span(meta), str(name), value)

    def extends_decl(self, meta: Meta, path: Token) -> ast.Extends:
        return ast.Extends(self._span(meta), "extends", path=unquote(path), name_span=self._name_span(path))

    def enum_decl(self, meta: Meta, name: Token, values: tuple[str, ...]) -> ast.EnumDecl:
        return ast.EnumDecl(self._span(meta), str(name), values=values, name_span=self._name_span(name))

    def name_list(self, meta: Meta, *names: Token) -> tuple[str, ...]:
        return tuple(str(n) for n in names)

    def component_decl(self, meta: Meta, name: Token, *parts: ast.FieldDecl | str | None) -> ast.ComponentDecl:
        *fields, shown_as = parts   # the grammar ends the rule with the optional 'shown as'
        return ast.ComponentDecl(self._span(meta), str(name), fields=_only(fields, ast.FieldDecl),
                                 shown_as=shown_as if isinstance(shown_as, str) else None,
                                 name_span=self._name_span(name))

    def field_decl(self, meta: Meta, name: Token, type_: ast.TypeRef) -> ast.FieldDecl:
        return ast.FieldDecl(self._span(meta), str(name), type_)

    def show_clause(self, meta: Meta, label: Token) -> str:
        return unquote(label)

    def player_owner(self, meta: Meta) -> str:
        return "player"

    def space_owner(self, meta: Meta) -> str:
        return "space"

    def component_owner(self, meta: Meta) -> str:
        return "component"

    def deck_decl(self, meta: Meta, owner: str | None, name: Token, type_: ast.TypeRef, zone: Token,
                  size: int | None, contents: ast.Expr) -> ast.DeckDecl:
        return ast.DeckDecl(self._span(meta), str(name), owner=owner, type=type_, zone=str(zone),
                            contents=contents, size=size, name_span=self._name_span(name))

    def deck_size(self, meta: Meta, count: Token) -> int:
        return self._int(meta, count)

    def _int(self, meta: Meta, digits: Token) -> int:
        """The value of an integer literal; E002 when it has more than MAX_INT_DIGITS digits."""
        if len(digits.lstrip("0")) > MAX_INT_DIGITS:
            raise RulesetError([Diagnostic("E002", f"this number is too large: an integer literal has at most "
                                                   f"{MAX_INT_DIGITS} digits", self._span(meta))])
        return int(digits)

    def zone_decl(self, meta: Meta, owner: str | None, name: Token, type_: ast.TypeRef,
                  visibility: str | None) -> ast.ZoneDecl:
        return ast.ZoneDecl(self._span(meta), str(name), owner=owner, type=type_, visibility=visibility,
                            name_span=self._name_span(name))

    def var_decl(self, meta: Meta, owner: str | None, name: Token, type_: ast.TypeRef, initial: ast.Expr,
                 visibility: str | None) -> ast.VarDecl:
        return ast.VarDecl(self._span(meta), str(name), owner=owner, type=type_, initial=initial,
                           visibility=visibility, name_span=self._name_span(name))

    def supply_decl(self, meta: Meta, name: Token, total: ast.Expr, visibility: str | None) -> ast.SupplyDecl:
        return ast.SupplyDecl(self._span(meta), str(name), total=total, visibility=visibility,
                              name_span=self._name_span(name))

    def die_decl(self, meta: Meta, name: Token, faces: ast.Expr) -> ast.DieDecl:
        return ast.DieDecl(self._span(meta), str(name), faces=faces, name_span=self._name_span(name))

    def board_decl(self, meta: Meta, name: Token, source: ast.Expr) -> ast.BoardDecl:
        return ast.BoardDecl(self._span(meta), str(name), source=source, name_span=self._name_span(name))

    def visibility(self, meta: Meta, who: Token) -> str:
        return str(who)

    def simple_type(self, meta: Meta, name: Token, optional: Token | None) -> ast.TypeRef:
        return ast.TypeRef(self._span(meta), str(name), optional is not None)

    def list_type(self, meta: Meta, item: ast.TypeRef, optional: Token | None) -> ast.TypeRef:
        return ast.TypeRef(self._span(meta), "list", optional is not None, item)

    def map_type(self, meta: Meta, key: ast.TypeRef, item: ast.TypeRef, optional: Token | None) -> ast.TypeRef:
        return ast.TypeRef(self._span(meta), "map", optional is not None, item, key)

    def setup_decl(self, meta: Meta, body: ast.Block) -> ast.SetupDecl:
        return ast.SetupDecl(self._span(meta), "setup", body=body, name_span=self._span(meta))

    def phase_decl(self, meta: Meta, name: Token, body: ast.Block) -> ast.PhaseDecl:
        return ast.PhaseDecl(self._span(meta), str(name), body=body, name_span=self._name_span(name))

    def procedure_decl(self, meta: Meta, name: Token, *parts: ast.Param | ast.Block | None) -> ast.ProcedureDecl:
        *params, body = parts   # the grammar ends the rule with the block
        return ast.ProcedureDecl(self._span(meta), str(name), params=_only(params, ast.Param),
                                 body=cast(ast.Block, body), name_span=self._name_span(name))

    def function_decl(self, meta: Meta, name: Token, *parts: ast.Param | ast.TypeRef | ast.Expr | None
                      ) -> ast.FunctionDecl:
        *params, result, body = parts   # the grammar ends the rule with the result type and the body
        return ast.FunctionDecl(self._span(meta), str(name), params=_only(params, ast.Param),
                                result=cast(ast.TypeRef, result), body=cast(ast.Expr, body),
                                name_span=self._name_span(name))

    def param(self, meta: Meta, name: Token, type_: ast.TypeRef) -> ast.Param:
        return ast.Param(self._span(meta), str(name), type_)

    def score_decl(self, meta: Meta, player: Token, value: ast.Expr) -> ast.ScoreDecl:
        return ast.ScoreDecl(self._span(meta), str(player), value=value, name_span=self._name_span(player))

    def tiebreak_decl(self, meta: Meta, player: Token, value: ast.Expr) -> ast.TiebreakDecl:
        return ast.TiebreakDecl(self._span(meta), str(player), value=value, name_span=self._name_span(player))

    def invariant_decl(self, meta: Meta, label: Token, condition: ast.Expr) -> ast.InvariantDecl:
        return ast.InvariantDecl(self._span(meta), unquote(label), condition=condition,
                                 name_span=self._name_span(label))

    def part_decl(self, meta: Meta, owner: Token, name: Token, body: ast.Block) -> ast.PartDecl:
        return ast.PartDecl(self._span(meta), f"{owner}.{name}", owner=str(owner), part=str(name), body=body,
                            name_span=self._name_span(owner), part_span=self._name_span(name))

    def setup_owner(self, meta: Meta) -> Token:
        """The word ``setup`` where it names the setup as the owner of a part."""
        return Token("NAME", "setup", line=meta.line, column=meta.column, end_line=meta.end_line,
                     end_column=meta.end_column)

    # ---- scenario test files ----
    def tests_file(self, meta: Meta, *parts: scenario_ast.Scenario | scenario_ast.Use | tuple[str, object] | None
                   ) -> scenario_ast.TestsFile:
        headers = [part for part in parts if isinstance(part, tuple) and part[0] != "background"]
        background = [cast(tuple[scenario_ast.Step, ...], part[1]) for part in parts
                      if isinstance(part, tuple) and part[0] == "background"]
        ruleset = [value for key, value in headers if key == "ruleset"]
        players = [value for key, value in headers if key == "players"]
        return scenario_ast.TestsFile(self._span(meta), self.path, cast(str, ruleset[-1]) if ruleset else None,
                             cast(int, players[-1]) if players else None, _only(parts, scenario_ast.Use),
                             _only(parts, scenario_ast.Scenario), background[0] if background else ())

    def background(self, meta: Meta, *steps: scenario_ast.Step) -> tuple[str, object]:
        return ("background", steps)

    def tests_ruleset(self, meta: Meta, path: Token) -> tuple[str, object]:
        return ("ruleset", unquote(path))

    def tests_players(self, meta: Meta, count: Token) -> tuple[str, object]:
        return ("players", self._int(meta, count))

    def tests_use(self, meta: Meta, path: Token, *left_out: Token | None) -> scenario_ast.Use:
        return scenario_ast.Use(self._span(meta), unquote(path), _texts(left_out))

    def tests_use_only(self, meta: Meta, path: Token, *names: Token) -> scenario_ast.Use:
        return scenario_ast.Use(self._span(meta), unquote(path), _texts(names), only=True)

    def scenario(self, meta: Meta, name: Token, *steps: scenario_ast.Step) -> scenario_ast.Scenario:
        return scenario_ast.Scenario(self._span(meta), unquote(name), steps)

    def step_players(self, meta: Meta, count: Token) -> scenario_ast.SetPlayers:
        return scenario_ast.SetPlayers(self._span(meta), self._int(meta, count))

    def step_seed(self, meta: Meta, seed: Token) -> scenario_ast.SetSeed:
        return scenario_ast.SetSeed(self._span(meta), self._int(meta, seed))

    def step_position(self, meta: Meta, path: Token) -> scenario_ast.FromPosition:
        return scenario_ast.FromPosition(self._span(meta), unquote(path))

    def step_given(self, meta: Meta, body: ast.Block) -> scenario_ast.Given:
        return scenario_ast.Given(self._span(meta), splice_parts(body))   # no variant can reach a part here

    def step_play(self, meta: Meta, player: Token | None, *labels: Token | str | None) -> scenario_ast.Play:
        *texts, prompt = labels   # the grammar ends the rule with the optional 'prompt "..."'
        return scenario_ast.Play(self._span(meta), _name_or_none(player),
                                 tuple(unquote(t) for t in texts if t is not None), prompt)

    def check_prompt(self, meta: Meta, text: Token) -> str:
        return unquote(text)

    def step_expect(self, meta: Meta, condition: ast.Expr) -> scenario_ast.Expect:
        return scenario_ast.Expect(self._span(meta), condition)

    def step_offered(self, meta: Meta, player: Token | None, *labels: Token) -> scenario_ast.ExpectOffered:
        return scenario_ast.ExpectOffered(self._span(meta), _name_or_none(player), _texts(labels))

    def step_not_offered(self, meta: Meta, player: Token | None, *labels: Token) -> scenario_ast.ExpectOffered:
        return scenario_ast.ExpectOffered(self._span(meta), _name_or_none(player), _texts(labels), offered=False)

    def step_options(self, meta: Meta, player: Token | None, *labels: Token | None) -> scenario_ast.ExpectOffered:
        return scenario_ast.ExpectOffered(self._span(meta), _name_or_none(player), _texts(labels), exact=True)

    def step_prompt(self, meta: Meta, player: Token | None, text: Token) -> scenario_ast.ExpectPrompt:
        return scenario_ast.ExpectPrompt(self._span(meta), _name_or_none(player), unquote(text))

    def step_log(self, meta: Meta, player: Token | None, text: Token) -> scenario_ast.ExpectLog:
        return scenario_ast.ExpectLog(self._span(meta), unquote(text), player=_name_or_none(player))

    def step_not_log(self, meta: Meta, player: Token | None, text: Token) -> scenario_ast.ExpectLog:
        return scenario_ast.ExpectLog(self._span(meta), unquote(text), present=False, player=_name_or_none(player))

    def step_seen(self, meta: Meta, player: Token, value: ast.Expr) -> scenario_ast.ExpectSeen:
        return scenario_ast.ExpectSeen(self._span(meta), str(player), value)

    def step_not_seen(self, meta: Meta, player: Token, value: ast.Expr) -> scenario_ast.ExpectSeen:
        return scenario_ast.ExpectSeen(self._span(meta), str(player), value, seen=False)

    # ---- statements ----
    def block(self, meta: Meta, *statements: ast.Stmt | Spliced) -> ast.Block:
        return ast.Block(self._span(meta), tuple(spliced(statements)))

    def let_stmt(self, meta: Meta, name: Token, value: ast.Expr) -> ast.Let:
        return ast.Let(self._span(meta), str(name), value)

    def roll_stmt(self, meta: Meta, name: Token, die: Token) -> ast.Roll:
        return ast.Roll(self._span(meta), str(name), str(die))

    def random_stmt(self, meta: Meta, name: Token, source: ast.Expr) -> ast.RandomPick:
        return ast.RandomPick(self._span(meta), str(name), source)

    def call_let_stmt(self, meta: Meta, name: Token, procedure: Token,
                      args: tuple[ast.Expr, ...] | None) -> ast.CallLet:
        return ast.CallLet(self._span(meta), str(name), str(procedure), args or ())

    def assign_stmt(self, meta: Meta, target: ast.Expr, op: Token, value: ast.Expr) -> ast.Assign:
        return ast.Assign(self._span(meta), target, str(op), value)

    def if_stmt(self, meta: Meta, condition: ast.Expr, body: ast.Block,
                *rest: Branch | ast.Block | None) -> ast.If:
        *elifs, otherwise = rest   # the grammar ends the rule with the optional 'else'
        branches = ((condition, body), *(branch for branch in elifs if isinstance(branch, tuple)))
        return ast.If(self._span(meta), branches, otherwise if isinstance(otherwise, ast.Block) else None)

    def elif_clause(self, meta: Meta, condition: ast.Expr, body: ast.Block) -> Branch:
        return (condition, body)

    def else_clause(self, meta: Meta, body: ast.Block) -> ast.Block:
        return body

    def for_stmt(self, meta: Meta, var: Token, source: ast.Expr, body: ast.Block) -> ast.For:
        return ast.For(self._span(meta), str(var), source, body)

    def while_stmt(self, meta: Meta, condition: ast.Expr, body: ast.Block) -> ast.While:
        return ast.While(self._span(meta), condition, body)

    def repeat_stmt(self, meta: Meta, body: ast.Block) -> ast.Repeat:
        return ast.Repeat(self._span(meta), body)

    def repeat_until_stmt(self, meta: Meta, until: ast.Expr, body: ast.Block) -> ast.Repeat:
        return ast.Repeat(self._span(meta), body, until=until)

    def break_stmt(self, meta: Meta) -> ast.Break:
        return ast.Break(self._span(meta))

    def continue_stmt(self, meta: Meta) -> ast.Continue:
        return ast.Continue(self._span(meta))

    def choose_stmt(self, meta: Meta, var: Token, source: ast.Expr, chooser: ast.Expr | None,
                    by_position: bool | None, shown_as: ast.Prompt | None, prompt: ast.Prompt | None,
                    otherwise: ast.Block | None) -> ast.Choose:
        return ast.Choose(self._span(meta), str(var), source, chooser, otherwise, prompt, shown_as,
                          by_position=bool(by_position))

    def by_position(self, meta: Meta) -> bool:
        """'by position' of a choice: its options are told apart by where they lie."""
        return True

    def option_label(self, meta: Meta, text: Token) -> ast.Prompt:
        """'shown as "text"' of a choice: the label of each option, its placeholders as a prompt's."""
        return self.prompt(meta, text)

    def prompt(self, meta: Meta, text: Token) -> ast.Prompt:
        span = self._span(meta)
        value = unquote(text)
        parts = tuple(_placeholder(name, span) for name in PLACEHOLDER.findall(value))
        return ast.Prompt(span, value, parts)

    def otherwise_clause(self, meta: Meta, body: ast.Block) -> ast.Block:
        return body

    def menu_stmt(self, meta: Meta, chooser: ast.Expr, *parts: ast.Prompt | ast.Option | None) -> ast.Menu:
        prompt = parts[0] if isinstance(parts[0], ast.Prompt) else None
        return ast.Menu(self._span(meta), chooser, _only(parts, ast.Option), prompt)

    def option(self, meta: Meta, label: Token, condition: ast.Expr | None, body: ast.Block) -> ast.Option:
        return ast.Option(self._span(meta), unquote(label), condition, body)

    def simultaneous_stmt(self, meta: Meta, player_var: Token, players: ast.Expr, var: Token,
                          source: ast.Expr, by_position: bool | None, prompt: ast.Prompt | None) -> ast.Simultaneous:
        return ast.Simultaneous(self._span(meta), str(player_var), players, str(var), source, prompt,
                                by_position=bool(by_position))

    def move_stmt(self, meta: Meta, what: ast.Expr, to: ast.Expr) -> ast.Move:
        return ast.Move(self._span(meta), what, to)

    def shuffle_stmt(self, meta: Meta, target: ast.Expr) -> ast.Shuffle:
        return ast.Shuffle(self._span(meta), target)

    def gain_stmt(self, meta: Meta, amount: ast.Expr, supply: Token, player: ast.Expr) -> ast.Gain:
        return ast.Gain(self._span(meta), amount, str(supply), player)

    def pay_stmt(self, meta: Meta, amount: ast.Expr, supply: Token, payer: ast.Expr,
                 payee: ast.Expr | None) -> ast.Pay:
        return ast.Pay(self._span(meta), amount, str(supply), payer, payee)

    def call_stmt(self, meta: Meta, procedure: Token, args: tuple[ast.Expr, ...] | None) -> ast.CallStmt:
        return ast.CallStmt(self._span(meta), str(procedure), args or ())

    def return_stmt(self, meta: Meta, value: ast.Expr | None) -> ast.Return:
        return ast.Return(self._span(meta), value)

    def next_stmt(self, meta: Meta, phase: Token) -> ast.Next:
        return ast.Next(self._span(meta), str(phase))

    def end_stmt(self, meta: Meta) -> ast.EndGame:
        return ast.EndGame(self._span(meta))

    def log_stmt(self, meta: Meta, message: ast.Expr, audience: ast.Expr | None) -> ast.Log:
        return ast.Log(self._span(meta), message, audience)

    def quiet_stmt(self, meta: Meta, body: ast.Block) -> Spliced:
        span = self._span(meta)
        return Spliced((ast.Narrate(span, "quiet"), *body.statements, ast.Narrate(span, "loud")))

    def log_instead_stmt(self, meta: Meta, message: ast.Expr, audience: ast.Expr | None,
                         body: ast.Block) -> Spliced:
        span = self._span(meta)
        return Spliced((ast.Narrate(span, "quiet"), *body.statements, ast.Narrate(span, "loud"),
                         ast.Log(span, message, audience)))

    def log_heading_stmt(self, meta: Meta, message: ast.Expr, audience: ast.Expr | None) -> Spliced:
        span = self._span(meta)
        return Spliced((ast.Narrate(span, "heading"), ast.Log(span, message, audience)))

    def log_turn_stmt(self, meta: Meta, player: ast.Expr) -> ast.Turn:
        return ast.Turn(self._span(meta), player)

    def reveal_stmt(self, meta: Meta, value: ast.Expr, audience: ast.Expr) -> ast.Reveal:
        return ast.Reveal(self._span(meta), value, audience)

    def part_stmt(self, meta: Meta, name: Token, body: ast.Block) -> ast.Part:
        return ast.Part(self._span(meta), str(name), body, name_span=self._name_span(name))

    # ---- expressions ----
    def if_expr(self, meta: Meta, condition: ast.Expr, then: ast.Expr, otherwise: ast.Expr) -> ast.IfExpr:
        return ast.IfExpr(self._span(meta), condition, then, otherwise)

    def _chain(self, meta: Meta, op: str, first: ast.Expr, rest: tuple[ast.Expr, ...]) -> ast.Expr:
        result = first
        for right in rest:
            result = ast.BinaryOp(self._span(meta), op, result, right)
        return result

    def or_chain(self, meta: Meta, first: ast.Expr, *rest: ast.Expr) -> ast.Expr:
        return self._chain(meta, "or", first, rest)

    def and_chain(self, meta: Meta, first: ast.Expr, *rest: ast.Expr) -> ast.Expr:
        return self._chain(meta, "and", first, rest)

    def not_op(self, meta: Meta, operand: ast.Expr) -> ast.UnaryOp:
        return ast.UnaryOp(self._span(meta), "not", operand)

    def compare(self, meta: Meta, left: ast.Expr, op: Token | None = None, right: ast.Expr | None = None) -> ast.Expr:
        if op is None or right is None:
            return left
        return ast.BinaryOp(self._span(meta), str(op), left, right)

    def in_op(self, meta: Meta, item: ast.Expr, collection: ast.Expr) -> ast.BinaryOp:
        return ast.BinaryOp(self._span(meta), "in", item, collection)

    def not_in(self, meta: Meta, item: ast.Expr, collection: ast.Expr) -> ast.BinaryOp:
        return ast.BinaryOp(self._span(meta), "not in", item, collection)

    def range_op(self, meta: Meta, low: ast.Expr, high: ast.Expr | None = None) -> ast.Expr:
        if high is None:
            return low
        return ast.BinaryOp(self._span(meta), "..", low, high)

    def arith(self, meta: Meta, first: ast.Expr, *rest: Token | ast.Expr) -> ast.Expr:
        """``a + b - c`` (or ``*``, ``/``, ``%``): operators and operands alternate after the first."""
        result = first
        for op, right in zip(rest[0::2], rest[1::2], strict=True):
            result = ast.BinaryOp(self._span(meta), str(op), result, cast(ast.Expr, right))
        return result

    def neg(self, meta: Meta, operand: ast.Expr) -> ast.UnaryOp:
        return ast.UnaryOp(self._span(meta), "-", operand)

    def attribute(self, meta: Meta, target: ast.Expr, name: Token) -> ast.Attribute:
        return ast.Attribute(self._span(meta), target, str(name))

    def index(self, meta: Meta, target: ast.Expr, index: ast.Expr) -> ast.Index:
        return ast.Index(self._span(meta), target, index)

    def call(self, meta: Meta, function: Token, args: tuple[ast.Expr, ...] | None) -> ast.Call:
        return ast.Call(self._span(meta), str(function), args or ())

    def arglist(self, meta: Meta, *args: ast.Expr) -> tuple[ast.Expr, ...]:
        return args

    def keyword_arg(self, meta: Meta, name: Token, value: ast.Expr) -> ast.KeywordArg:
        return ast.KeywordArg(self._span(meta), str(name), value)

    def generator(self, meta: Meta, element: ast.Expr,
                  *parts: ast.CompClause | ast.Expr | Token | None) -> ast.Generator:
        *clauses, key, descending = parts   # the grammar ends the rule with the optional 'by key [desc]'
        return ast.Generator(self._span(meta), element, _only(clauses, ast.CompClause),
                             cast(ast.Expr | None, key), descending is not None)

    def comp_clause(self, meta: Meta, var: Token, source: ast.Expr, condition: ast.Expr | None) -> ast.CompClause:
        return ast.CompClause(self._span(meta), str(var), source, condition)

    def comprehension(self, meta: Meta, element: ast.Expr, *clauses: ast.CompClause) -> ast.Comprehension:
        return ast.Comprehension(self._span(meta), element, clauses)

    def int_lit(self, meta: Meta, digits: Token) -> ast.Literal:
        return ast.Literal(self._span(meta), self._int(meta, digits))

    def str_lit(self, meta: Meta, literal: Token) -> ast.Literal:
        return ast.Literal(self._span(meta), unquote(literal))

    def true_lit(self, meta: Meta) -> ast.Literal:
        return ast.Literal(self._span(meta), True)

    def false_lit(self, meta: Meta) -> ast.Literal:
        return ast.Literal(self._span(meta), False)

    def none_lit(self, meta: Meta) -> ast.Literal:
        return ast.Literal(self._span(meta), None)

    def name(self, meta: Meta, name: Token) -> ast.Name:
        return ast.Name(self._span(meta), str(name))

    def list_lit(self, meta: Meta, *items: ast.Expr | None) -> ast.ListExpr:
        return ast.ListExpr(self._span(meta), tuple(item for item in items if item is not None))


N = TypeVar("N")


_PLACEHOLDER_SHAPE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def _placeholder(text: str, span: Span) -> ast.Expr:
    """The expression of one placeholder: a name with attributes. Anything else is an E002
    at the prompt."""
    name = text.strip()
    if not _PLACEHOLDER_SHAPE.fullmatch(name):
        raise RulesetError([Diagnostic("E002", f"a prompt placeholder is a name or name.attribute, not "
                                               f"'{{{text[:40]}}}'", span)])
    first, *attributes = name.split(".")
    expr: ast.Expr = ast.Name(span, first)
    for attribute in attributes:
        expr = ast.Attribute(span, expr, attribute)
    return expr


def _name_or_none(token: Token | None) -> str | None:
    return None if token is None else str(token)


def _texts(literals: Iterable[Token | None]) -> tuple[str, ...]:
    """The texts of string literals (leaving out the placeholder of an absent optional part)."""
    return tuple(unquote(literal) for literal in literals if literal is not None)


def _only(parts: Iterable[object], cls: type[N]) -> tuple[N, ...]:
    """The parts that are ``cls`` (leaving out the placeholder of an absent optional part)."""
    return tuple(part for part in parts if isinstance(part, cls))


# The methods of AstBuilder that lark calls for the grammar's rules (those v_args wraps).
_RULE_METHODS = tuple(name for name, value in vars(AstBuilder).items()
                      if not name.startswith("_") and hasattr(value, "visit_wrapper"))
