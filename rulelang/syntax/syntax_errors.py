"""Friendly syntax errors: turn a Lark failure into a diagnostic that says what to fix.

Lark reports where it gave up; this module looks at what it expected and at the text
around that place to point where the fix belongs (an unclosed block points at its '{').
After one error, ``syntax_diagnostics`` resumes at the next declaration that starts a line
and parses the rest on its own, so independent mistakes are all reported in one run, and
a mistake is never reported again as the cause of others.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeAlias

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.grammar import Symbol
from lark.lexer import PatternStr, TerminalDef

from rulelang.diagnostics import Diagnostic, Span
from rulelang.syntax.text_scan import blank, code_part, outside_strings

# What a person calls the terminals whose text varies; every other terminal is named by the
# text it matches, read from the grammar (a keyword, '{', '+' or '-').
_NOUNS = {"NAME": "a name", "INT": "a number", "STRING": "a string in quotes", "COMP_OP": "a comparison",
          "$END": "the end of the file"}
_PLAIN_TEXT = re.compile(r"(?:[^\\|()\[\]{}.*+?^$]|\\[^A-Za-z0-9])+")   # a regex that matches itself only
_MAX_SHOWN_LITERALS = 3

_LINE_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*", re.M)
MAX_SYNTAX_ERRORS = 20


# ---------------------------------------------------------------- what the grammar says

@dataclass(frozen=True)
class GrammarWords:
    """The words of the grammar that syntax hints use, read from its parser (one source of truth)."""

    keywords: tuple[str, ...]              # every keyword, for "did you mean"
    terminal_keywords: Mapping[str, str]   # the keyword of each keyword terminal: {"PHASE": "phase", "_OR": "or"}
    declaration_words: tuple[str, ...]     # the keywords that open a declaration ('override' included)
    declaration_start: re.Pattern[str]     # a line that starts a declaration: where parsing can start again
    spellings: Mapping[str, tuple[str, ...]]   # what a person types for each terminal: {"ADD_OP": ("'+'", "'-'")}
    call_keyword: str | None               # the keyword that makes a call a statement ('call')

    def expected_keywords(self, error: UnexpectedToken) -> list[str]:
        """The keywords that the parser would have taken instead of the token of ``error``."""
        return [self.terminal_keywords[name] for name in error.expected if name in self.terminal_keywords]


Expansions: TypeAlias = "dict[str, list[Sequence[Symbol]]]"   # each rule's alternatives


@cache
def grammar_words(parser: Lark) -> GrammarWords:
    """The keywords of ``parser``'s grammar, and those that open a declaration (its ``decl``
    rule, after the prefixes of its ``item`` rule)."""
    keywords = {t.name: t.pattern.value for t in parser.terminals
                if isinstance(t.pattern, PatternStr) and t.pattern.value.isidentifier()}
    expansions: Expansions = {}
    for rule in parser.rules:
        expansions.setdefault(rule.origin.name, []).append(rule.expansion)
    prefixes = {word for expansion in expansions.get("item", []) for s in expansion
                if (word := _keyword(s, keywords))}
    openings = _openings(expansions, "decl", keywords)
    return GrammarWords(keywords=tuple(sorted(set(keywords.values()))), terminal_keywords=keywords,
                        declaration_words=tuple(sorted({opening[-1] for opening in openings} | prefixes)),
                        declaration_start=_line_start_pattern(prefixes, openings),
                        spellings={t.name: spellings(t) for t in parser.terminals
                                   if t.name not in parser.lexer_conf.ignore},   # not blanks, comments
                        call_keyword=_call_keyword(expansions, keywords))


def terminal_word(terminal: TerminalDef) -> str:
    """What a person types for ``terminal``, in words: "'phase'", "'+' or '-'", 'a name'."""
    return _either(spellings(terminal))


def spellings(terminal: TerminalDef) -> tuple[str, ...]:
    """What a person types for ``terminal``: the keyword or symbol it matches ("'phase'",
    "'{'"), each of its choices ("'+'", "'-'"), or what it is ('a name',
    "a comparison ('<', '>', ...)")."""
    if isinstance(terminal.pattern, PatternStr):
        return (repr(terminal.pattern.value),)
    quoted = [repr(literal) for literal in sorted(_literals(terminal.pattern.value) or (), key=len)]
    noun = _NOUNS.get(terminal.name)
    if noun and quoted:
        shown = [*quoted[:_MAX_SHOWN_LITERALS - 1], "..."] if len(quoted) > _MAX_SHOWN_LITERALS else quoted
        return (f"{noun} ({', '.join(shown)})",)
    return tuple(quoted) or (noun or "a " + terminal.name.strip("_").lower().replace("_", " "),)


def _literals(regex: str) -> list[str] | None:
    """The texts that ``regex`` matches when it is a plain choice of texts ('(?:\\+|\\-)'), else None."""
    body = regex[3:-1] if regex.startswith("(?:") and regex.endswith(")") else regex
    choices = re.split(r"(?<!\\)\|", body)
    if not all(_PLAIN_TEXT.fullmatch(choice) for choice in choices):
        return None
    literals = [re.sub(r"\\(.)", r"\1", choice) for choice in choices]
    return literals if all(re.fullmatch(regex, literal) for literal in literals) else None


def _either(words: Sequence[str]) -> str:
    """'a', 'b' or 'c'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _call_keyword(expansions: Expansions, keywords: Mapping[str, str]) -> str | None:
    """The keyword written before a call to make it a statement: the grammar has a call
    ('f' '(' ... ')') and a rule that is that keyword followed by the same call."""
    shapes = [tuple(s.name for s in e) for rule in expansions.values() for e in rule]
    calls = {shape for shape in shapes if len(shape) > 2 and shape[0] == "NAME" and shape[1] == "LPAR"}
    return next((keywords[shape[0]] for shape in shapes if shape and shape[0] in keywords and shape[1:] in calls),
                None)


def _keyword(symbol: Symbol, keywords: Mapping[str, str]) -> str | None:
    """The word of a keyword terminal ('phase'); None for other symbols."""
    return keywords.get(symbol.name) if symbol.is_term else None


def _openings(expansions: Expansions, rule: str, keywords: Mapping[str, str]) -> set[tuple[str, ...]]:
    """The runs of keywords that can open ``rule``: ('game',), ('deck',), ('player', 'deck')...
    A rule that opens with another rule (an owner) continues with its own first keyword."""
    found: set[tuple[str, ...]] = set()
    for first, *rest in (e for e in expansions.get(rule, []) if e and e[0].name != rule):
        if first.is_term:
            word = _keyword(first, keywords)
            found |= {(word,)} if word else set()
            continue
        then = _keyword(rest[0], keywords) if rest else None
        found |= {(*lead, then) if then else lead for lead in _openings(expansions, first.name, keywords)}
    return found


def _line_start_pattern(prefixes: set[str], openings: set[tuple[str, ...]]) -> re.Pattern[str]:
    """A line that starts with an optional prefix, then one of ``openings``, blanks between words."""
    alternatives = "|".join(r"[ \t]+".join(map(re.escape, words)) for words in sorted(openings))
    optional_prefix = rf"(?:(?:{'|'.join(map(re.escape, sorted(prefixes)))})[ \t]+)?"
    return re.compile(rf"^{optional_prefix}(?:{alternatives})\b", re.M)


# ---------------------------------------------------------------- every error of a text

def syntax_diagnostics(error: UnexpectedInput, text: str, path: str, parser: Lark,
                       start: str = "start") -> list[Diagnostic]:
    """The diagnostic for ``error``, then one for each later independent syntax error.

    ``parser`` is the Lark parser that raised ``error`` reading from the grammar rule
    ``start``. After an error in a ruleset, parsing starts again at the next line that
    begins a declaration, with the text before it blanked (so lines and columns stay right);
    no text is parsed twice. A scenario file reports its first error only.
    """
    words = grammar_words(parser)
    found = [describe_syntax_error(error, text, path, words)]
    resumed_at = 0
    while start == "start" and len(found) < MAX_SYNTAX_ERRORS:
        resume = _resume_point(text, _error_offset(error, text), resumed_at, words)
        if resume is None:
            break
        resumed_at = resume
        rest = blank(text[:resume]) + text[resume:]
        try:
            parser.parse(rest)
            break
        except UnexpectedInput as later:
            error = later
            found.append(describe_syntax_error(later, rest, path, words))
    return found


def _error_offset(error: UnexpectedInput, text: str) -> int:
    """Where in ``text`` the parser gave up (the end of the text when the text ended early)."""
    if isinstance(error, UnexpectedEOF) or _is_end_token(error):
        return len(text)
    offset: int | None = getattr(error, "pos_in_stream", None)   # lark types it None on the base class
    return len(text) if offset is None else offset


def _resume_point(text: str, offset: int, after: int, words: GrammarWords) -> int | None:
    """The start of the first line at or past ``offset`` (and past ``after``) that starts a
    declaration, or would but for a misspelled keyword ('phse main {')."""
    for match in _LINE_WORD.finditer(text, max(offset, after + 1)):
        if words.declaration_start.match(text, match.start()):
            return match.start()
        if match.start() > offset and _close_word(match.group(), words.declaration_words):
            return match.start()   # not at the error itself: that would report it again
    return None


def _close_word(word: str, candidates: Collection[str]) -> str | None:
    """The candidate ``word`` is most likely a misspelling of, if any is close enough."""
    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.75)
    return close[0] if close else None


# ---------------------------------------------------------------- one error

def describe_syntax_error(error: UnexpectedInput, text: str, path: str, words: GrammarWords) -> Diagnostic:
    """The diagnostic for one Lark parse failure."""
    if isinstance(error, UnexpectedEOF) or _is_end_token(error):
        return _unexpected_end(error, text, path, words)
    if isinstance(error, UnexpectedToken):
        return (_unclosed_before_declaration(error, text, path, words)
                or _bare_call(error, text, path, words)
                or _misspelled_statement_keyword(error, text, path, words)
                or _chance_in_an_expression(error, text, path)
                or _unfinished_line(error, text, path, words) or _unexpected_token(error, path, words))
    return _unexpected_character(error, text, path, words)


def _unexpected_end(error: UnexpectedInput, text: str, path: str, words: GrammarWords) -> Diagnostic:
    unclosed = _unclosed_bracket(text, path)
    if unclosed:
        return unclosed
    line, column = _end_of_text_before(text, len(text)) or (1, 1)
    return Diagnostic("E004", "the file ends in the middle of a declaration",
                      Span.point(path, line, column), hint=_expected_hint(error, words))


def _unexpected_character(error: UnexpectedInput, text: str, path: str, words: GrammarWords) -> Diagnostic:
    offset = _error_offset(error, text)
    char = text[offset] if offset < len(text) else "?"
    return Diagnostic("E002", f"unexpected character {char!r}",
                      Span.point(path, error.line, error.column), hint=_expected_hint(error, words))


def _unclosed_before_declaration(error: UnexpectedToken, text: str, path: str,
                                 words: GrammarWords) -> Diagnostic | None:
    """A declaration where a block should go on: the block before it is never closed."""
    token: Token = error.token
    if not _starts_declaration(text, token, words) or token.start_pos is None:
        return None
    return _unclosed_bracket(text[: token.start_pos], path,
                             f"before line {token.line}, where the next declaration starts")


def _unfinished_line(error: UnexpectedToken, text: str, path: str, words: GrammarWords) -> Diagnostic | None:
    """A token that cannot follow an unfinished line ('let y = (2 +' then '}'): the fix
    belongs at the end of that line, so point there. Not when the token could instead
    close the block (then the token itself is the likelier mistake)."""
    token: Token = error.token
    if {"RBRACE", "PHASE", "$END"} & set(error.expected) or token.start_pos is None:
        return None   # the text before could end there: it is not unfinished
    line_start = text.rfind("\n", 0, token.start_pos) + 1
    if code_part(text[line_start:token.start_pos]).strip():
        return None
    end = _end_of_text_before(text, line_start)
    if end is None:
        return None
    return Diagnostic("E002", f"unfinished: {_describe_token(token)} on line {token.line} cannot "
                              f"come next", Span.point(path, *end), hint=_expected_hint(error, words))


def _end_of_text_before(text: str, offset: int) -> tuple[int, int] | None:
    """(line, column) just after the last character before ``offset`` that is neither
    blank nor in a comment."""
    lines = text[:offset].split("\n")
    for number in range(len(lines), 0, -1):
        code = code_part(lines[number - 1]).rstrip()
        if code:
            return number, len(code) + 1
    return None


def _bare_call(error: UnexpectedToken, text: str, path: str, words: GrammarWords) -> Diagnostic | None:
    """'foo(1)' alone in a block: a procedure call without the keyword that makes it a
    statement. The parser holds the call as the target of an assignment and wants '='."""
    call = _held_call(error) if words.call_keyword and "ASSIGN_OP" in error.expected else None
    if call is None:
        return None
    meta = call.meta
    written = text[meta.start_pos:meta.end_pos]
    if not _CALL.fullmatch(written):
        return None
    if "\n" in written or len(written) > _MAX_QUOTED:
        written = f"{call.children[0]}(...)"
    return Diagnostic("E002", "a call on its own is not a statement",
                      Span(path, meta.line, meta.column, meta.end_line, meta.end_column),
                      hint=f"to call a procedure, write '{words.call_keyword} {written}'")


def _chance_in_an_expression(error: UnexpectedToken, text: str, path: str) -> Diagnostic | None:
    """'roll d6' or 'random 1..6' inside an expression ('[roll d6, roll d6]', 'x = roll d6 + 1')
    on the line of the error: each is a statement, the whole value of a 'let' (a roll may be
    a chance node of the game, where no expression can stop halfway)."""
    token: Token = error.token
    if token.start_pos is None:
        return None
    end = len(text[:token.start_pos].rstrip())   # (the line of the last token read before the error)
    line_start = text.rfind("\n", 0, end) + 1
    before = text[line_start:end]
    found = _CHANCE_WORD.search(before)
    if found is None or _LET_OF_CHANCE.match(before):
        return None
    word, line, column = found.group(1), text.count("\n", 0, line_start) + 1, found.start(1) + 1
    example = "let a = roll d6" if word == "roll" else "let a = random 1..6"
    return Diagnostic("E002", f"'{word}' cannot stand inside an expression: it is a statement, the whole value of "
                              f"a 'let'", Span(path, line, column, line, column + len(word)),
                      hint=f"write '{example}' on a line of its own before, then use 'a'")


_CHANCE_WORD = re.compile(r"\b(roll|random)\b")
_LET_OF_CHANCE = re.compile(r"\s*let\s+\w+\s*=\s*(roll|random)\b")
_CALL = re.compile(r"[A-Za-z_]\w*\s*\(.*\)", re.S)
_MAX_QUOTED = 40


def _held_call(error: UnexpectedToken) -> Tree[Token] | None:
    """The call that the parser holds last when it failed (its tree, whose first part is the
    name called), if it holds one."""
    state = getattr(getattr(error, "interactive_parser", None), "parser_state", None)
    held = getattr(state, "value_stack", None) or [None]
    last = held[-1]
    if not isinstance(last, Tree) or last.meta.empty or not last.children:
        return None
    first = last.children[0]
    return last if isinstance(first, Token) and first.type == "NAME" else None


def _misspelled_statement_keyword(error: UnexpectedToken, text: str, path: str,
                                  words: GrammarWords) -> Diagnostic | None:
    """'chose x in ...': a statement that starts with a bare name the parser then takes for the
    target of an assignment; when that name is close to a keyword, say so, at the name."""
    end = error.token.start_pos
    if "ASSIGN_OP" not in error.expected or end is None:
        return None
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    begin = end
    while begin > 0 and (text[begin - 1].isalnum() or text[begin - 1] == "_"):
        begin -= 1
    word = text[begin:end]
    if not word or word in words.keywords or not (word[0].isalpha() or word[0] == "_") \
            or text[:begin].rstrip().endswith("."):
        return None
    close = _close_word(word, words.keywords)
    if not close:
        return None
    line = text.count("\n", 0, begin) + 1
    column = begin - text.rfind("\n", 0, begin)
    return Diagnostic("E002", f"unknown keyword '{word}'", Span(path, line, column, line, column + len(word)),
                      hint=f"did you mean '{close}'?")


def _starts_declaration(text: str, token: Token, words: GrammarWords) -> bool:
    """Whether ``token`` is the first word of a line that starts a declaration."""
    start = token.start_pos
    return start is not None and (start == 0 or text[start - 1] == "\n") \
        and bool(words.declaration_start.match(text, start))


def _is_end_token(error: UnexpectedInput) -> bool:
    return isinstance(error, UnexpectedToken) and error.token.type == "$END"


def token_span(path: str, token: Token) -> Span:
    """The span of ``token`` (one character wide when it is empty or has no end)."""
    line, column = token.line or 1, token.column or 1
    return Span(path, line, column, token.end_line or line, token.end_column or column + max(len(token), 1))


def _unexpected_token(error: UnexpectedToken, path: str, words: GrammarWords) -> Diagnostic:
    token: Token = error.token
    span = token_span(path, token)
    if token.type == "NAME":
        close = _close_word(str(token), words.expected_keywords(error))
        if close:
            return Diagnostic("E002", f"unknown keyword '{token}'", span, hint=f"did you mean '{close}'?")
        if "RBRACE" in error.expected or "COMMA" in error.expected:
            return Diagnostic("E002", f"unexpected name '{token}'", span,
                              hint="a separator or operator may be missing before it")
    return Diagnostic("E002", f"unexpected {_describe_token(token)}", span, hint=_expected_hint(error, words))


def _describe_token(token: Token) -> str:
    noun = _NOUNS.get(token.type)
    if noun and token.type != "$END":
        return f"{noun.split()[1]} {str(token)!r}"  # "name 'x'", not "a name"
    return repr(str(token))


_MAX_EXPECTED = 8


def _expected_hint(error: UnexpectedInput, words: GrammarWords) -> str | None:
    """'expected ...' in words of the language: values first, then symbols, then keywords."""
    expected: Collection[str] = getattr(error, "expected", None) or getattr(error, "allowed", None) or []
    said = sorted({word for name in expected for word in _spelled(name, words)}, key=_word_order)
    if not said:
        return None
    if len(said) > _MAX_EXPECTED:
        return "expected " + ", ".join(said[:_MAX_EXPECTED]) + ", ..."
    return "expected " + _either(said)


def _spelled(terminal: str, words: GrammarWords) -> tuple[str, ...]:
    """What a person types for the terminal named ``terminal`` (see ``spellings``)."""
    return words.spellings.get(terminal) or (_NOUNS.get(terminal) or "a " + terminal.strip("_$").lower(),)


def _word_order(word: str) -> tuple[int, str]:
    """Values ('a name') first, then symbols ('{'), keywords ('phase'), and the end of the file."""
    if word == _NOUNS["$END"]:
        return 3, word
    if not word.startswith("'"):
        return 0, word
    return (2 if word.strip("'").isidentifier() else 1), word


def _unclosed_bracket(text: str, path: str, fix_at: str = "where this block ends") -> Diagnostic | None:
    """The bracket left open at the end of the text, skipping strings and comments: the '{'
    that indentation shows to end early (see ``_scan_brackets``) when there is one inside the
    innermost bracket left open, else that innermost bracket, with a hint to close it ``fix_at``."""
    still_open, seem_closed = _scan_brackets(text)
    if not still_open:
        return None
    innermost = still_open[-1]
    inside = [(opening, line) for opening, line in seem_closed.items()
              if innermost.char == "{" and opening.position >= innermost.position]
    if inside:
        opening, ends_before = inside[0]
        return Diagnostic("E003", "'{' is never closed", Span.point(path, opening.line, opening.column),
                          hint=f"this '{{' (line {opening.line}) is never closed; "
                               f"its block seems to end before line {ends_before}")
    return Diagnostic("E003", f"'{innermost.char}' is never closed",
                      Span.point(path, innermost.line, innermost.column),
                      hint=f"add '{_CLOSER_OF[innermost.char]}' {fix_at}")


_CLOSER_OF = {"{": "}", "[": "]", "(": ")"}
_OPENER_OF = {closer: opener for opener, closer in _CLOSER_OF.items()}


@dataclass(frozen=True)
class _Opening:
    """A bracket opened in the text, and the indentation of its line."""

    char: str
    line: int
    column: int
    indent: int

    @property
    def position(self) -> tuple[int, int]:
        return self.line, self.column


def _scan_brackets(text: str) -> tuple[list[_Opening], dict[_Opening, int]]:
    """The brackets still open at the end of ``text`` (outermost first), and each '{' whose
    block seems to end while it is open: a line of code, not starting with a closing bracket,
    indented no deeper than the line of that '{' although the block's first line is deeper
    (each with that line, in the order found)."""
    still_open: list[_Opening] = []
    first_indent: dict[_Opening, int] = {}   # the indentation of the first line inside each block
    seem_closed: dict[_Opening, int] = {}
    for number, line in enumerate(text.split("\n"), 1):
        code = code_part(line)
        ended = _block_ended_by(code, still_open, first_indent)
        if ended:
            seem_closed.setdefault(ended, number)
        for column, char in _brackets_in(code):
            if char in _CLOSER_OF:
                still_open.append(_Opening(char, number, column, _indent(code)))
            elif still_open and still_open[-1].char == _OPENER_OF[char]:
                still_open.pop()
    return still_open, seem_closed


def _block_ended_by(code: str, still_open: list[_Opening], first_indent: dict[_Opening, int]) -> _Opening | None:
    """The innermost open '{' that the line ``code`` is indented too little to be inside
    (noting the line as the first of the blocks that have none yet). Not for a line that
    starts with a closing bracket or inside '(' or '[': its indentation says nothing."""
    start = code.lstrip(" \t")[:1]
    if not start or start in _OPENER_OF or not still_open or still_open[-1].char != "{":
        return None
    indent = _indent(code)
    for opening in still_open:
        first_indent.setdefault(opening, indent)
    return next((opening for opening in reversed(still_open)
                 if opening.char == "{" and first_indent[opening] > opening.indent >= indent), None)


def _indent(code: str) -> int:
    """The width of the blanks that start ``code`` (a tab to the next multiple of 8)."""
    expanded = code.expandtabs(8)
    return len(expanded) - len(expanded.lstrip(" \t"))


def _brackets_in(code: str) -> Iterator[tuple[int, str]]:
    """(column, bracket) of each bracket of a line of code, outside strings."""
    for i, char in outside_strings(code):
        if char in _CLOSER_OF or char in _OPENER_OF:
            yield i + 1, char
