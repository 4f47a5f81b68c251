"""``smoke --hosts``: the node list parsed, and this machine checked against it before any launch."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from paddle_doctor.smoke.hosts import DEFAULT_PORT, check_this_node, parse_hosts

TABLE = {"node-a": {"10.0.0.1"}, "node-b": {"10.0.0.2"}, "10.0.0.1": {"10.0.0.1"}, "10.0.0.2": {"10.0.0.2"},
         "localhost": {"127.0.0.1"}, "ghost": set()}


def resolve(host: str) -> set[str]:
    return TABLE[host]


def test_the_master_comes_first_and_carries_the_port():
    hosts = parse_hosts("node-a:7001, node-b")
    assert (hosts.hosts, hosts.port, hosts.master, hosts.nnodes) == (("node-a", "node-b"), 7001, "node-a:7001", 2)
    assert parse_hosts("node-a,node-b").port == DEFAULT_PORT


@pytest.mark.parametrize("value, words", [
    ("node-a,,node-b", "no empty entry"),
    ("node-a:xx,node-b", "must be a number"),
    ("node-a,node-b:7001", "only the first host"),
    ("node-a,node-a", "twice"),
])
def test_a_bad_list_is_one_line_saying_what_is_wrong(value, words):
    with pytest.raises(ValueError, match=words):
        parse_hosts(value)


def test_this_machine_is_the_listed_host_whose_address_it_holds():
    check = check_this_node(parse_hosts("node-a,node-b"), ["127.0.0.1", "10.0.0.2"], "10.0.0.2", resolve)
    assert (check.index, check.errors, check.warnings) == (1, (), ())


def test_a_machine_that_is_none_of_the_hosts_is_told_so():
    check = check_this_node(parse_hosts("node-a,node-b"), ["127.0.0.1", "10.0.0.9"], "10.0.0.9", resolve)
    assert check.index is None and "is none of --hosts node-a,node-b" in check.errors[-1]


def test_a_loopback_host_in_a_list_of_several_cannot_be_reached():
    check = check_this_node(parse_hosts("10.0.0.1,localhost"), ["127.0.0.1", "10.0.0.1"], "10.0.0.1", resolve)
    assert any("localhost, which resolves to a loopback address" in e for e in check.errors)
    alone = check_this_node(parse_hosts("localhost"), ["127.0.0.1"], "127.0.1.1", resolve)
    assert (alone.index, alone.errors) == (0, ())  # one node: loopback is its own business


def test_a_host_name_resolving_to_loopback_is_wrong_host_ip_before_the_launch():
    check = check_this_node(parse_hosts("node-a,node-b"), ["127.0.0.1", "10.0.0.2"], "127.0.1.1", resolve)
    assert check.index == 1 and "wrong_host_ip" in check.errors[-1] and "POD_IP" in check.errors[-1]


def test_another_reachable_address_advertised_is_a_warning_only():
    check = check_this_node(parse_hosts("node-a,node-b"), ["10.0.0.2", "192.168.1.5"], "192.168.1.5", resolve)
    assert check.index == 1 and check.errors == () and "resolves to 192.168.1.5" in check.warnings[0]


def test_a_host_that_does_not_resolve_is_named():
    check = check_this_node(parse_hosts("node-a,ghost"), ["10.0.0.1"], "10.0.0.1", resolve)
    assert "cannot resolve ghost" in " ".join(check.errors)


@pytest.mark.parametrize("args, words", [
    (["--hosts", "a,b", "--nnodes", "2"], "--hosts replaces --nnodes and --master"),
    (["--hosts", "a,b", "--master", "a:1"], "--hosts replaces --nnodes and --master"),
    (["--hosts", "a:port,b"], "must be a number"),
])
def test_the_command_stops_with_one_line_and_exit_2(args, words):
    pytest.importorskip("paddle", reason="smoke checks that paddlepaddle is installed first")
    from paddle_doctor.cli.main import cli

    result = CliRunner().invoke(cli, ["smoke", *args])
    assert result.exit_code == 2 and words in result.output, result.output
    assert "Traceback" not in result.output
