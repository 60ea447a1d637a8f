"""Lark tree -> AST for ``present { ... }`` (``rulelang.present_ast``): the methods of
``AstBuilder`` for the presentation's grammar rules, in a module of their own."""
from __future__ import annotations

from lark import Token, Transformer_NonRecursive, v_args
from lark.tree import Meta

from rulelang import ast, present_ast
from rulelang.diagnostics import Span
from rulelang.syntax.syntax_errors import token_span


@v_args(meta=True, inline=True)
class PresentBuilder(Transformer_NonRecursive[Token, ast.Node]):
    """The presentation's rules; the base of ``AstBuilder``, which sets ``path``."""

    path: str

    @staticmethod
    def _unquote(literal: str) -> str:
        """The text of a string literal: ``AstBuilder`` reads it as every string of a ruleset."""
        raise NotImplementedError

    def _present_span(self, meta: Meta) -> Span:
        if meta.empty:
            return Span.point(self.path, 1, 1)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def present_decl(self, meta: Meta, *entries: present_ast.PresentLook | present_ast.PresentShow
                     ) -> present_ast.PresentDecl:
        looks = tuple(e for e in entries if isinstance(e, present_ast.PresentLook))
        shows = tuple(e for e in entries if isinstance(e, present_ast.PresentShow))
        span = self._present_span(meta)
        return present_ast.PresentDecl(span, "present", looks=looks, shows=shows,
                                       name_span=Span(span.file, span.line, span.column, span.line, span.column + 7))

    def present_look(self, meta: Meta, target: Token, member: Token | None,
                     *properties: present_ast.PresentProperty) -> present_ast.PresentLook:
        end = member if member is not None else target
        where = token_span(self.path, target)
        return present_ast.PresentLook(self._present_span(meta), str(target), None if member is None else str(member),
                                       properties, target_span=Span(where.file, where.line, where.column,
                                                                    end.end_line or where.line,
                                                                    end.end_column or where.end_column))

    def present_property(self, meta: Meta, name: Token, value: Token) -> present_ast.PresentProperty:
        quoted = value.type == "STRING"
        text = self._unquote(str(value)) if quoted else str(value)
        return present_ast.PresentProperty(self._present_span(meta), str(name), text, quoted,
                                           value_span=token_span(self.path, value))

    def present_show(self, meta: Meta, *names: Token) -> present_ast.PresentShow:
        return present_ast.PresentShow(self._present_span(meta), tuple(str(n) for n in names),
                                       tuple(token_span(self.path, n) for n in names))
