"""An experimental switch, off by default: the generated code of a game taken from a module
built beforehand (by Cython, ``benchmarks/accelerated.py``) instead of compiled by ``exec``.

It is read in one place, the environment variable ``RULELANG_ACCELERATED`` (a folder), when
this module is imported. Unset or empty, nothing changes. Set, ``Module.define`` asks here
before it compiles a unit: the first unit of a ``Module`` names the built module that holds
every unit of that ``Module`` (``rules_<key>``, its key that of the first unit's name and
source); that module's dictionary becomes the code's namespace (the helpers and constants
are copied into it), and a unit whose name and source match the built one's (``UNITS``) is
taken from it; any other unit, or any ``Module`` whose module was not built or was used
already in this process, is compiled by ``exec`` as without the switch. What this costs and
gives is measured in docs/performance.md ("compiled accelerators"); errors inside a built
module are not located at the rules' spans (their frames are not the ``<rules:...>`` code's).
"""
from __future__ import annotations

import ast
import builtins
import hashlib
import importlib.machinery
import importlib.util
import os
from pathlib import Path
from typing import Any

FOLDER = os.environ.get("RULELANG_ACCELERATED", "")
"""The folder of the built modules; empty: the switch is off."""
_SUFFIXES = (*importlib.machinery.EXTENSION_SUFFIXES, ".py")  # an extension module first
_used: set[str] = set()


def unit_key(name: str, source: str) -> str:
    """The key of one unit of generated code: its name and its source."""
    return hashlib.sha1(f"{name}\n{source}".encode()).hexdigest()[:16]


def module_name(name: str, source: str) -> str:
    """The name of the built module whose first unit is ``name`` with ``source``."""
    return f"rules_{unit_key(name, source)}"


def built_namespace(name: str, source: str, namespace: dict[str, Any]) -> dict[str, Any] | None:
    """The dictionary of the built module whose first unit is ``name``, holding the entries of
    ``namespace`` as well; None where the switch is off, no such module was built, or it was
    taken already (a module is loaded once in a process: its globals are one game's)."""
    wanted = module_name(name, source)
    path = next((Path(FOLDER) / (wanted + suffix) for suffix in _SUFFIXES
                 if FOLDER and (Path(FOLDER) / (wanted + suffix)).is_file()), None)
    if path is None or wanted in _used:
        return None
    spec = importlib.util.spec_from_file_location(wanted, path)
    if spec is None or spec.loader is None:
        return None
    built = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(built)
    _used.add(wanted)
    built.__dict__.update(namespace)
    return built.__dict__


def built_function(namespace: dict[str, Any], name: str, source: str) -> Any:
    """The built function ``name`` of ``namespace`` if it was built from ``source``, else None."""
    units = namespace.get("UNITS")
    return namespace.get(name) if isinstance(units, dict) and units.get(name) == unit_key(name, source) else None


def module_source(units: dict[str, str]) -> str:
    """The source of the module to build from a ``Module``'s units (name -> source, in order):
    each name the units read from the namespace is first set to None (Cython refuses a name it
    cannot see defined), then the units, then their keys (``UNITS``)."""
    keys = {name: unit_key(name, source) for name, source in units.items()}
    read = {node.id for source in units.values() for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    free = sorted(read - set(units) - set(dir(builtins)))
    return "\n\n".join(["\n".join(f"{name} = None" for name in free), *units.values(), f"UNITS = {keys!r}\n"])
