"""Issue 31: `run --rendezvous-timeout` says which nodes registered with the launcher's master. The
master here is a stand-in for Paddle's KV server on loopback (same answers: launch/utils/kv_server.py)."""

import http.server
import json
import socket
import threading

import pytest

from paddle_doctor.process.rendezvous import registered


@pytest.fixture
def master():
    entries = {}

    class KV(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            found = {k: v for k, v in entries.items() if k.startswith(self.path)}
            body = json.dumps(found).encode()
            self.send_response(200 if found else 404)
            self.send_header("Content-Length", str(len(body) if found else 0))
            self.end_headers()
            if found:
                self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), KV)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"127.0.0.1:{server.server_address[1]}", entries
    server.shutdown()
    server.server_close()


def _cmd(master, nnodes):
    return ["python", "-m", "paddle.distributed.launch", "--master", master, "--nnodes", str(nnodes), "eval.py"]


def test_the_nodes_that_registered_and_how_many_never_did(master):
    addr, entries = master
    entries["/default/info/aaaaaa/-1"] = json.dumps({"candidate": "10.0.0.1:4000"})
    said = registered(_cmd(addr, 2))
    assert f"1 of 2 nodes registered with the master at {addr} (10.0.0.1); 1 never did" in said


def test_nobody_registered_yet(master):
    addr, _ = master
    assert f"0 of 3 nodes registered with the master at {addr} (none); 3 never did" in registered(_cmd(addr, 3))


def test_a_master_that_does_not_answer_means_this_node_could_not_register():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    assert "did not answer: this node could not register" in registered(_cmd(f"127.0.0.1:{free}", 2))
