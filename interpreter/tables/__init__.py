"""What a game's declarations become: the catalog (ids, variable readers), builtins, runtime helpers and effects."""
