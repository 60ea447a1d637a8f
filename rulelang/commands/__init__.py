"""The commands of the command line that run games (``simulate``, ``compare``, ``play``),
and what all the commands share (``common``); ``rulelang.cli`` gathers them into ``main``."""
