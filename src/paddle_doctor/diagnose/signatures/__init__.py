"""Log signatures: what a line means, as data.

Each signature is a regular expression over one log line, what it points to (a cause id from the
catalog, or a role such as "a peer died"), and how specific it is. They follow Paddle's own message
formats (gloo, the launchers, the C++ enforce and signal handlers, the DataLoader), from Paddle 1.x
to 3.x. The first signature that matches a line wins, so the specific ones come first.

Roles:
- ``cause``: this line is evidence of a root cause on the rank that printed it.
- ``exception``: an uncaught exception line with nothing more specific (fallback ``python_exception``).
- ``peer_closed``: a collective failed because a peer process closed its connection (it died).
- ``real_timeout``: a collective really waited out gloo's 30 s: peers are alive but elsewhere.
- ``terminated``: this rank was killed by SIGTERM (the launcher or a timeout): a victim.
- ``launcher_failed`` / ``launcher_abort`` / ``launcher_exit``: what the launcher says about ranks.
- ``rendezvous_retry`` / ``listen``: store connection attempts during initialisation.
- ``hang_site``: a frame in a SIGTERM crash dump that says where the rank was stuck.
- ``crash_frame``: a frame of a native crash's stack that names why it crashed (read only beside a crash).
- ``traceback`` / ``frame`` / ``signal_time``: structure, used to read blocks.

The table is data (the modules of ``rows``: ``launch_env``, ``native``, ``signals``, ``older_forms``, ``loading``,
``devices``, ``inference``, ``installs``, ``libraries``, in match order, joined in ``table``; ``tools`` for the tools
around Paddle, ``toolchain`` for CMake's, the compilers' and the loader's rows that ``tools.builds`` splices in);
``model`` holds the record type (a rule of :mod:`paddle_doctor.rules`: ``code`` = name, ``check`` =
pattern, ``docs`` = source and example; ``CAUSE_SIGNATURES`` is the lens's registry), ``sources``
where each message is emitted, ``matcher`` the first-match search and its cache.
"""

from __future__ import annotations

from .matcher import match_line, match_quoted
from .model import VICTIM_ROLES, Signature
from .table import CAUSE_SIGNATURES, SIGNATURES, signature_table, signatures_by_cause

__all__ = ["CAUSE_SIGNATURES", "SIGNATURES", "VICTIM_ROLES", "Signature", "match_line", "match_quoted", "signature_table",
           "signatures_by_cause"]
