"""Token counts and transfers: ``tokens(h, s)``, ``bank(s)``, ``x.supply``, 'gain' and 'pay'.

The compiler reads token counts from the state's table in place where it can (a supply of
the ruleset or a variable holding one, a player or a component: interpreter/compiler/tokens.py)
and takes the checked path elsewhere. Each case runs twice: in a phase that never pauses (its
locals are Python locals) and after a choice (its locals in the frame's environment); both give
the same counts, and a wrong holder, supply or amount the same error at the same statement.
"""
from __future__ import annotations

import re

import pytest

import rulelang
from rulelang import RulesRuntimeError

DECLARATIONS = """
game "T" { players 2 }
supply coins total 10
supply gems total 4
component chip { n: int }
zone pile: chip visible all
deck chips: chip in pile = [chip(n: i) for i in 1..3]
var out: int = 0
var outs: list[int] = []
procedure v_int() { return 3 }
procedure v_neg() { return -2 }
procedure v_two() { return 2 }
procedure v_true() { return true }
procedure v_str() { return "a" }
procedure v_player() { return players[0] }
procedure v_pile() { return pile }
procedure v_chip() { return chips[1] }
procedure v_gems() { return gems }
function f(h: player) -> int = tokens(h, coins) + bank(coins)
function g(h: chip) -> int = tokens(h, gems) * 10 + h.gems
function kind(x: int) -> supply = if x > 0 then gems else coins
function kind_again(x: int) -> supply = kind(x)
"""

# holders 0 the bank, 1 and 2 the players, 3.. the chips
COUNTS = {
    "gain 3 coins to players[0]\n out = tokens(players[0], coins)": (3, [], [7, 3, 0, 0, 0, 0], [4] + [0] * 5),
    "gain 3 coins to chips[1]\n out = tokens(chips[1], coins) + chips[1].coins": (6, [], [7, 0, 0, 0, 3, 0], None),
    "let k = gems\n gain 2 k to chips[0]\n out = tokens(chips[0], k)\n pay 1 k from chips[0] to players[0]\n"
    " outs = [tokens(players[0], k), tokens(chips[0], k), bank(gems)]": (2, [1, 1, 2], None, [2, 1, 0, 1, 0, 0]),
    "let k = call v_gems()\n let c = call v_chip()\n gain 2 k to c\n out = tokens(c, k)\n"
    " pay 1 k from c to players[1]\n outs = [tokens(players[1], k), tokens(c, k), bank(gems), g(c)]":
        (2, [1, 1, 2, 11], None, [2, 0, 1, 0, 1, 0]),
    "gain 2 coins to chips[0]\n gain 1 coins to chips[2]\n outs = [tokens(c, coins) for c in chips] + "
    "[c.coins for c in chips]\n out = sum(tokens(c, coins) for c in chips if tokens(c, coins) > 0)":
        (3, [2, 0, 1, 2, 0, 1], [7, 0, 0, 2, 0, 1], None),
    "gain 30 coins to players[0]\n pay 40 coins from players[0] to chips[0]\n"
    " outs = [players[0].coins, chips[0].coins, bank(coins)]": (0, [0, 10, 0], [0, 0, 0, 10, 0, 0], None),
    "gain 2 coins to players[1]\n out = f(players[1]) + f(players[0])\n outs = [bank(coins), bank(gems)]":
        (18, [8, 4], [8, 0, 2, 0, 0, 0], None),
    "gain 2 gems to chips[1]\n gain 1 coins to players[1]\n let c = call v_chip()\n"
    " outs = [tokens(h, kind(1)) for h in chips] + [tokens(c, kind_again(2)), tokens(players[1], kind(0))]\n"
    " out = tokens(c, if out > 0 then coins else kind(0))": (0, [0, 2, 0, 2, 1], [9, 0, 1, 0, 0, 0], None),
}

ERRORS = {
    "let which = call v_int()\n out = tokens(which, coins)": "tokens are held by players or components, not by a int",
    "let which = call v_pile()\n out = tokens(which, coins)": "tokens are held by players or components, not by a zone",
    "let which = call v_int()\n outs = [tokens(x, coins) for x in [which]]":
        "tokens are held by players or components, not by a int",
    "let which = call v_int()\n out = tokens(players[0], which)": "tokens() takes a holder and a supply, got int",
    "let which = call v_player()\n outs = [tokens(c, which) for c in chips]":
        "tokens() takes a holder and a supply, got player",
    "let which = call v_int()\n out = tokens(which, which)": "tokens() takes a holder and a supply, got int",
    "let which = call v_int()\n out = tokens(which, kind(1))": "tokens are held by players or components, not by a int",
    "let which = call v_pile()\n outs = [tokens(which, kind(c.n)) for c in chips]":
        "tokens are held by players or components, not by a zone",
    "let which = call v_player()\n out = bank(which)": "bank() takes a supply, got player",
    "let which = call v_player()\n gain 1 which to players[0]": "'which' should hold a supply, not a player",
    "let which = call v_int()\n pay 1 which from players[0]": "'which' should hold a supply, not a int",
    "let which = call v_int()\n gain 1 coins to which": "tokens are held by players or components, not by a int",
    "let which = call v_pile()\n pay 1 coins from which": "tokens are held by players or components, not by a zone",
    "let which = call v_str()\n pay 1 coins from players[0] to which":
        "tokens are held by players or components, not by a string",
    "let which = call v_neg()\n gain which coins to players[0]": "an amount cannot be negative (-2)",
    "let which = call v_two()\n gain 1 - which * 2 coins to players[0]": "an amount cannot be negative (-3)",
    "let which = call v_true()\n gain which coins to players[0]": "an amount must be a number, got bool",
    "let which = call v_str()\n gain which coins to chips[0]": "an amount must be a number, got string",
}


def text_of(body: str, paused: bool) -> str:
    """The ruleset whose one phase runs ``body``, after a choice when ``paused``."""
    choice = " choose z in [1, 2] by players[0]\n" if paused else ""
    return f"{DECLARATIONS}phase main {{\n{choice} {body}\n}}\n"


def run(body: str, paused: bool) -> rulelang.State:
    """The game of ``text_of(body, paused)``, run to its end (or its error)."""
    game = rulelang.load(text_of(body, paused))
    state = game.new_initial_state(seed=0)
    if paused:
        state.apply_action(state.legal_actions(0)[0], player=0)
    return state


@pytest.mark.parametrize("paused", [False, True], ids=["python-locals", "after-a-choice"])
@pytest.mark.parametrize("body", list(COUNTS), ids=range(len(COUNTS)))
def test_token_counts_read_and_move(body: str, paused: bool) -> None:
    out, outs, coins, gems = COUNTS[body]
    data = run(body, paused).to_json()
    assert (data["globals"]["out"], data["globals"]["outs"]) == (out, outs)
    for name, held in (("coins", coins), ("gems", gems)):
        if held is not None:
            assert data["supplies"][name] == held
    assert sum(data["supplies"]["coins"]) == 10 and sum(data["supplies"]["gems"]) == 4


@pytest.mark.parametrize("paused", [False, True], ids=["python-locals", "after-a-choice"])
@pytest.mark.parametrize("body", list(ERRORS), ids=range(len(ERRORS)))
def test_a_wrong_holder_supply_or_amount_is_located_at_its_statement(body: str, paused: bool) -> None:
    with pytest.raises(RulesRuntimeError) as caught:
        run(body, paused)
    diagnostic = caught.value.diagnostic
    assert diagnostic.code == "E602"
    assert diagnostic.message.startswith(ERRORS[body])
    assert diagnostic.span is not None   # at the statement that failed: the body's last
    assert text_of(body, paused).splitlines()[diagnostic.span.line - 1] == body.splitlines()[-1]



def test_token_counts_are_proven_integers_read_in_place() -> None:
    """A sum of token counts is plain Python (a count is at most its supply's total), and a
    count of a supply of the ruleset is one subscript of its table: the builtin is called
    only where the holder is of another kind (the checked path, raising the rules' error)."""
    body = ("gain 2 coins to chips[0]\n gain 1 gems to chips[0]\n"
            " outs = [c.coins + c.gems + tokens(c, coins) for c in chips if c.coins + bank(gems) > 3]")
    game = rulelang.load(text_of(body, False).replace("function f(", "function unused_f(")
                         .replace("function g(", "function unused_g("))
    listing = game.generated_code()
    builtin = re.search(r"# (_k\d+) = <builtin tokens>", listing)
    code = listing[listing.index("\ndef "):]
    assert builtin is not None and re.findall(rf"\S+ {builtin.group(1)}\(", code) == ["else"] * code.count(
        f"{builtin.group(1)}(")
    assert "_plus" not in code and "_order" not in code
    assert game.new_initial_state(seed=0).to_json()["globals"]["outs"] == [5]


def test_a_supply_a_function_certainly_gives_is_read_in_place() -> None:
    """``tokens(h, f(x))`` where ``f`` certainly gives a supply (a supply of the ruleset, or
    either of two, or another such function's value): its table read at the supply's name,
    the builtin called only for a holder of another kind."""
    body = "gain 2 gems to chips[1]\n outs = [tokens(h, kind(h.n - 1)) + tokens(h, kind_again(1)) for h in chips]"
    game = rulelang.load(text_of(body, False))
    listing = game.generated_code()
    builtin = re.search(r"# (_k\d+) = <builtin tokens>", listing)
    assert builtin is None or f"{builtin.group(1)}(" not in listing[listing.index("\ndef "):]
    assert game.new_initial_state(seed=0).to_json()["globals"]["outs"] == [0, 4, 0]
