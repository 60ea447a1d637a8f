"""Frozen dataclasses that cost little to define: the decorator of the AST's node classes.

``@node`` makes a class a dataclass that behaves as ``@dataclass(frozen=True)`` does: the
same fields (``dataclasses.fields``, ``replace``, ``__match_args__``), the same ``__init__``
signature, ``__repr__``, ``__eq__``, ``__hash__`` and ``FrozenInstanceError`` on assignment.
What differs is the cost: ``dataclass`` compiles six methods a class when the class is
defined, about a quarter of a lint's start for the AST's 78 classes; here the methods but
``__init__`` are shared functions that read the class's field names, and each class's
``__init__`` is compiled the first time the class is instantiated (most rulesets use a
third of the node classes). A method the class itself defines (``__str__``...) is kept.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**_: object) -> Callable[[object], object]:
        """Only for type checkers: at run time, the decorator itself."""
        return lambda decorator: decorator

T = TypeVar("T")

_COMPARED = "__node_compared__"   # the names of the fields that __eq__ and __hash__ read
_SHOWN = "__node_shown__"         # the names of the fields that __repr__ shows
_NAMES = "__node_fields__"        # every field's name
_SHARED = ("__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def node(cls: type[T]) -> type[T]:
    """Make ``cls`` a frozen dataclass whose methods are compiled lazily (see the module)."""
    if "__post_init__" in cls.__dict__ or any(name in cls.__dict__ for name in (*_SHARED[3:], "__init__")):
        raise TypeError(f"{cls.__name__}: @node takes no __init__, __post_init__, __setattr__ or __delattr__")
    made = dataclass(cls, init=False, repr=False, eq=False)   # the fields only: no code compiled
    found = fields(made)  # type: ignore[arg-type]
    if any(not f.init for f in found):
        raise TypeError(f"{cls.__name__}: @node fields are all arguments of __init__")
    setattr(made, _COMPARED, tuple(f.name for f in found if f.compare))
    setattr(made, _SHOWN, tuple(f.name for f in found if f.repr))
    setattr(made, _NAMES, frozenset(f.name for f in found))
    for name, method in zip(_SHARED, (_repr, _eq, _hash, _setattr, _delattr), strict=True):
        if name not in made.__dict__:
            setattr(made, name, method)
    made.__init__ = _first_init   # type: ignore[method-assign]  # its own one compiled at the first instance
    return made


def _first_init(self: Any, *args: Any, **kwargs: Any) -> None:
    """The first ``__init__`` of a class: compile its own, put it in place, call it."""
    cls = type(self)
    init = _compiled_init(cls)
    cls.__init__ = init
    init(self, *args, **kwargs)


_FACTORY = object()   # the default of a field that has a default factory


def _compiled_init(cls: type) -> Callable[..., None]:
    """The ``__init__`` that ``dataclass(frozen=True)`` would write for ``cls``: positional
    fields, then keyword-only ones, each set with ``object.__setattr__`` in field order."""
    found = fields(cls)
    namespace: dict[str, object] = {"_set": object.__setattr__, "_FACTORY": _FACTORY}
    positional: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    for f in found:
        name = f.name   # a field name of the class's own source: an identifier
        if not name.isidentifier():   # pragma: no cover - Python refuses such a field already
            raise TypeError(f"{cls.__name__}: field {name!r} is not an identifier")
        param, value = name, name
        if f.default is not MISSING:
            namespace[f"_default_{name}"] = f.default
            param = f"{name}=_default_{name}"
        elif f.default_factory is not MISSING:
            namespace[f"_factory_{name}"] = f.default_factory
            param, value = f"{name}=_FACTORY", f"_factory_{name}() if {name} is _FACTORY else {name}"
        (keywords if f.kw_only else positional).append(param)
        body.append(f"    _set(self, {name!r}, {value})")
    params = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    source = f"def __init__({params}) -> None:\n" + ("\n".join(body) or "    pass") + "\n"
    exec(compile(source, f"<node {cls.__qualname__}>", "exec"), namespace)
    init: Callable[..., None] = namespace["__init__"]   # type: ignore[assignment]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


_showing = threading.local()   # the nodes whose __repr__ runs now, per thread (a cycle shows "...")


def _repr(self: Any) -> str:
    shown: set[int] = _showing.__dict__.setdefault("ids", set())
    if id(self) in shown:
        return "..."
    shown.add(id(self))
    try:
        parts = ", ".join(f"{name}={getattr(self, name)!r}" for name in getattr(type(self), _SHOWN))
    finally:
        shown.discard(id(self))
    return f"{type(self).__qualname__}({parts})"


def _eq(self: Any, other: object) -> object:
    if other.__class__ is self.__class__:
        names = getattr(type(self), _COMPARED)
        return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(tuple(getattr(self, n) for n in getattr(type(self), _COMPARED)))


def _setattr(self: Any, name: str, value: object) -> None:
    cls = type(self)
    if _NAMES in cls.__dict__ or name in getattr(cls, _NAMES):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _delattr(self: Any, name: str) -> None:
    cls = type(self)
    if _NAMES in cls.__dict__ or name in getattr(cls, _NAMES):
        raise FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)
