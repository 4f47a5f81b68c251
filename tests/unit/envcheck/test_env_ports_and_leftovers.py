"""A busy port opened here is found with its holder; leftover launcher variables are found; the
launcher's own variables inside a launcher are not an error."""

import os
import socket

import pytest

from paddle_doctor.envcheck import collect_env
from paddle_doctor.envcheck.checks import run_checks
from paddle_doctor.envcheck.probes.ports import is_free, ports_to_check, probe_ports


@pytest.fixture
def listener():
    sock = socket.socket()
    sock.bind(("0.0.0.0", 0))
    sock.listen()
    yield sock.getsockname()[1]
    sock.close()


def test_busy_port_named_by_the_environment_is_an_error_with_its_holder(listener):
    report = collect_env({"FLAGS_START_PORT": str(listener)}, run=lambda argv, timeout: None)
    entry = next(p for p in report["ports"] if p["port"] == listener)
    assert entry["free"] is False and entry["why"] == "$FLAGS_START_PORT"
    assert [h["pid"] for h in entry["holders"]] == [os.getpid()]
    found = [f for f in report["findings"] if f["cause"] == "port_in_use"]
    assert len(found) == 1 and found[0]["severity"] == "error"
    assert f"port {listener}" in found[0]["message"] and f"PID {os.getpid()}" in found[0]["message"]


def test_master_port_is_checked(listener):
    assert ports_to_check({"PADDLE_MASTER": f"10.0.0.1:{listener}"})[listener] == "$PADDLE_MASTER"
    assert [p["free"] for p in probe_ports({"PADDLE_MASTER": f"10.0.0.1:{listener}"}) if p["port"] == listener] \
        == [False]


def test_closed_port_is_free_again(listener):
    sock = socket.socket()
    sock.bind(("0.0.0.0", 0))
    port = sock.getsockname()[1]
    assert is_free(port) is False
    sock.close()
    assert is_free(port) is True


def test_leftover_trainer_endpoints_outside_a_launcher():
    report = collect_env({"PADDLE_TRAINER_ENDPOINTS": "10.0.0.1:6170,10.0.0.2:6170", "PADDLE_TRAINER_ID": "1"},
                         run=lambda argv, timeout: None)
    found = [f for f in report["findings"] if f["cause"] == "residual_dist_env"]
    assert len(found) == 1 and found[0]["severity"] == "error"
    assert found[0]["facts"]["variables"] == ["PADDLE_TRAINER_ENDPOINTS", "PADDLE_TRAINER_ID"]


def test_launcher_variables_inside_a_launcher_are_only_info():
    facts = {"variables": {"PADDLE_TRAINER_ID": "0"}, "processes": {"paddle": [], "under_launcher": True}}
    assert [f.severity.value for f in run_checks(facts) if f.cause == "residual_dist_env"] == ["info"]


def test_clean_environment_has_no_residual_finding():
    report = collect_env({"PATH": os.environ["PATH"], "GLOG_v": "1"}, run=lambda argv, timeout: None)
    assert not [f for f in report["findings"] if f["cause"] == "residual_dist_env"]


@pytest.mark.parametrize("name", ["PADDLE_PSERVERS_IP_PORT_LIST", "PADDLE_ROLE", "PADDLE_GLOO_RENDEZVOUS",
                                  "PADDLE_GLOO_HTTP_ENDPOINT", "PADDLE_AUTO_PARALLEL_CONFIG"])
def test_parameter_server_and_auto_parallel_variables_are_leftovers(name):
    from paddle_doctor.envcheck.checks import run_checks

    facts = {"variables": {name: "127.0.0.1:6170"}, "processes": {"paddle": [], "under_launcher": False}}
    found = [f for f in run_checks(facts) if f.cause == "residual_dist_env"]
    assert found and name in found[0].message and found[0].severity.value == "error"
