"""The locals of a procedure that may pause whose type its lowered code holds to across a
pause: a 'let' that alone binds its name, when the text proves what its value is (a list, a
player, a space or a component, or lists of them: lets.py), and the map of a simultaneous
choice that alone binds its name, when the kind of each option is certain (a map from players
to components of a zone...). Those locals live in the frame's environment, which a saved
state may fill with anything: a state read back is refused if one of its frames breaks them
(``Code.held``, checked by ``declared.frame_problem``, E606), so the code after a pause reads
them as their type promises (``HeldParameters.hold``), as it reads held parameters.
"""
from __future__ import annotations

from ..tables.declared import Declared
from .lets import Facts


def of_kind(kind: tuple[type, int]) -> Declared:
    """The type of a value of ``kind`` (a class, how many lists deep)."""
    cls, depth = kind
    found = Declared(cls)
    for _ in range(depth):
        found = Declared(tuple, found)
    return found


def let_promise(facts: Facts | None) -> Declared | None:
    """The type a 'let' local of ``facts`` is held to: a list (of a known kind), or one value
    of a known kind; None for what is not held (integers: a bound is more than a type)."""
    if facts is None:
        return None
    if facts.kind is not None:
        return of_kind(facts.kind)
    return Declared(tuple) if facts.is_list else None


def map_promise(options: tuple[type, int] | None) -> Declared | None:
    """The type of a simultaneous choice's map, whose options are certainly of kind
    ``options`` (a list of them): a map from players to those; None if not certain."""
    if options is None or options[1] < 1:
        return None
    return Declared(dict, of_kind((options[0], options[1] - 1)))
