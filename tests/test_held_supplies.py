"""A parameter or a variable declared ``supply`` holds a supply (tables/declared.py: the
class of supplies, dice and boards, of the kind ``supply``): checked at the call or the write
where the text does not prove it (the rules' error, located there) and when a saved state is
read back; its token counts, gains, pays and log lines are then read without testing it
(compiler/tokens.py, logs.py), the same counts and lines as before."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import generated_functions as code
from conftest import setup_failure as failure
from test_declared import load as load_rules

import rulelang
from rulelang.errors import StateDataError


def load(tmp_path: Path, source: str) -> rulelang.Game:
    return load_rules(tmp_path, source, players=2)


SPEND = '''\
    game "G" { players 2 }
    supply coins total 10
    supply gems total 5
    die d6 = [1, 2, 3, 4, 5, 6]
    var got: list[int] = []
    var kept: supply = coins
    function other(k: supply) -> supply = if k == coins then gems else coins
    procedure spend(p: player, k: supply, n: int) {
      gain n k to p
      pay 1 k from p to players[1]
      got = got + [tokens(p, k), tokens(players[1], other(k))]
      log "" + p + " spends " + k + " of " + tokens(p, k)
    }
    phase main {
      for k in [coins, gems, ARG] {
        call spend(players[0], k, 3)
      }
      kept = WRITE
      end game
    }
'''


def test_a_supply_parameter_is_read_without_testing_it(tmp_path):
    game = load(tmp_path, SPEND.replace("ARG", "other(gems)").replace("WRITE", "other(kept)"))
    source = code(game)
    spend = source[source.index("procedure at line 8"):]
    spend = spend[:spend.index("\ndef ")]
    assert ".kind ==" not in spend and "_supply_named" not in spend and "st.log_lines.append(" in spend
    state = game.new_initial_state()
    data = state.to_json()
    assert data["globals"]["got"] == [2, 0, 2, 1, 4, 1]
    assert [str(line) for line in state.log] == ["player 1 spends coins of 2", "player 1 spends gems of 2",
                                                 "player 1 spends coins of 4"]


def test_another_value_is_the_rules_error_at_the_call_or_the_write(tmp_path):
    game = load(tmp_path, SPEND.replace("ARG", "d6").replace("WRITE", "gems"))
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 16 and diagnostic.code == "E602"
    assert diagnostic.message.startswith("'k' of spend must be a supply, got die")
    game = load(tmp_path, SPEND.replace("ARG", "gems").replace("WRITE", "d6"))
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.span.line == 18 and diagnostic.message.startswith("variable 'kept' must be a supply, got die")


def test_a_list_of_supplies_is_checked_item_by_item(tmp_path):
    template = '''\
        game "G" { players 2 }
        supply coins total 10
        die d6 = [1, 2, 3, 4, 5, 6]
        var n: int = 0
        function held(ks: list[supply]) -> int = sum(tokens(players[0], k) for k in ks)
        phase main {
          n = held([coins, ARG])
          end game
        }
    '''
    assert load(tmp_path, template.replace("ARG", "coins")).new_initial_state().to_json()["globals"]["n"] == 0
    message = failure(load(tmp_path, template.replace("ARG", "d6"))).diagnostics[0].message
    assert message.startswith("'ks' of held must be a list of supply, got list")


def test_a_saved_frame_whose_supply_parameter_holds_another_kind_is_refused(tmp_path):
    game = load(tmp_path, '''\
        game "G" { players 2 }
        supply coins total 10
        die d6 = [1, 2, 3, 4, 5, 6]
        var got: int = 0
        procedure ask(p: player, k: supply) {
          choose n in [1, 2] by p
          gain n k to p
          got = tokens(p, k)
        }
        phase main {
          call ask(players[0], coins)
          end game
        }
    ''')
    data = game.new_initial_state().to_json()
    frame = next(f for f in data["frames"] if f["procedure"] == "ask")
    state = game.state_from_json(data)
    state.apply_action(state.legal_actions(0)[1], player=0)
    assert state.to_json()["globals"]["got"] == 2
    assert frame["env"]["k"] == {"ref": "supply", "name": "coins"}
    frame["env"]["k"] = {"ref": "die", "name": "d6"}
    with pytest.raises(StateDataError) as caught:
        game.state_from_json(data)
    assert caught.value.diagnostic.code == "E606"
    assert re.search(r"frames\[\d\]\.env.*parameter k of ask must be a supply", str(caught.value))
