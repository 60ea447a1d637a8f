"""The defaults of the budgets and timeouts that ``rulelang serve`` and ``rulelang web`` can
change (docs/protocol.md, "Limits"): here, in a module without imports, so that the command
line shows them in its help without importing the runtime; the server's modules
(``interpreter/hosts/budgets.py``, ``memory.py``) take them from here.
"""
from __future__ import annotations

MAX_AGENT_ITERATIONS = 20_000  # an agent's search per decision ('agent_action'): iterations...
MAX_AGENT_SECONDS = 10.0       # ...and seconds, whichever comes first
IDLE_SECONDS = 300.0           # a connection that sends nothing for this long is closed (P013)
READ_SECONDS = 30.0            # a request must arrive whole within this time of its first byte (P013)
WRITE_SECONDS = 30.0           # a reply must be taken by the client within this time
MAX_MEMORY_BYTES = 1024 * 1024 * 1024   # what the sessions of a server hold at most, together
