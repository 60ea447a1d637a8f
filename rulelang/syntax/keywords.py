"""The keywords of the language in classes, read from the grammars (one source of truth): what
an editor colours as a declaration, a control word, an operator, a constant or a type. The
TextMate grammar (``rulelang.commands.textmate``) and the web page's editor read them here, so
that a keyword added to ``grammar.lark`` or ``tests_grammar.lark`` is coloured everywhere."""
from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, TypeAlias

from rulelang.syntax.parser import grammar_parser, tests_parser
from rulelang.syntax.syntax_errors import grammar_words

if TYPE_CHECKING:
    from lark import Lark
    from lark.grammar import Symbol

Rules: TypeAlias = "dict[str, list[Sequence[Symbol]]]"   # each rule's alternatives, by its name
Words: TypeAlias = Mapping[str, str]                       # the keyword of each keyword terminal

# The rules of the grammar whose keywords are operators between (or before) expressions.
OPERATOR_RULES = ("or_expr", "and_expr", "not_expr", "comparison")
CONSTANT_RULE = "atom"        # a keyword alone as an atom is a constant: true, false, none
TYPE_RULE = "type"            # the keywords of a declared type: list, map
ITEM_RULES = {"start": "item", "tests_file": "tests_file"}   # what a file is made of, by start rule


@dataclass(frozen=True)
class KeywordClasses:
    """The keywords of one grammar, each in exactly one class."""

    declaration: tuple[str, ...]   # open a declaration (or a part of a test file): phase, zone, player, override
    control: tuple[str, ...]       # statements and their clauses: if, choose, move, to, otherwise
    operator: tuple[str, ...]      # operators written as words: and, or, not, in
    constant: tuple[str, ...]      # true, false, none
    type: tuple[str, ...]          # list, map

    @property
    def all(self) -> tuple[str, ...]:
        """Every keyword, sorted."""
        return tuple(sorted({*self.declaration, *self.control, *self.operator, *self.constant, *self.type}))


@cache
def ruleset_keywords() -> KeywordClasses:
    """The keywords of ``.rules`` files, in classes."""
    return keyword_classes(grammar_parser(), "start")


@cache
def tests_keywords() -> KeywordClasses:
    """The keywords of ``.tests`` files in classes: those of rulesets in their class, the
    words of test files by the test grammar."""
    rules, tests = ruleset_keywords(), keyword_classes(tests_parser(), "tests_file")
    own = set(tests.all) - set(rules.all)
    return KeywordClasses(*(tuple(sorted({*mine, *own.intersection(theirs)}))
                            for mine, theirs in zip(_classes(rules), _classes(tests), strict=True)))


@dataclass(frozen=True)
class Openers:
    """The keywords that are keywords only where they open something: at a line's start, after
    a '{', or right after one of ``after`` ('override zone', 'end game'); names elsewhere (a
    zone called 'deck', 'for p in players' in a test file)."""

    words: tuple[str, ...]
    after: tuple[str, ...]


@cache
def ruleset_openers() -> Openers:
    """The openers of ``.rules`` files: the declaration words."""
    declaration = set(ruleset_keywords().declaration)
    return _openers(grammar_parser(), declaration, declaration)


@cache
def tests_openers() -> Openers:
    """The openers of ``.tests`` files: those of rulesets, and the words of test files that
    open a header, a setting or a step ('players 3', 'expect ...')."""
    words = grammar_words(tests_parser()).terminal_keywords
    own = set(tests_keywords().all) - set(ruleset_keywords().all)
    opening = {words[e[0].name] for alternatives in _expansions(tests_parser()).values() for e in alternatives
               if e and e[0].name in words}
    rules = ruleset_openers()
    tests = _openers(tests_parser(), set(rules.words) | (own & opening), set(rules.after))
    return Openers(tests.words, tuple(sorted({*rules.after, *tests.after})))


def _openers(parser: Lark, openers: set[str], chained: set[str]) -> Openers:
    """``openers``, after the ``chained`` ones ('override player zone') and the keywords that
    the grammar writes right before one ('end game')."""
    words = grammar_words(parser).terminal_keywords
    before = {words[a.name] for alternatives in _expansions(parser).values() for e in alternatives
              for a, b in itertools.pairwise(e) if a.name in words and words.get(b.name) in openers}
    return Openers(tuple(sorted(openers)), tuple(sorted(chained | before)))


def _classes(keywords: KeywordClasses) -> tuple[tuple[str, ...], ...]:
    return keywords.declaration, keywords.control, keywords.operator, keywords.constant, keywords.type


def keyword_classes(parser: Lark, start: str) -> KeywordClasses:
    """The keywords of ``parser``'s grammar in classes: constants, types and operators by the
    rules they stand in, declarations by what opens an item of the file, the rest control."""
    words = grammar_words(parser).terminal_keywords
    rules = _expansions(parser)
    constant = {words[e[0].name] for e in rules.get(CONSTANT_RULE, []) if len(e) == 1 and e[0].name in words}
    types = set(_keywords_in(rules, (TYPE_RULE,), words))
    operator = set(_keywords_in(rules, OPERATOR_RULES, words))
    declaration = _first_keywords(rules, ITEM_RULES[start], words, set()) - constant - types - operator
    control = set(words.values()) - declaration - constant - types - operator
    return KeywordClasses(*(tuple(sorted(c)) for c in (declaration, control, operator, constant, types)))


def _expansions(parser: Lark) -> Rules:
    """Each rule's alternatives, by the rule's name."""
    rules: Rules = {}
    for rule in parser.rules:
        rules.setdefault(rule.origin.name, []).append(rule.expansion)
    return rules


def _keywords_in(rules: Rules, names: Sequence[str], words: Words) -> Iterator[str]:
    """The keywords in the alternatives of the rules ``names`` and of the helper rules Lark
    makes of their repetitions (``__or_expr_star_8``)."""
    for origin, expansions in rules.items():
        if origin.lstrip("_").rsplit("_star_", 1)[0].rsplit("_plus_", 1)[0] in names:
            yield from (words[s.name] for e in expansions for s in e if s.name in words)


def _first_keywords(rules: Rules, rule: str, words: Words,
                    seen: set[str]) -> set[str]:
    """The keywords that can open ``rule``, and the keywords that can follow an opening
    rule of keywords (an owner: 'player' then 'zone'), and the optional prefix ('override')."""
    seen.add(rule)
    found: set[str] = set()
    for expansion in rules.get(rule, []):
        for symbol in expansion[:2]:
            if symbol.name in words:
                found.add(words[symbol.name])
            elif not symbol.is_term and symbol.name not in seen:
                found |= _first_keywords(rules, symbol.name, words, seen)
            if symbol is expansion[0] and not (symbol.name in words or _is_prefix(rules, symbol.name, words)):
                break
    return found


def _is_prefix(rules: Rules, rule: str, words: Words) -> bool:
    """Whether ``rule`` is made of keywords only (an owner: 'player', 'space'), so that what
    follows it also opens the item."""
    return rule in rules and all(all(s.name in words for s in e) for e in rules[rule])
