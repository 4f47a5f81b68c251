"""Checks of the process environment and the machine: leftover launcher variables, /dev/shm, the
open-file limit."""

from __future__ import annotations

from ...findings import Finding, Severity
from ...contract import is_leftover
from .base import Facts, MiB, check, finding, size_text
from ...catalog.ids import CauseId

SHM_ERROR_BYTES = 256 * MiB  # Docker's default is 64 MB
SHM_WARN_BYTES = 1024 * MiB
OPEN_FILES_WARN = 4096
def is_launcher_variable(name: str) -> bool:
    return is_leftover(name)  # the collective, parameter-server, gloo and auto-parallel ones (contract)


@check(CauseId.residual_dist_env, CauseId.residual_dist_env,
       "PADDLE_TRAINER_*, PADDLE_MASTER and other launcher variables set outside a launcher, parameter-server "
       "(`PADDLE_PSERVERS_IP_PORT_LIST`, `PADDLE_ROLE`, `PADDLE_PSERVER*`), gloo (`PADDLE_GLOO_*`) and "
       "auto-parallel (`PADDLE_AUTO_PARALLEL_*`) ones included",
       trips={"variables": {"PADDLE_TRAINER_ID": "1", "PADDLE_MASTER": "10.0.0.1:8090"}}, passes={"variables": {}})
def check_residual_dist_env(facts: Facts) -> list[Finding]:
    names = [n for n in facts.get("variables", {}) if is_launcher_variable(n) and not n.startswith("PADDLE_DOCTOR_")]
    if not names:
        return []
    if facts.get("processes", {}).get("under_launcher"):
        return [finding(CauseId.residual_dist_env, f"{len(names)} launcher variables set, as expected inside a launcher",
                         severity=Severity.INFO, variables=names)]
    return [finding(
        CauseId.residual_dist_env, f"leftover distributed variables outside a launcher: {', '.join(names)}",
        fix="unset them, or run single-process scripts with `paddle-doctor run --single -- python eval.py`",
        why="a plain `python script.py` with these set waits for peers that never come (or joins another job)",
        variables=names)]


@check("shm_size", CauseId.shm_too_small, "/dev/shm size and free space (Docker's default is 64 MB)",
       trips={"system": {"shm": {"total_bytes": 64 * MiB, "free_bytes": 60 * MiB}}},
       passes={"system": {"shm": {"total_bytes": 8192 * MiB, "free_bytes": 8000 * MiB}}})
def check_shm(facts: Facts) -> list[Finding]:
    shm = facts.get("system", {}).get("shm")
    if not shm or not shm.get("total_bytes"):
        return []
    total, free = shm["total_bytes"], shm["free_bytes"]
    fix = "give the container more: `docker run --shm-size=8g` (or `--ipc=host`), or `use_shared_memory=False`"
    if total < SHM_WARN_BYTES:
        severity = Severity.ERROR if total < SHM_ERROR_BYTES else Severity.WARNING
        return [finding("shm_size", f"/dev/shm is only {size_text(total)} ({size_text(free)} free)", severity=severity,
                         fix=fix, why="DataLoader workers (num_workers > 0) pass batches through /dev/shm",
                         total_bytes=total, free_bytes=free)]
    if free < total // 10:
        return [finding("shm_size", f"/dev/shm is {100 - free * 100 // total}% full ({size_text(free)} free of "
                         f"{size_text(total)})", severity=Severity.WARNING, fix="remove leftover files in /dev/shm "
                         "(of stopped jobs) or give it more space", total_bytes=total, free_bytes=free)]
    return []


@check("open_files", CauseId.too_many_open_files, "the open-file limit (ulimit -n) below 4096",
       trips={"system": {"open_files": {"soft": 1024, "hard": 1048576}}},
       passes={"system": {"open_files": {"soft": 65535, "hard": 1048576}}})
def check_open_files(facts: Facts) -> list[Finding]:
    limit = facts.get("system", {}).get("open_files")
    if not limit or limit.get("soft") is None or limit["soft"] >= OPEN_FILES_WARN:
        return []
    hard = limit.get("hard")
    target = min(65535, hard) if hard else 65535
    return [finding("open_files", f"open-file limit is {limit['soft']} (ulimit -n)", severity=Severity.WARNING,
                     fix=f"`ulimit -n {target}` before launching (Docker: `--ulimit nofile=65535:65535`)",
                     why="each DataLoader worker's shared-memory batches and sockets cost file descriptors",
                     soft=limit["soft"], hard=hard)]



@check("host_ip", CauseId.wrong_host_ip, "the address this node advertises (host name lookup or POD_IP) is loopback "
       "or not on any interface",
       trips={"variables": {"PADDLE_NNODES": "2"}, "network": {"hostname": "node1", "fqdn_ip": "127.0.1.1",
                                                                "addresses": [{"address": "10.0.0.7"}]}},
       passes={"variables": {"PADDLE_NNODES": "2"}, "network": {"hostname": "node1", "fqdn_ip": "10.0.0.7",
                                                                 "addresses": [{"address": "10.0.0.7"}]}})
def check_host_ip(facts: Facts) -> list[Finding]:
    net = facts.get("network") or {}
    variables = facts.get("variables", {})
    pod_ip = variables.get("POD_IP")
    advertised, source = (pod_ip, "POD_IP") if pod_ip else (net.get("fqdn_ip"), f"host name {net.get('hostname')!r}")
    if not advertised:
        return []
    local = {a.get("address") for a in net.get("addresses") or []}
    loopback = advertised.startswith("127.") or advertised == "::1"
    if not loopback and (not local or advertised in local):
        return []
    master_host = variables.get("PADDLE_MASTER", "").split("://")[-1].rsplit(":", 1)[0]
    if master_host.startswith("127.") or master_host == "localhost":  # all "nodes" on this machine
        master_host, multi_node = "", False
    else:
        multi_node = bool(master_host) or variables.get("PADDLE_NNODES", "1") not in ("", "1")
    problem = "a loopback address" if loopback else "on none of this machine's interfaces"
    return [finding(
        "host_ip", f"this node would advertise {advertised} ({source}), {problem}",
        severity=Severity.ERROR if multi_node else Severity.INFO if loopback else Severity.WARNING,
        fix="on several nodes pass `--host THIS_NODE_IP` to the launcher (or `export POD_IP=...`), or fix "
        "/etc/hosts", why="other nodes cannot reach that address; one node alone does not need it",
        advertised=advertised, source=source)]
