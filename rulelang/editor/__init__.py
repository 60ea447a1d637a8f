"""What an editor asks of a ruleset: where each name is declared and used, what it is, what
may be written at a place, and the fixes the linter's hints name (``index``, ``features``),
served over the Language Server Protocol by ``server`` (``rulelang lsp``).
"""
