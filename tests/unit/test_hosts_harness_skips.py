"""Issue 31: where namespaces cannot be made, the host tests skip with one line saying why."""

from hostkit import netns


def test_a_user_without_root_gets_one_line_why(monkeypatch):
    monkeypatch.setattr(netns.os, "geteuid", lambda: 1000)
    why = netns.unavailable()
    assert why is not None and "CAP_NET_ADMIN" in why and "\n" not in why


def test_a_refused_netns_add_is_said(monkeypatch):
    monkeypatch.setattr(netns.os, "geteuid", lambda: 0)
    monkeypatch.setattr(netns.shutil, "which", lambda name: f"/usr/bin/{name}")

    class Refused:
        returncode, stderr, stdout = 1, "mount --make-shared /run/netns failed: Operation not permitted\n", ""

    monkeypatch.setattr(netns, "_ip", lambda *args, check=True: Refused())
    why = netns.unavailable()
    assert why.startswith("`ip netns add` was refused here") and "Operation not permitted" in why
