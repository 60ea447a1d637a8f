"""W309 from the phase graph's own scan of each body: the kinds of statement that never go
on that tests/lint/graph_w309.rules does not show (a menu whose every option leaves, a call
of a procedure that never returns, a 'while true' without a break)."""
from __future__ import annotations

from rulelang.check.linter import lint_text

RULES = """\
game "dead" { players 2 }
var n: int = 0

procedure finish() {
  end game
}

phase main {
  choose by players[0] {
    option "stop" { end game }
    option "move on" { next other }
  }
  n += 1
}

phase other {
  if n > 3 {
    call finish()
    n += 2
  }
  while true {
    choose k in [1, 2] by players[1]
    n += k
  }
  log "never"
}
"""


def test_menus_calls_and_endless_whiles_end_their_blocks():
    found = [(d.span.line, d.message) for d in lint_text(RULES, "<text>") if d.code == "W309"]
    assert found == [
        (13, "this never runs: the 'choose' on line 9 leaves the block in each of its options"),
        (19, "this never runs: the call of 'finish' on line 18 never returns"),
        (25, "this never runs: the 'while' on line 21 has no 'break' of its own: nothing after it runs"),
    ]
