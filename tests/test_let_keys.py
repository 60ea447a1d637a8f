"""The saved key of a 'let' that hides a local (``NAME@N``, its place among the 'let's of its
name in the procedure): formatting a ruleset moves lines but not that order, so a state saved
before formatting loads and plays on the same after it. Keys of format 3 and earlier
(``NAME@LINE:COL``) are still read, against the text as written and as formatted
(docs/state-format.md, hidden locals)."""
from __future__ import annotations

import copy
from pathlib import Path

import rulelang
from rulelang.interpreter.state.let_keys_read import matched_in_order, new_keys
from rulelang.syntax.format import format_source

HIDING = """\
game "Hiding" { players 2 }
player var points: int = 0
procedure ask(p: player) {
  choose by p { option "one" { return 1 } option "two" { return 2 } }
}
phase play {
  let n = 1
  repeat {
    for p in players {
      if p.points < 50 { let n = call ask(p)
        if n > 0 { let n = n * 10
          choose by p { option "add" { p.points += n } option "stop" { end game } }
        }
      }
      if p.points >= 50 { end game }
    }
  }
}
score p = p.points
"""


def load(folder: Path, text: str) -> rulelang.Game:
    path = folder / "hiding.rules"
    path.write_text(text, encoding="utf-8")
    return rulelang.load(path)


def frames(state: rulelang.GameState) -> list[dict[str, object]]:
    return state.to_json()["frames"]


def test_the_layout_is_one_the_formatter_changes():
    formatted = format_source(HIDING)
    assert formatted != HIDING and "{ let n" not in formatted


def test_a_hiding_let_is_saved_by_its_place_among_the_lets_of_its_name(tmp_path):
    state = load(tmp_path, HIDING).new_initial_state(seed=1)
    assert frames(state)[-1]["procedure"] == "ask" and frames(state)[-1]["returns_to"] == "n@2"
    state.apply_action(state.legal_actions()[1])       # "two": the hidden n of the 'if' is 2
    env = frames(state)[0]["env"]
    assert env["n"] == 1 and env["n@2"] == 2 and env["n@3"] == 20
    assert state.to_json()["format"] == 4


def play_on_the_same(saved: dict[str, object], here: rulelang.Game, there: rulelang.Game) -> None:
    """``saved`` (saved by ``here``) loads in ``there`` and plays on as in ``here``."""
    mine, other = here.state_from_json(saved), there.state_from_json(copy.deepcopy(saved))
    assert other.to_json() == mine.to_json()
    while not mine.is_terminal():
        action = mine.legal_action_ids()[0]
        mine.apply_action(action)
        other.apply_action(action)
        assert other.to_json() == mine.to_json()


def states_along_a_game(game: rulelang.Game) -> list[dict[str, object]]:
    state, saved = game.new_initial_state(seed=3), []
    while not state.is_terminal():
        saved.append(state.to_json())
        state.apply_action(state.legal_action_ids()[len(saved) % 2])
    return saved


def both_layouts(folder: Path) -> tuple[rulelang.Game, rulelang.Game]:
    """The game as written and as formatted, each in a folder of ``folder``."""
    (folder / "as_written").mkdir()
    (folder / "formatted").mkdir()
    return load(folder / "as_written", HIDING), load(folder / "formatted", format_source(HIDING))


def test_a_state_saved_before_formatting_plays_on_the_same_after_it(tmp_path):
    written, formatted = both_layouts(tmp_path)
    for saved in states_along_a_game(written):
        play_on_the_same(saved, written, formatted)


def as_format_3(data: dict[str, object], game: rulelang.Game) -> dict[str, object]:
    """``data`` as format 3 wrote it: each hiding key by its 'let''s line and column."""
    old = copy.deepcopy(data)
    places = {key: f"{name}@{line}:{column}" for code in game.program.code.values()
              for name, keys in code.hidden.items() for key, (line, column) in keys.items()}
    old["format"] = 3
    for frame in old["frames"]:
        frame["env"] = {places.get(key, key): value for key, value in frame["env"].items()}
        frame["returns_to"] = places.get(frame["returns_to"], frame["returns_to"])
    return old


def test_a_format_3_state_loads_against_the_text_as_written_and_as_formatted(tmp_path):
    written, formatted = both_layouts(tmp_path)
    states = states_along_a_game(written)
    olds = [as_format_3(saved, written) for saved in states]
    assert sum(":" in key for old in olds for frame in old["frames"] for key in frame["env"]) >= 6
    for saved, old in zip(states, olds, strict=True):
        assert written.state_from_json(copy.deepcopy(old)).to_json() == written.state_from_json(saved).to_json()
        play_on_the_same(old, written, formatted)


def test_a_position_with_a_format_3_key_reads_against_the_formatted_text(tmp_path):
    written = load(tmp_path, HIDING)
    state = written.new_initial_state(seed=3)
    state.apply_action(state.legal_action_ids()[1])
    position = state.to_position()
    assert '"n@3" = 20' in position
    old = position
    for key, (line, column) in written.program.code["play"].hidden["n"].items():
        old = old.replace(f'"{key}"', f'"n@{line}:{column}"')
    assert '"n@2"' not in old and '"n@3"' not in old
    formatted = load(tmp_path, format_source(HIDING))
    assert formatted.state_from_position(old).to_json() == written.state_from_position(position).to_json()


def test_old_keys_are_matched_to_the_lets_in_order_and_nearest():
    lets = [(10, 5), (20, 7), (30, 7)]
    assert matched_in_order([(10, 5), (20, 7), (30, 7)], lets) == [0, 1, 2]   # as written
    assert matched_in_order([(12, 5), (23, 7), (34, 7)], lets) == [0, 1, 2]   # every one, moved
    assert matched_in_order([(22, 9)], lets) == [1]                           # the nearest
    assert matched_in_order([(4, 3), (29, 7)], lets) == [0, 2]
    assert matched_in_order([(31, 7), (32, 7)], lets) == [1, 2]               # room for the other
    assert matched_in_order([(1, 1)] * 4, lets) == []                          # more keys than lets
    hidden = {"k": {"k@2": (20, 7), "k@3": (30, 7)}}
    assert new_keys(["p", "k", "k@31:7", "$for1"], hidden) == {"k@31:7": "k@3"}
    assert new_keys(["q@3:1"], hidden) == {}                                    # no such let: kept
