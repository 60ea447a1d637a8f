"""What the code of a procedure's statements reads once: a comprehension reads the tables of
its items, and the variables of known owners bound outside it, before its loops
(compiler/comprehensions.py); a block of statements of a procedure that may pause keeps each
of its 'let' locals that nothing else binds in a Python local too, read by its later
statements with what its value is known to be (procedures.py); what a list built by the
text holds is known through ``[]``, items of one kind and comprehensions (results.py), and
so is a function's value that is always a list (integers.py). Each against the general
path: the same states, work, errors and spans, at every step budget."""
from __future__ import annotations

import re

import pytest
from conftest import budgeted, worked_states

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import codegen, lower

RULES = """\
game "R" { players 2  max_steps STEPS }
component card { rank: int }
zone pile: card visible all
zone table: card visible all
player zone hand: card visible owner
deck cards: card in pile = [card(rank: k) for k in 1..10]
player var seat: int = 0
component var mark: int = 0
var out: list[int] = []

function pairs(p: player) -> list[list[card]] =
  if size(p.hand) == 0 then [] else [[c, m] for c in p.hand for m in table if c.rank + m.rank > 6]
function weight(ps: list[list[card]]) -> int = sum(pl[0].rank * pl[1].rank for pl in ps)
function options(p: player) -> list[string] = (if size(p.hand) > 1 then ["mark"] else []) + ["pass"]

setup {
  for p in players {
    p.seat = player_number(p)
  }
}

procedure turn(p: player) {
  move top(pile) to p.hand
  let ps = pairs(p)
  let mine = [c for c in p.hand if c.mark == p.seat]
  let offered = options(p) + ["stop"]
  let shown = offered + ["help"]
  out = out + [weight(ps), size(mine), size(shown)]
  choose what in offered by p prompt "{p}: what now"
  if what == "mark" {
    choose c in p.hand by p prompt "{p}: the card to mark"
    c.mark = p.seat
    let kept = [x for x in p.hand if x.mark == p.seat]
    out = out + [kept[0].rank, kept[size(kept) - 1].rank]
  }
  if size(pile) > 0 {
    move top(pile) to table
  }
}

phase play {
  for p in players {
    if size(pile) > 0 {
      call turn(p)
    }
  }
  if size(pile) == 0 {
    end game
  }
  next play
}
"""


def _game(steps: int = 100_000) -> rulelang.Game:
    return rulelang.load(RULES.replace("STEPS", str(steps)))


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table read where it is used, every 'let' of a block read from the environment."""
    def in_place(module, scope, names, element, loops):
        tables, scope.tables = scope.tables or {}, None
        for table, local in tables.items():
            element = re.sub(rf"\b{local}\b", table, element)
            loops = [re.sub(rf"\b{local}\b", table, loop) for loop in loops]
        return element, loops
    monkeypatch.setattr(codegen, "read_before", in_place)
    monkeypatch.setattr(lower, "names_bound_once", lambda params, body: frozenset())


# a local read from the environment, or kept for the lines after it (compiler/locals_read_once.py)
_LOCAL = r"(?:env\[_k\d+\]|\(_env\d+ := env\[_k\d+\]\)|_env\d+)"


def test_the_code_reads_once_what_it_can_and_checks_nothing_it_knows():
    listing = _game().generated_code()
    # p.seat and c.mark's table read once: before the comprehension's loops, or (the value of a
    # 'let': ProcedureWriter.expr_once) before the statement
    assert re.search(r"for _h\d+ in \(st\.player_values\[_k\d+\]\[_l\d+\.index\],\)", listing) \
        or re.search(r"_t\d+ = st\.player_values\[_k\d+\]\n", listing)
    assert re.search(r"for _t\d+ in \(st\.component_values\[_k\d+\],\)", listing) \
        or re.search(r"_t\d+ = st\.component_values\[_k\d+\]\n", listing)
    assert re.search(rf"_l\d+ = _fn\d+\(st, {_LOCAL}\)\n\s+env\[_k\d+\] = _l\d+", listing)   # ps, kept
    assert "<checks 'ps' of weight>" not in listing   # pairs(p) is certainly a list of lists of components
    assert re.search(r"st\.component_values\[_k\d+\]\[_t\d+\.id\] = _t\d+\n", listing)   # c.mark = p.seat: an int
    assert "_plus(" not in listing   # options(p) is certainly a list: joined as one
    (options,) = [unit for unit in re.split(r"\n(?=def )", listing) if "# function at line 14," in unit]
    assert "_concat(" not in options and ") + (" in options   # (two short lists: joined in place)
    assert re.search(rf"_l\d+ = \(_fn\d+\(st, {_LOCAL}\) \+ \(_k\d+, \)\)", listing)   # options(p) + ["stop"]
    assert re.search(r"_l\d+ = \(_l\d+ \+ \(_k\d+, \)\)", listing)   # offered, of 3 items at most, + ["help"]
    assert re.search(r"\(_l\d+\[_k\d+\] if _k\d+ < len\(_l\d+\) else _k\d+\(_l\d+, _k\d+\)\)", listing) \
        or re.search(r"\(_l\d+ or _k\d+\(0\)\)\[0\]", listing)   # kept[0], in place (the first item: fields.no_item)
    (weight,) = [unit for unit in re.split(r"\n(?=def )", listing) if "# function at line 13," in unit]
    assert "_index(" not in weight and "type(_v" not in weight   # pl, an item of a held list of lists: one


def test_random_games_leave_the_same_states_and_work_as_the_general_path(monkeypatch):
    fast = [worked_states(_game(), seed) for seed in range(12)]
    _general(monkeypatch)
    assert "for _h" not in _game().generated_code()
    assert fast == [worked_states(_game(), seed) for seed in range(12)]


def _outcome(steps: int, at=None) -> tuple[object, ...]:
    """What the first game (seed 3) with ``steps`` as its budget gives: its end, or its error
    (``at``: RULES loaded once, conftest.budgeted; none: the text loaded with that budget)."""
    try:
        return tuple(map(str, worked_states(_game(steps) if at is None else at(steps), 3)[-1]))
    except RulesRuntimeError as error:
        d = error.diagnostic
        return d.code, d.message, d.span.line, d.span.column


def _outcomes(budgets: range) -> list[tuple[object, ...]]:
    """``_outcome`` at each of ``budgets``, RULES loaded once (as loaded with the first and last)."""
    at = budgeted(RULES)
    found = [_outcome(steps, at) for steps in budgets]
    assert [found[0], found[-1]] == [_outcome(budgets[0]), _outcome(budgets[-1])]
    return found


def test_the_step_budget_stops_at_the_same_statement_as_the_general_path(monkeypatch):
    budgets = range(1, 90)
    fast = _outcomes(budgets)
    _general(monkeypatch)
    assert fast == _outcomes(budgets)
    stops = {outcome[2] for outcome in fast if outcome[0] == "E603"}
    assert len(stops) > 3 and any(outcome[0] != "E603" for outcome in fast)   # (stopped in several statements)


def test_an_item_past_the_end_is_the_rules_error_at_its_span():
    broken = RULES.replace("kept[size(kept) - 1].rank", "kept[size(kept)].rank")
    game = rulelang.load(broken.replace("STEPS", "100000"))
    with pytest.raises(RulesRuntimeError) as caught:
        for seed in range(20):
            worked_states(game, seed)
    d = caught.value.diagnostic
    assert "out of range" in d.message and d.span.line == broken.splitlines().index(
        "    out = out + [kept[0].rank, kept[size(kept)].rank]") + 1


UPDATES = """\
game "U" { players 1 }
var out: list[int] = []
procedure count(n: int) {
  let total = n
  total += 1
  total -= 3
  let xs = [n, 2]
  if 2 in xs {
    total += 10
  }
  out = out + [total]
  if n > 1000 {
    choose k in [1, 2] by players[0]
  }
}
phase p {
  call count(START)
  end game
}
"""


def _updates(start: str) -> object:
    try:
        return rulelang.load(UPDATES.replace("START", start)).new_initial_state().to_json()["globals"]["out"]
    except RulesRuntimeError as error:
        return error.diagnostic.code, error.diagnostic.span.line, error.diagnostic.message


def test_a_local_added_to_in_place_gives_the_same_values_and_errors(monkeypatch):
    from rulelang.interpreter.compiler import procedures
    listing = rulelang.load(UPDATES.replace("START", "5")).generated_code()
    assert re.search(r"if type\(_l\d+\) is int and _k\d+ <= _l\d+ <= _k\d+:\n\s+_l\d+ = _l\d+ \+ _k\d+", listing)
    starts = ["5", "2000", "922337203685477580 * 10 + 7", "-922337203685477580 * 10 - 5"]
    fast = [_updates(start) for start in starts]
    assert fast[:2] == [[13], [2008]] and fast[2][:2] == ("E602", 5) and "too large" in fast[2][2]
    assert re.search(r"\(_k\d+ in \((_l\d+) if type\(\1\) is tuple and len\(\1\) <= 64 else _as_list\(st, \1\)\)\)",
                     listing)   # (a list read at no cost: as it is where short)
    monkeypatch.setattr(procedures, "integer_bound", lambda cat, node, scope: None)
    assert "_updated(_l" in rulelang.load(UPDATES.replace("START", "5")).generated_code()
    assert fast == [_updates(start) for start in starts]


LISTED = RULES.replace("  let offered = options(p)", """\
  let total = sum(c.rank for c in p.hand if c.mark == 0)
  for c in sorted(c for c in p.hand by c.rank) {
    out = out + [total + c.rank, if enough(p) then 1 else 0]
  }
  let high = [c.rank for c in mine if c.rank > 2]
  out = out + high
  let counts = [count(c for c in p.hand if c.rank > k) for k in 1..3]
  out = out + counts
  let offered = options(p)""").replace("""  if size(pile) > 0 {
    move top(pile) to table""", """  let again = [p for q in [1, 2]]
  out = out + [size(again)]
  if size(pile) > 0 {
    move top(pile) to table""").replace("\nsetup {", """
function enough(p: player) -> bool = size(p.hand) == 1 or sum(c.rank * c.rank for c in p.hand) > 40

setup {""")


def _python_comprehensions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A statement's value, and a function's, written with the Python comprehension of its
    expression."""
    from rulelang.interpreter.compiler import loops, procedures
    monkeypatch.setattr(procedures, "listed_once", lambda writer, node, indent, span, scope: None)
    monkeypatch.setattr(loops, "lifted", lambda writer, node, scope: None)


def _listed_runs(rules: str) -> tuple[object, ...]:
    """Six games of ``rules``, and the first game's end or error at each budget up to 90."""
    runs = [worked_states(rulelang.load(rules.replace("STEPS", "100000")), seed) for seed in range(6)]
    at = budgeted(rules)
    budgets = range(1, 90)
    found = [_outcome_of(rules, 1, at(steps)) for steps in budgets]
    assert [found[0], found[-1]] == [_outcome_of(rules.replace("STEPS", str(steps)), 1) for steps in (1, 89)]
    return runs, found


def test_a_statement_computing_a_comprehension_first_runs_it_as_loops(monkeypatch):
    listing = rulelang.load(LISTED.replace("STEPS", "100000")).generated_code()
    charged = r"\2_x = st\.work \+ len\(\3\)\n\2st\.work = _x\n\2if _x > st\.max_steps:\n\2    st\.charge\(0\)\n"
    assert re.search(r"(_a\d+) = \[\]\n(\s+)(_s\d+) = (?:_st_|st\.)zones\[.*\.slot\]\n" + charged
                     + r"\2for _v\d+ in \3:\n\2    if .*:\n\2        \1\.append\(", listing)   # mine, kept: no
    # function made and called, the zone's items charged in place (no call of zone_items); high's, a list's, likewise
    assert re.search(r"(_a\d+) = \[\]\n(?=(\s+)_x = st\.work \+ len\((_l\d+)\))" + charged + r"\2for _v\d+ in \3:\n",
                     listing)
    assert re.search(r"\n( +)(_n\d+) = 0\n(\1.*\n)+\1        \2 \+= 1\n\1\w+\.append\(\2\)", listing)   # (counts)
    assert re.search(r"\n( +)(_h\d+) = env\[_k\d+\] if \w+ else None\n\1for .*:\n\1    \w+\.append\(\2\)", listing)
    # (again: the parameter p, after the pause, read once before the loop)
    assert re.search(r"_l\d+ = sum\(_a\d+\)", listing)
    assert re.search(r"sorted\(_a\d+, key=_second_of, reverse=False\)", listing)   # (by integers: aggregates.py)
    assert re.search(r"(_e\d+) = .*\n    if \1:\n        return \1\n    _a\d+ = \[\]\n", listing)   # enough(p)
    broken = LISTED.replace("let mine = [c for c", "let mine = [[c][c.rank] for c")
    fast = (_listed_runs(LISTED), _outcome_of(broken))
    _python_comprehensions(monkeypatch)
    assert not re.search(r"_a\d+ = \[\]", rulelang.load(LISTED.replace("STEPS", "100000")).generated_code())
    assert fast == (_listed_runs(LISTED), _outcome_of(broken))
    assert fast[1][0] == "E602" and fast[1][2] == broken.splitlines().index(
        "  let mine = [[c][c.rank] for c in p.hand if c.mark == p.seat]") + 1
    assert len({outcome[2] for outcome in fast[0][1] if outcome and outcome[0] == "E603"}) > 3


def _outcome_of(rules: str, games: int = 10, game: rulelang.Game | None = None) -> tuple[object, ...]:
    """The error of the first of ``games`` games of ``rules`` (or of ``game``, loaded from
    them) that has one (none: its end)."""
    game = game or rulelang.load(rules.replace("STEPS", "100000"))
    try:
        ends = [worked_states(game, seed)[-1] for seed in range(games)]
    except RulesRuntimeError as error:
        d = error.diagnostic
        return d.code, d.message, d.span.line, d.span.column
    return tuple(map(str, ends))


CALLED = LISTED.replace("if enough(p) then 1 else 0",
                        "if some(p, c.rank) > 5 or heavy(p, c.rank) or light(p, c.rank) then 1 else 0").replace(
    "\nsetup {", """
function twice(k: int) -> int = if k > 4 then 2 else 1
function heavy(p: player, k: int) -> bool = twice(k) < 1 or sum(twice(k) + c.rank for c in p.hand) > 12
function light(p: player, k: int) -> bool = sum(c.rank for c in p.hand) > twice(k)
function some(p: player, k: int) -> int = sum(if c.rank > 4 then twice(k) else 0 for c in p.hand)

setup {""")


def test_a_small_function_called_for_each_item_is_written_in_place(monkeypatch):
    from rulelang.interpreter.compiler import comprehensions, loops
    listing = rulelang.load(CALLED.replace("STEPS", "100000")).generated_code()
    charged = r"(_w\d+) = st\.work \+ 4\n\s+if \1 > st\.max_steps:\n\s+_fn\d+\(st, _v\d+\)\n\s+st\.work = \1\n"
    assert re.search(charged + r"\s+(_c\d+) = .*\n\s+_a\d+\.append\(_plus\(st, \2, ", listing)
    assert re.search(r"(_c\d+) = .*\n    (_e\d+) = _order0\(\1, _k\d+\)\n    if \2:", listing)   # (the or)
    assert re.search(r"(_c\d+) = .*\n    return _order\d\(sum\(_a\d+\), \1\)", listing)   # (after the sum)
    assert re.search(r"append\(\(_fn\d+\(st, _v\d+\) if ", listing)   # (some's: a value chosen after its test)
    fast = _listed_runs(CALLED)
    for module in (comprehensions, loops):   # (the calls made)
        monkeypatch.setattr(module, "in_place", lambda module, element: ([], element))
    assert not re.search(r"_c\d+ = ", rulelang.load(CALLED.replace("STEPS", "100000")).generated_code())
    assert fast == _listed_runs(CALLED)
    assert len({outcome[2] for outcome in fast[1] if outcome and outcome[0] == "E603"}) > 3


def test_a_call_written_in_place_charges_the_work_of_the_state():
    """A function's body whose loop counts its work in a local (``work_kept``) is left to the
    state's count where a call is written in place, whose charge the local would lose."""
    from rulelang.interpreter.compiler import loops
    charged = ["_x = st.work + len(_s1)", "st.work = _x", "if _x > st.max_steps:", "    st.charge(0)"]
    body = ["_a2 = []", "for _v3 in _k9:", "    _s1 = st.zones[_v3.slot]", *("    " + line for line in charged),
            "    for _v4 in _s1:", "        _a2.append(_v4)"]
    assert loops.work_kept([*body, "return tuple(_a2)"]) is not None
    in_place = ["_w5 = st.work + 4", "if _w5 > st.max_steps:", "    _fn6(st, _v7)", "st.work = _w5", "_c8 = _v7"]
    assert loops.work_kept([*body, *in_place, "return (tuple(_a2), _c8)"]) is None


SOURCED = LISTED.replace("  let total = sum(c.rank for c in p.hand if c.mark == 0)", """\
  let extra = sum(k * 2 for k in 1..size(p.hand))
  let total = sum(c.rank for c in cards_of(p) if c.mark == 0) + extra""").replace("\nsetup {", """
function cards_of(p: player) -> list[card] = list(p.hand) + [c for c in table if c.rank > 3]

setup {""")


def test_the_items_of_a_lifted_clause_are_charged_in_place(monkeypatch):
    from rulelang.interpreter.compiler import comprehensions
    listing = rulelang.load(SOURCED.replace("STEPS", "100000")).generated_code()

    def charged(source: str) -> bool:   # (a list the text proves one, or any items as runtime.items takes them)
        found = re.search(source + r"\n((?:[^\n]*\n){1,8}?)\s*for _v\d+ in \1:", listing)
        return found is not None and f"st.work + len({found.group(1)})" in found.group(2)
    assert charged(r"(_s\d+) = _fn\d+\(st, [^\n]+\)")   # (a function's list)
    assert charged(r"(_s\d+) = _range\(st, [^\n]+\)")   # (a range)
    fast = _listed_runs(SOURCED)
    monkeypatch.setattr(comprehensions, "clause_lines", lambda module, clause: [clause])
    monkeypatch.setattr(comprehensions, "charged_in_place", lambda module, clause, source: [f"{clause}:"])
    assert not re.search(r"_s\d+ = _fn\d+\(st, ", rulelang.load(SOURCED.replace("STEPS", "100000")).generated_code())
    assert fast == _listed_runs(SOURCED)
    assert len({outcome[2] for outcome in fast[1] if outcome and outcome[0] == "E603"}) > 3
