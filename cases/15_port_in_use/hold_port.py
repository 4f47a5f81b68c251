"""Background helper: a leftover process still listening on the port the job is told to use.

Stands for a stale worker of an earlier job (killed launcher, orphaned rank) that kept its
TCPStore port open. The lab runner starts it before the launcher and kills it afterwards.
"""

import socket
import sys
import time

port = int(sys.argv[1])
sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
sock.bind(("0.0.0.0", port))
sock.listen(16)
print(f"holding port {port}: ready", flush=True)
time.sleep(600)
