"""Syntax hints speak the language: every word a hint uses for a token is what a person
types (read from the grammar's terminals), a procedure call written without 'call' is
told so, and an unclosed '{' is found by indentation at the innermost block it leaves open."""
from __future__ import annotations

import re

import pytest
from lark import Lark
from lark.exceptions import UnexpectedInput

from rulelang import RulesetError
from rulelang.diagnostics import Diagnostic
from rulelang.syntax.parser import GRAMMAR, grammar_parser, parse
from rulelang.syntax.syntax_errors import grammar_words, spellings, syntax_diagnostics, terminal_word

HEADER = 'game "g" { players 2 }\nvar total: int = 0\n'


def problems(text: str) -> list[Diagnostic]:
    with pytest.raises(RulesetError) as caught:
        parse(text, "t.rules")
    return list(caught.value.diagnostics)


def only_problem(text: str) -> tuple[int, int, str, str, str | None]:
    """(line, column, code, message, hint) of the one syntax diagnostic of ``text``."""
    (problem,) = problems(text)
    return problem.span.line, problem.span.column, problem.code, problem.message, problem.hint


# ---------------------------------------------------------------- words for terminals

PARSER = grammar_parser()
WORDS = grammar_words(PARSER)
IGNORED = set(PARSER.lexer_conf.ignore)   # blanks and comments: never expected
TERMINALS = [t for t in PARSER.terminals if t.name not in IGNORED]
RULE_NAMES = {rule.origin.name for rule in PARSER.rules} | {str(rule.alias) for rule in PARSER.rules if rule.alias}
# Plain words a person uses that the grammar also happens to use as rule names.
PLAIN_NOUNS = {"name", "string", "comparison"}
QUOTED = re.compile(r"'([^']*)'")


@pytest.mark.parametrize("terminal", TERMINALS, ids=[t.name for t in TERMINALS])
def test_every_terminal_has_a_word_of_the_language(terminal):
    assert WORDS.spellings[terminal.name] == spellings(terminal)
    word = terminal_word(terminal)
    assert not re.search(r"[A-Z]{2}|_", word), word   # no 'ADD_OP', 'LBRACE', '__ANON_0', 'add_op'
    said = set(re.findall(r"[a-z]+", QUOTED.sub("", word)))
    assert not said & (RULE_NAMES - PLAIN_NOUNS), word
    assert terminal.name.lower() not in said - PLAIN_NOUNS, word   # not 'minus', 'lbrace'
    regex = terminal.pattern.to_regexp()
    for literal in QUOTED.findall(word):
        assert re.fullmatch(regex, literal), f"{terminal.name}: {literal!r} is not what it matches"


@pytest.mark.parametrize("name, word", [
    ("ADD_OP", "'+' or '-'"),
    ("MUL_OP", "'*', '/' or '%'"),
    ("ASSIGN_OP", "'=', '+=' or '-='"),
    ("COMP_OP", "a comparison ('<', '>', ...)"),
    ("NAME", "a name"),
    ("INT", "a number"),
    ("STRING", "a string in quotes"),
    ("LBRACE", "'{'"),
    ("RPAR", "')'"),
    ("MINUS", "'-'"),
    ("_NOT", "'not'"),
    ("PHASE", "'phase'"),
])
def test_terminal_words(name, word):
    (terminal,) = (t for t in TERMINALS if t.name == name)
    assert terminal_word(terminal) == word


def test_every_keyword_terminal_is_its_keyword():
    for name, keyword in WORDS.terminal_keywords.items():
        assert WORDS.spellings[name] == (f"'{keyword}'",)


def grammar_with_a_new_declaration() -> Lark:
    """The grammar with a declaration it does not have: 'teleport a ~> b'."""
    text, count = re.subn(r"^\?decl:", "?decl: teleport_decl\n     |", GRAMMAR.read_text(encoding="utf-8"),
                          flags=re.M)
    assert count == 1
    return Lark(text + '\nteleport_decl: "teleport" NAME "~>" NAME\n', parser="lalr",
                propagate_positions=True, maybe_placeholders=True)


def test_words_of_a_new_declaration_come_from_the_grammar():
    parser = grammar_with_a_new_declaration()
    text = HEADER + "teleport a b\n"
    with pytest.raises(UnexpectedInput) as caught:
        parser.parse(text)
    (problem,) = syntax_diagnostics(caught.value, text, "t.rules", parser)
    assert (problem.span.line, problem.span.column) == (3, 12)
    assert problem.hint == "expected '~>'"
    words = grammar_words(parser)
    assert "teleport" in words.declaration_words and ("'teleport'",) in words.spellings.values()


# ---------------------------------------------------------------- hints in those words

def test_an_expected_operator_is_the_operator_itself():
    line, column, code, message, hint = only_problem(HEADER + "phase main { log 1 @ 2 }\n")
    assert (line, column, code, message) == (3, 20, "E002", "unexpected character '@'")
    assert hint == ("expected a comparison ('<', '>', ...), a name, a number, a string in quotes, "
                    "'%', '(', ')', '*', ...")


def test_an_unfinished_sum_expects_values_in_words():
    assert only_problem(HEADER + "phase main {\n  let x = 1 +\n}\n") == (
        4, 14, "E002", "unfinished: '}' on line 5 cannot come next",
        "expected a name, a number, a string in quotes, '(', '-' or '['")


def test_the_end_of_the_file_expects_words_not_terminal_names():
    line, column, code, _, hint = only_problem(HEADER + "score p =")
    assert (line, column, code) == (3, 10, "E004")
    assert hint is not None and hint.startswith("expected a name, a number, a string in quotes, '(', '-', '[', 'false'")
    assert "minus" not in hint and "lsqb" not in hint


def test_an_assignment_without_its_operator_names_the_operators():
    text = HEADER + "phase main {\n  total 1\n}\n"
    assert only_problem(text) == (4, 9, "E002", "unexpected number '1'", "expected '+=', '-=', '.', '=' or '['")


# ---------------------------------------------------------------- a call without 'call'

PROCEDURE = "procedure tally(n: int) {\n  total += n\n}\n"


def test_the_statement_keyword_of_a_call_comes_from_the_grammar():
    assert WORDS.call_keyword == "call"


def test_a_bare_call_before_another_statement_says_to_write_call():
    text = HEADER + PROCEDURE + "phase main {\n  tally(1)\n  end game\n}\n"
    assert only_problem(text) == (7, 3, "E002", "a call on its own is not a statement",
                                  "to call a procedure, write 'call tally(1)'")


def test_a_bare_call_at_the_end_of_a_block_says_to_write_call():
    text = HEADER + PROCEDURE + "phase main { tally( 2 ) }\n"
    assert only_problem(text) == (6, 14, "E002", "a call on its own is not a statement",
                                  "to call a procedure, write 'call tally( 2 )'")


def test_a_bare_call_over_several_lines_is_shortened_in_the_hint():
    text = HEADER + PROCEDURE + 'phase main {\n  tally(1,\n        ")")\n  end game\n}\n'
    (problem,) = problems(text)
    assert (problem.span.line, problem.span.column, problem.span.end_line) == (7, 3, 8)
    assert problem.hint == "to call a procedure, write 'call tally(...)'"


def test_a_bare_name_is_not_taken_for_a_call():
    text = HEADER + "phase main {\n  total\n  end game\n}\n"
    assert only_problem(text) == (4, 8, "E002", "unfinished: 'end' on line 5 cannot come next",
                                  "expected '+=', '-=', '.', '=' or '['")


def test_an_indexed_call_is_not_taken_for_a_bare_call():
    text = HEADER + "phase main { f(1)[0] }\n"
    line, column, _, message, _ = only_problem(text)
    assert (line, column, message) == (3, 22, "unexpected '}'")


# ---------------------------------------------------------------- an unclosed '{'

INNER_IF = ("procedure tally(n: int) {\n"      # line 3
            "  for i in 1..n {\n"              # 4
            "    if i % 2 == 0 {\n"            # 5: never closed
            "      total += i\n"               # 6
            "    log i\n"                      # 7: the 'if' block has ended
            "  }\n"                            # 8
            "}\n")                             # 9


def test_an_inner_block_left_open_at_the_end_is_reported_at_its_brace():
    assert only_problem(HEADER + INNER_IF) == (
        5, 19, "E003", "'{' is never closed",
        "this '{' (line 5) is never closed; its block seems to end before line 7")


def test_an_inner_block_left_open_before_a_declaration_is_reported_at_its_brace():
    text = HEADER + INNER_IF + "\nphase main {\n  call tally(2)\n  end game\n}\n"
    assert only_problem(text) == (
        5, 19, "E003", "'{' is never closed",
        "this '{' (line 5) is never closed; its block seems to end before line 7")


def test_a_statement_at_the_margin_ends_the_block_above_it():
    text = HEADER + "phase main {\n  log 1\nlog 2\n"
    assert only_problem(text) == (3, 12, "E003", "'{' is never closed",
                                  "this '{' (line 3) is never closed; its block seems to end before line 5")


def test_closing_lines_comments_and_brackets_do_not_end_a_block():
    text = HEADER + ("phase main {\n  if total > 0 {\n    log [1,\n  2]\n# a comment at the margin\n"
                     "  } else {\n    log 3\n  }\n  log 4\n")
    assert only_problem(text) == (3, 12, "E003", "'{' is never closed", "add '}' where this block ends")


def test_without_indentation_the_innermost_open_brace_is_reported():
    text = HEADER + "phase main {\nif total > 0 {\nlog 1\n}\n"
    assert only_problem(text) == (3, 12, "E003", "'{' is never closed", "add '}' where this block ends")


def test_a_dedent_in_a_block_that_was_closed_does_not_move_the_report():
    text = HEADER + "phase one {\n    log 1\n  log 2\n}\nphase two {\n  log 3\n"
    assert only_problem(text) == (7, 11, "E003", "'{' is never closed", "add '}' where this block ends")


def test_a_later_declaration_keeps_its_hint_when_indentation_says_nothing():
    text = HEADER + "phase main {\n  log 1\n\nphase other {\n  end game\n}\n"
    assert only_problem(text) == (3, 12, "E003", "'{' is never closed",
                                  "add '}' before line 6, where the next declaration starts")


def test_an_open_parenthesis_is_still_reported_as_before():
    text = HEADER + "phase main {\n  log max(1,\n"
    assert only_problem(text) == (4, 10, "E003", "'(' is never closed", "add ')' where this block ends")


# ---------------------------------------------------------------- roll and random inside expressions

CHANCE = "die d6 = 1..6\nvar x: int = 0\n"


@pytest.mark.parametrize("statement,column,word", [
    ("let pair = [roll d6, roll d6]", 15, "roll"),     # the error is at 'd6', just after it
    ("x = roll d6 + 1", 7, "roll"),                     # ... at '+', after 'x = roll' read as a statement
    ("let a = 1 + roll d6", 15, "roll"),                # ... on the next line: the line was unfinished
    ("log random 1..3", 7, "random"),
])
def test_roll_or_random_inside_an_expression_says_it_is_a_statement(statement, column, word):
    text = HEADER + CHANCE + f"phase main {{\n  {statement}\n  log x\n}}\n"
    line, at, code, message, hint = only_problem(text)
    assert (at, code) == (column, "E002") and text.splitlines()[line - 1].strip() == statement
    assert message == f"'{word}' cannot stand inside an expression: it is a statement, the whole value of a 'let'"
    assert hint is not None and f"let a = {word}" in hint


def test_a_roll_of_a_number_as_a_let_keeps_the_general_message():
    text = HEADER + CHANCE + "phase main {\n  let a = roll 6\n  log x\n}\n"
    assert only_problem(text)[3] == "unexpected number '6'"
