"""Issue 31: `run` refuses a launch whose --master port on this host is held by something that is
not a launcher's master (the launcher would wait forever, naming nothing). Loopback only."""

import http.server
import json
import socket
import threading

import pytest

from paddle_doctor.process.masterport import held_master_port, master_endpoint

LAUNCH = ["python", "-m", "paddle.distributed.launch", "--nnodes", "2", "--master"]


@pytest.fixture
def listener():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)  # accepts connections (the backlog) and never answers
    yield sock.getsockname()[1]
    sock.close()


def test_master_endpoint_is_read_from_either_spelling():
    assert master_endpoint(LAUNCH + ["10.0.0.1:6170", "eval.py"]) == ("10.0.0.1", 6170)
    assert master_endpoint(LAUNCH[:3] + ["--master=10.0.0.1:6170"]) == ("10.0.0.1", 6170)
    assert master_endpoint(LAUNCH + ["etcd://10.0.0.1:2379"]) is None
    assert master_endpoint(["python", "eval.py"]) is None


def test_a_port_held_by_a_silent_process_is_port_in_use(listener):
    found = held_master_port(LAUNCH + [f"127.0.0.1:{listener}", "eval.py"])
    assert found is not None and found.cause == "port_in_use" and str(listener) in found.message


def test_a_free_port_or_another_hosts_address_is_fine():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    assert held_master_port(LAUNCH + [f"127.0.0.1:{free}", "eval.py"]) is None
    # 192.0.2.1 (TEST-NET-1) is no address of this machine: bind fails with EADDRNOTAVAIL, nothing is sent
    assert held_master_port(LAUNCH + ["192.0.2.1:6170", "eval.py"]) is None


def test_a_launchers_own_master_holding_the_port_is_fine():
    class Master(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({self.path: "ok"}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Master)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert held_master_port(LAUNCH + [f"127.0.0.1:{server.server_address[1]}", "eval.py"]) is None
    finally:
        server.shutdown()
        server.server_close()


def test_run_refuses_the_launch_with_one_line(listener, run_cli):
    proc = run_cli("run", "--", "python", "-m", "paddle.distributed.launch", "--master", f"127.0.0.1:{listener}",
                   "--nnodes", "2", "eval.py", timeout=30)
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert "port_in_use" in err and "Nothing was run" in err and "Traceback" not in err
