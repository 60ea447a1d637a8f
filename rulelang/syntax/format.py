"""``rulelang fmt``: one layout for rulesets (``.rules``) and test files (``.tests``).

The formatter changes whitespace only: it reads the text's tokens and comments
(``format_pieces``) and lays them out again, so the formatted text has the same tokens,
the same comments and the same AST (checked before a result is given). The layout
(docs/editors.md, "Formatting"):

- a block's statements (and a game's settings, a menu's options, a scenario's steps) one a
  line, indented 2 spaces a level; a block of one statement written on one line stays
  ``{ stmt }``, an empty block is ``{ }``; ``{`` ends the line that opens it, and ``else``
  and ``elif`` follow the ``}`` before them;
- a component's fields and an enumeration's names stay on the lines they are written on
  (fields of one line two spaces apart);
- inside a statement, lines break where the author broke them: a continuation line keeps
  its indentation relative to the statement's first line (at least 2 more), so aligned
  comprehensions stay aligned; nothing is broken or joined for width;
- one space around binary operators, after commas and colons and between words; none inside
  brackets, around ``.`` and ``..``, after a unary minus, before a call's or an index's bracket;
- a comment on its own line stays on its own line, indented as the line after it; a comment
  at the end of a line stays there, at its column when the code leaves two spaces, else two
  spaces after the code;
- at most one blank line in a row, none after ``{`` or before ``}``; a top-level declaration
  that takes several lines is followed by a blank line; the file ends with one line break.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang.diagnostics import UNNAMED_TEXT
from rulelang.errors import RulesetError
from rulelang.syntax.format_pieces import Piece, Structure, scan, structure
from rulelang.syntax.parser import parse, parse_tests, parse_tree

INDENT = 2
# Words after which an expression begins: a bracket or a minus after one opens that expression.
_EXPRESSION_WORDS = frozenset({
    "if", "elif", "then", "else", "in", "and", "or", "not", "return", "random", "to", "from", "by",
    "when", "move", "shuffle", "gain", "pay", "log", "reveal", "while", "until", "expect", "total",
    "for", "desc"})
_NO_SPACE_AFTER = frozenset({"(", "[", ".", ".."})
_NO_SPACE_BEFORE = frozenset({")", "]", ",", ".", "..", ":", "?"})


class FormatterBug(RuntimeError):
    """The formatted text would not read as the original did: a fault of the formatter,
    never of the file, which is then left as it is."""


def format_source(text: str, path: str = UNNAMED_TEXT) -> str:
    """``text`` in the canonical layout; a test file when ``path`` ends in ``.tests``.
    Raises RulesetError with the syntax diagnostics of a text that does not parse."""
    tests = path.endswith(".tests")
    read = parse_tests if tests else parse
    before = read(text, path)
    pieces = scan(text)
    tree = parse_tree(text, path, "tests_file" if tests else "start")
    formatted = render(_Writer(pieces, structure(tree)).write())
    try:
        same = read(formatted, path) == before
    except RulesetError:
        same = False
    if not same or _comments(scan(formatted)) != _comments(pieces):
        raise FormatterBug(f"{path}: the formatted text would not read as the original; left as it is")
    return formatted


def _comments(pieces: list[Piece]) -> list[str]:
    return [piece.text for piece in pieces if piece.is_comment]


@dataclass(frozen=True)
class Brace:
    """A pair of braces: whether it holds fields or names (a component's, an enumeration's)
    rather than statements, and whether it is laid out on several lines."""
    holds_fields: bool
    expanded: bool


@dataclass
class Line:
    """A line of the result: its indentation, its code (or its comment), the top-level
    declaration it belongs to (None: a comment between declarations), whether a blank line
    comes before it, and the comment at its end."""
    indent: int
    code: str
    top: int | None
    blank_before: bool = False
    comment: Piece | None = None
    aligned: bool = False   # a comment alone that goes on the comment of the line above, at its column


def braces(pieces: list[Piece], layout: Structure) -> dict[int, Brace]:
    """Each brace of ``pieces`` (the index of ``{`` and of its ``}``) and how it is laid out: a
    brace of statements on several lines when it holds two or more, or one written on
    several lines, or a comment; a brace of fields when it was written on several lines."""
    found: dict[int, Brace] = {}
    stack: list[int] = []
    children: dict[int, int] = {}
    commented: set[int] = set()
    for index, piece in enumerate(pieces):
        if piece.is_comment:
            commented.update(stack[-1:])
            continue
        if stack and piece.place in layout.starts:
            children[stack[-1]] += 1
        if piece.text == "{":
            stack.append(index)
            children[index] = 0
        elif piece.text == "}" and stack:
            opened = stack.pop()
            several_lines = pieces[opened].line != piece.line or opened in commented
            fields = _opens_fields(pieces, opened)
            held = children[opened] + (opened in commented)
            expanded = several_lines if fields else held > 1 or (several_lines and held > 0)
            found[opened] = found[index] = Brace(fields, expanded)
    return found


def _opens_fields(pieces: list[Piece], index: int) -> bool:
    """Whether the ``{`` at ``index`` opens a component's fields or an enumeration's names."""
    before = [piece.text for piece in pieces[:index] if not piece.is_comment][-2:]
    return len(before) == 2 and before[0] in ("component", "enum")


class _Writer:
    """Lays the pieces out line by line (see the module's docstring)."""

    def __init__(self, pieces: list[Piece], layout: Structure) -> None:
        self.pieces, self.layout = pieces, layout
        self.braces = braces(pieces, layout)
        self.lines: list[Line] = []
        self.open: list[Brace] = []
        self.anchor = (1, 0)   # original column and indentation of the line continuations follow
        self.top = -1          # the top-level declaration being written
        self.tokens: list[Piece] = []
        self.last_line = 0     # the original line of the last piece written
        self.line_open = False
        self.opened_block = False

    @property
    def depth(self) -> int:
        return sum(brace.expanded for brace in self.open)

    def write(self) -> list[Line]:
        for index, piece in enumerate(self.pieces):
            if piece.is_comment:
                self._comment(piece, index)
            else:
                self._token(piece, index)
            self.last_line = piece.line
        _separate_long_declarations(self.lines)
        return self.lines

    def _comment(self, piece: Piece, index: int) -> None:
        if self.line_open and piece.line == self.last_line:
            self.lines[-1].comment = piece
        elif self._continues_comment(piece):
            self.lines.append(Line(0, "", self.lines[-1].top, comment=piece, aligned=True))
        else:
            following = next((i for i in range(index, len(self.pieces)) if not self.pieces[i].is_comment), None)
            if following is None or self._anchored(self.pieces[following], following):
                indent, top = self.depth * INDENT, self.top if self.depth else None
            else:
                indent, top = self._continued(piece.column), self.top
            self.lines.append(Line(indent, piece.text, top, self._blank_before(piece)))
        self.line_open = self.opened_block = False

    def _continues_comment(self, piece: Piece) -> bool:
        """Whether ``piece``, on a line of its own, goes on the comment at the end of the line
        above: right below it, and further right than that line's code ends."""
        if not self.lines or self.lines[-1].comment is None or piece.line != self.last_line + 1:
            return False
        code_end = self.tokens[-1].column + len(self.tokens[-1].text)
        return piece.column > code_end

    def _token(self, token: Piece, index: int) -> None:
        brace = self.braces.get(index)
        if token.text == "}" and brace is not None:
            self.open.pop()
        if token.place in self.layout.starts and not self.open:
            self.top += 1
        if self._starts_line(token, brace):
            anchored = self._anchored(token, index)
            indent = self.depth * INDENT if anchored else self._continued(token.column)
            if anchored:
                self.anchor = (token.column, indent)
            blank = self._blank_before(token) and token.text != "}"
            self.lines.append(Line(indent, token.text, self.top, blank))
        else:
            self.lines[-1].code += self._space(token) + token.text
        if token.text == "{" and brace is not None:
            self.open.append(brace)
        self.opened_block = brace is not None and token.text == "{" and brace.expanded
        self.line_open = True
        self.tokens.append(token)

    def _starts_line(self, token: Piece, brace: Brace | None) -> bool:
        """Whether ``token`` begins a line: where the layout breaks, where the author did
        unless the layout joins."""
        if not self.line_open or self.opened_block or self._breaks_before(token, brace):
            return True
        return not self._joins(token, brace) and token.line != self.tokens[-1].line

    def _breaks_before(self, token: Piece, brace: Brace | None) -> bool:
        """A statement (declaration, setting, step) of a block on several lines, or its ``}``."""
        if token.place in self.layout.starts:
            return not self.open or self.open[-1].expanded
        return token.text == "}" and brace is not None and brace.expanded

    def _joins(self, token: Piece, brace: Brace | None) -> bool:
        """A ``{``, the ``}`` of a block on one line, ``else`` or ``elif`` after a ``}``."""
        if brace is not None and (token.text == "{" or not brace.expanded):
            return True
        return self.tokens[-1].text == "}" and token.text in ("else", "elif")

    def _anchored(self, token: Piece, index: int) -> bool:
        """Whether a line that ``token`` begins is indented by its depth alone (else it
        continues the line of the statement it is part of)."""
        if token.text == "}" and index in self.braces:
            return self.braces[index].expanded
        if not self.open:
            return token.place in self.layout.starts
        inner = self.open[-1]
        return inner.expanded and (inner.holds_fields or token.place in self.layout.starts)

    def _continued(self, column: int) -> int:
        anchor_column, anchor_indent = self.anchor
        return anchor_indent + max(INDENT, column - anchor_column)

    def _blank_before(self, piece: Piece) -> bool:
        return bool(self.lines) and piece.line - self.last_line > 1 and not self.opened_block

    def _space(self, token: Piece) -> str:
        previous = self.tokens[-1]
        before_previous = self.tokens[-2] if len(self.tokens) > 1 else None
        if previous.text in _NO_SPACE_AFTER or token.text in _NO_SPACE_BEFORE:
            return ""
        if previous.text == "-" and not self._ends_operand(before_previous):
            return ""   # a unary minus
        if token.text in ("(", "[") and self._ends_operand(previous):
            return ""   # a call, an index, a type's brackets
        if token.place in self.layout.fields and previous.text != "{":
            return "  "
        return " "

    def _ends_operand(self, piece: Piece | None) -> bool:
        if piece is None:
            return False
        if piece.kind == "word":
            return piece.text not in _EXPRESSION_WORDS and piece.place not in self.layout.setting_names
        return piece.kind == "string" or piece.text in (")", "]")


def _separate_long_declarations(lines: list[Line]) -> None:
    """A blank line after each top-level declaration that takes several lines."""
    previous: int | None = None
    run = 0
    for line in lines:
        if line.aligned:
            continue
        if line.top is not None and line.top == previous:
            run += 1
            continue
        if run > 1:
            line.blank_before = True
        previous, run = line.top, (1 if line.top is not None else 0)


def render(lines: list[Line]) -> str:
    """The text of ``lines``: a trailing comment at its column if the code leaves two spaces."""
    out: list[str] = []
    column = 0
    for line in lines:
        if line.blank_before and out:
            out.append("")
        text = " " * line.indent + line.code
        if line.comment is not None:
            if not line.aligned:
                column = line.comment.column - 1 if line.comment.column - 1 >= len(text) + 2 else len(text) + 2
            text += " " * (column - len(text)) + line.comment.text
        out.append(text)
    return "\n".join(out) + "\n" if out else ""
