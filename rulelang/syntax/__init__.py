"""The text of a ruleset into an AST: the Lark grammar, the parser, syntax-error hints."""
