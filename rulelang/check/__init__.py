"""Static checks of a parsed ruleset: names, settings, kinds, builtin signatures, the phase
graph, variants and the linter.
"""
