"""The placeholders of the texts of a ruleset, in a module of their own (no parser), so
that the checks and the compiler read them without importing lark."""
from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
"""A placeholder in a text of the ruleset: a field in ``shown as``, ``{name}`` or
``{name.attribute...}`` in a prompt."""
