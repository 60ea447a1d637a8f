"""Events told together: consecutive moves between the same two zones are one line of the
narrated log (narrate.py), "player 2 takes 3 cards from draw pile to their hand" or
"player 1 takes red 4, blue 6 and hold from draw pile to their hand", not one line each;
and so are consecutive rolls of one die: "action die is rolled twice: 3 and 5"."""
from __future__ import annotations

from collections import Counter
from typing import NamedTuple

TIMES = "\N{MULTIPLICATION SIGN}"
"""Between a count and the label of its copies: "3 TIMES coin"."""


class ToldMove(NamedTuple):
    """A move as one viewer was told it: its zone slots and the component's label (None
    when the viewer may not see which component it was)."""

    source: int
    target: int
    label: str | None


class MoveGroup:
    """Consecutive told moves between the same two zones."""

    def __init__(self, first: ToldMove):
        self.source, self.target = first.source, first.target
        self.labels: list[str | None] = [first.label]

    def joins(self, move: ToldMove) -> bool:
        """Whether ``move`` goes between the same two zones as this group."""
        return (move.source, move.target) == (self.source, self.target)

    def add(self, move: ToldMove) -> None:
        self.labels.append(move.label)

    def words(self, noun: str) -> str:
        """The moved components in words: their labels ("red 4, blue 6 and hold"; copies of
        one label once, after their count and a multiplication sign), then the count of those
        not shown ("2 cards")."""
        shown = Counter(label for label in self.labels if label is not None)
        parts = [label if n == 1 else f"{n} {TIMES} {label}" for label, n in shown.items()]
        unseen = self.labels.count(None)
        if unseen:
            parts.append(f"{unseen} {plural(noun)}" if unseen > 1 else one(noun))
        return joined(parts)


class ToldRoll(NamedTuple):
    """A roll or random pick as one viewer was told it: what was done ("d6 is rolled") and
    the outcome (None when the viewer may not see it)."""

    told: str
    label: str | None


class RollGroup:
    """Consecutive told rolls of one die (or picks from one list)."""

    def __init__(self, first: ToldRoll):
        self.told = first.told
        self.labels: list[str | None] = [first.label]

    def joins(self, roll: ToldRoll) -> bool:
        """Whether ``roll`` is of the same die as this group."""
        return roll.told == self.told

    def add(self, roll: ToldRoll) -> None:
        self.labels.append(roll.label)

    def sentence(self) -> str:
        """The rolls in one sentence: "d6 is rolled twice: 3 and 5", "(not shown)" for
        outcomes the viewer may not see."""
        count = len(self.labels)
        times = "twice" if count == 2 else f"{count} times"
        if all(label is None for label in self.labels):
            return f"{self.told} {times} (not shown)"
        return f"{self.told} {times}: " + joined([label or "not shown" for label in self.labels])


def plural(noun: str) -> str:
    """The plural of an English noun of the declarations ("card": "cards", "box": "boxes",
    "treasury": "treasuries"), by the regular rules."""
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return noun[:-1] + "ies"
    return noun + "s"


def joined(parts: list[str]) -> str:
    """Words listed as a sentence lists them: "a", "a and b", "a, b and c"."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def one(noun: str) -> str:
    """``noun`` with its indefinite article: "a card", "an action card"."""
    return f"an {noun}" if noun[:1].lower() in "aeiou" else f"a {noun}"
