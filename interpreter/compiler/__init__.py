"""The compiler from checked rules to generated Python: expressions, procedures, statements and decisions."""
