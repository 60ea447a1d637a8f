"""The bottom of the runtime: values, the seeded generator, the shapes of a program (frames,
code), the JSON value codec.
"""
