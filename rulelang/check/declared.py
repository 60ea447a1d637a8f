"""What a ruleset declares, by what each name names (``Declared``), the bare names each
declaration makes usable, and the hint that points at the closest declared name."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rulelang import ast
from rulelang.check.signatures import QUERY, names_with_role

ZONE_VISIBILITIES = frozenset({"all", "owner", "others", "none", "count"})   # per-player zones
SHARED_ZONE_VISIBILITIES = ZONE_VISIBILITIES - {"others"}   # a shared zone has no owner to leave out
PLAYER_VISIBILITIES = frozenset({"all", "owner", "none"})   # per-player variables, supplies
SHARED_VISIBILITIES = frozenset({"all", "none"})            # other variables


def allowed_visibilities(decl: ast.ZoneDecl | ast.VarDecl | ast.SupplyDecl) -> frozenset[str]:
    """The visibilities ``decl`` may be declared with (any other is E205)."""
    if isinstance(decl, ast.ZoneDecl):
        return ZONE_VISIBILITIES if decl.owner == "player" else SHARED_ZONE_VISIBILITIES
    return PLAYER_VISIBILITIES if isinstance(decl, ast.SupplyDecl) or decl.owner == "player" else SHARED_VISIBILITIES
ALWAYS_ATTRIBUTES = frozenset({"index", "name"})             # of every space (and index of players)
QUERIES = sorted(names_with_role(QUERY))

# The order in which loading builds what a bare name may mean: the data of a board, a
# supply, a die or a deck sees only the names built before it.
LOAD_ORDER: tuple[type[ast.Decl], ...] = (ast.EnumDecl, ast.BoardDecl, ast.ZoneDecl, ast.SupplyDecl,
                                          ast.DieDecl, ast.DeckDecl)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """'did you mean 'x'?' for the candidate closest to ``name``, if one is close."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.7)
    return f"did you mean '{close[0]}'?" if close else None


# ---------------------------------------------------------------- what is declared

@dataclass(frozen=True)
class Declared:
    """The names one ruleset declares, by what they name."""

    global_vars: frozenset[str]
    constants: frozenset[str]          # bare names: enums and their values, boards, shared zones, supplies...
    enums: Mapping[str, tuple[str, ...]]
    components: Mapping[str, frozenset[str]]   # component type -> its fields
    zones: Mapping[str, ast.ZoneDecl]
    supplies: frozenset[str]
    dice: frozenset[str]
    phases: frozenset[str]
    procedures: Mapping[str, int]      # procedure -> how many parameters it takes
    functions: Mapping[str, int]       # function -> how many parameters it takes
    owned_vars: frozenset[str]         # per-player, per-space and per-component variables
    attributes: frozenset[str]         # what a player, space or component may have, but index and name
    spaces_known: bool                 # whether every board's space attributes are known before running

    def known_attribute(self, name: str) -> bool:
        """Whether some player, space or component may have attribute ``name``."""
        return name in self.attributes or name in ALWAYS_ATTRIBUTES or not self.spaces_known


def declared(decls: Sequence[ast.Decl], space_attributes: frozenset[str] | None) -> Declared:
    """The names ``decls`` declare; ``space_attributes`` of the boards (None: not known)."""
    variables = [d for d in decls if isinstance(d, ast.VarDecl)]
    components = {d.name: frozenset(f.name for f in d.fields) for d in decls if isinstance(d, ast.ComponentDecl)}
    zones = {d.name: d for d in decls if isinstance(d, ast.ZoneDecl)}
    supplies = frozenset(d.name for d in decls if isinstance(d, ast.SupplyDecl))
    owned = frozenset(d.name for d in variables if d.owner is not None)
    per_player_zones = {name for name, d in zones.items() if d.owner == "player"}
    fields = {f for names in components.values() for f in names}
    return Declared(
        global_vars=frozenset(d.name for d in variables if d.owner is None),
        constants=frozenset(n for d in decls for n in constants_of(d)),
        enums={d.name: d.values for d in decls if isinstance(d, ast.EnumDecl)},
        components=components,
        zones=zones,
        supplies=supplies,
        dice=frozenset(d.name for d in decls if isinstance(d, ast.DieDecl)),
        phases=frozenset(d.name for d in decls if isinstance(d, ast.PhaseDecl)),
        procedures={d.name: len(d.params) for d in decls if isinstance(d, ast.ProcedureDecl)},
        functions={d.name: len(d.params) for d in decls if isinstance(d, ast.FunctionDecl)},
        owned_vars=owned,
        attributes=owned | supplies | per_player_zones | fields | (space_attributes or frozenset()),
        spaces_known=space_attributes is not None,
    )


def constants_of(decl: ast.Decl) -> tuple[str, ...]:
    """The bare names a declaration makes usable anywhere (variables aside)."""
    if isinstance(decl, ast.EnumDecl):
        return (decl.name, *decl.values)
    if isinstance(decl, ast.ZoneDecl):
        return (decl.name,) if decl.owner is None else ()
    if isinstance(decl, (ast.BoardDecl, ast.SupplyDecl, ast.DieDecl, ast.DeckDecl)):
        return (decl.name,)
    return ()
