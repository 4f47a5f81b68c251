"""Checks of what else runs here and of the device selection: busy ports, leftover Paddle
processes and processes holding GPU memory, Windows with several GPUs, CUDA_VISIBLE_DEVICES vs
FLAGS_selected_gpus vs the GPUs that exist."""

from __future__ import annotations

from ...findings import Confidence, Finding, Severity
from .base import Facts, check, compiled_with, finding
from ...catalog.ids import CauseId

SHOWN_PROCESSES = 5


@check("port_free", CauseId.port_in_use, "the launchers' default ports and the ports the environment names are free",
       trips={"ports": [{"port": 8090, "why": "$PADDLE_MASTER", "free": False,
                         "holders": [{"pid": 4242, "cmd": "python train.py"}]}]},
       passes={"ports": [{"port": 8090, "why": "$PADDLE_MASTER", "free": True}]})
def check_ports(facts: Facts) -> list[Finding]:
    out = []
    for entry in facts.get("ports", []):
        if entry.get("free", True):
            continue
        holders = ", ".join(f"PID {h['pid']} ({h.get('cmd') or '?'})" for h in entry.get("holders", []))
        named = str(entry.get("why", "")).startswith("$")
        out.append(finding(
            "port_free", f"port {entry['port']} ({entry.get('why')}) is in use"
            + (f" by {holders}" if holders else " (holder not visible to this user)"),
            severity=Severity.ERROR if named else Severity.WARNING,
            confidence=Confidence.HIGH if named else Confidence.MEDIUM,
            fix="stop the holder if it is a leftover of yours (`kill PID`), or pick a free port "
            "(`--master IP:PORT`, `--start_port`, `FLAGS_START_PORT`)",
            why="the next launch binds this port" if named else "multi-node launches and fleet.launch with "
            "FLAGS_START_PORT use it; a one-node launch picks free ports itself",
            port=entry["port"], holders=[h["pid"] for h in entry.get("holders", [])]))
    return out


@check("stale_processes", CauseId.stale_process_holding_gpu,
       "Paddle launchers and workers of other runs that hold GPU memory, and other processes holding GPU memory",
       trips={"gpu": {"gpus": [{"index": 0}], "processes": [{"pid": 4242, "used_memory_mib": 900}]},
              "processes": {"paddle": [{"pid": 4242, "role": "worker", "rank": 1, "orphan": True, "state": "S"}]}},
       passes={"gpu": {"gpus": [{"index": 0}], "processes": []}, "processes": {"paddle": []}})
def check_stale(facts: Facts) -> list[Finding]:
    gpu_mem, gpu_apps = _gpu_memory(facts), (facts.get("gpu") or {}).get("processes", [])
    on_gpu = [p for p in _other_runs(facts) if _maybe_on_gpu(p, facts, gpu_mem)]
    out = [_others_finding("stale_processes", on_gpu, gpu_mem, "")] if on_gpu else []
    paddle_pids = {p["pid"] for p in facts.get("processes", {}).get("paddle", [])}
    foreign = [a for a in gpu_apps if a.get("pid") not in paddle_pids]
    if foreign:
        listed = "; ".join(f"PID {a['pid']} {a.get('name')} {a.get('used_memory_mib')} MiB" for a in foreign[:5])
        out.append(finding(
            "stale_processes", f"{len(foreign)} process(es) already hold GPU memory: {listed}",
            severity=Severity.WARNING, confidence=Confidence.MEDIUM,
            fix="check each one's command line (`ps -o pid,etime,cmd -p PID`) and stop leftovers, or use idle GPUs "
            "(CUDA_VISIBLE_DEVICES)", why="a new job on those GPUs starts with less memory than it expects",
            pids=[a["pid"] for a in foreign]))
    return out


@check("leftover_processes", CauseId.leftover_paddle_process,
       "Paddle launchers and workers of other runs that hold no GPU memory (CPU jobs, or a machine without GPUs)",
       trips={"processes": {"paddle": [{"pid": 4242, "role": "worker", "rank": 1, "orphan": True, "state": "S"}]}},
       passes={"processes": {"paddle": []}})
def check_leftovers(facts: Facts) -> list[Finding]:
    gpu_mem = _gpu_memory(facts)
    cpu = [p for p in _other_runs(facts) if not _maybe_on_gpu(p, facts, gpu_mem)]
    where = " (no GPU here)" if not (facts.get("gpu") or {}).get("gpus") else " (none holds GPU memory)"
    return [_others_finding("leftover_processes", cpu, gpu_mem, where)] if cpu else []


def _other_runs(facts: Facts) -> list[dict]:
    return [p for p in facts.get("processes", {}).get("paddle", []) if not p.get("ancestor")]


def _gpu_memory(facts: Facts) -> dict:
    gpu_mem: dict = {}
    for app in (facts.get("gpu") or {}).get("processes", []):
        gpu_mem[app.get("pid")] = gpu_mem.get(app.get("pid"), 0) + (app.get("used_memory_mib") or 0)
    return gpu_mem


def _maybe_on_gpu(proc: dict, facts: Facts, gpu_mem: dict) -> bool:
    """Listed by nvidia-smi as holding memory; or on a GPU machine whose nvidia-smi lists no process
    at all (a container's other PID namespace hides them: it cannot tell). A machine without GPUs,
    or one whose nvidia-smi lists others but not this one: a CPU job."""
    gpu = facts.get("gpu") or {}
    return proc["pid"] in gpu_mem or bool(gpu.get("gpus")) and not gpu.get("processes")


def _others_finding(name: str, others: list[dict], gpu_mem: dict, where: str) -> Finding:
    stale = [p for p in others if p.get("orphan") or p.get("state") in ("T", "Z") or p["pid"] in gpu_mem]
    listed = "; ".join(_describe(p, gpu_mem) for p in others[:SHOWN_PROCESSES])
    more = f" and {len(others) - SHOWN_PROCESSES} more" if len(others) > SHOWN_PROCESSES else ""
    kept = "GPU memory and ports" if name == "stale_processes" else "ports, /dev/shm and cores"
    return finding(
        name, f"{len(others)} Paddle process(es) of other runs{where}: {listed}{more}",
        severity=Severity.ERROR if stale else Severity.WARNING,
        confidence=Confidence.HIGH if stale else Confidence.MEDIUM,
        fix="if they are leftovers of yours: `kill PID` (then `kill -9 PID`); never kill by name on a shared machine",
        why=f"orphaned, stopped or zombie workers keep {kept}" if stale else
        "another job is running here; it competes for " + ("GPUs and ports" if name == "stale_processes"
                                                           else "cores and ports"),
        pids=[p["pid"] for p in others])


def _describe(proc: dict, gpu_mem: dict) -> str:
    rank = proc.get("rank")
    role = f"worker rank {rank}" if proc.get("role") == "worker" and rank is not None and rank >= 0 \
        else proc.get("role", "process")
    notes = [n for n, on in (("orphan", proc.get("orphan")), ("stopped", proc.get("state") == "T"),
                             ("zombie", proc.get("state") == "Z")) if on]
    if proc["pid"] in gpu_mem:
        notes.append(f"{gpu_mem[proc['pid']]} MiB GPU")
    if proc.get("ports"):
        notes.append("ports " + ",".join(map(str, proc["ports"])))
    age = proc.get("age_s")
    if age is not None:
        notes.append(f"up {age // 3600}h{age % 3600 // 60:02d}m")
    return f"PID {proc['pid']} {role} ({', '.join(notes)})"


@check("platform", CauseId.windows_no_nccl, "Windows with more than one GPU (Windows builds have no NCCL)",
       trips={"system": {"os": {"system": "Windows"}}, "gpu": {"gpus": [{"index": 0}, {"index": 1}]}},
       passes={"system": {"os": {"system": "Linux"}}, "gpu": {"gpus": [{"index": 0}, {"index": 1}]}})
def check_platform(facts: Facts) -> list[Finding]:
    system = facts.get("system", {}).get("os", {}).get("system")
    gpus = len((facts.get("gpu") or {}).get("gpus", []))
    if system != "Windows" or gpus < 2:
        return []
    return [finding("platform", f"Windows with {gpus} GPUs: multi-GPU collective runs need NCCL, which Paddle's "
                    "Windows builds lack", severity=Severity.WARNING, fix="run on one GPU on Windows; use Linux "
                    "(or WSL2) for multi-GPU", gpus=gpus)]


@check("gpu_visible", CauseId.cuda_visible_devices_misconfig,
       "CUDA_VISIBLE_DEVICES vs FLAGS_selected_gpus vs the GPUs nvidia-smi lists",
       trips={"variables": {"CUDA_VISIBLE_DEVICES": "2"}, "gpu": {"gpus": [{"index": 0}, {"index": 1}]}},
       passes={"variables": {"CUDA_VISIBLE_DEVICES": "0,1"}, "gpu": {"gpus": [{"index": 0}, {"index": 1}]}})
def check_gpu_visible(facts: Facts) -> list[Finding]:
    env = facts.get("variables", {})
    visible = env.get("CUDA_VISIBLE_DEVICES")
    selected = env.get("FLAGS_selected_gpus")
    gpus = (facts.get("gpu") or {}).get("gpus", [])
    out = []
    ids = [v.strip() for v in visible.split(",") if v.strip()] if visible is not None else None
    if ids is not None and gpus:
        known = {str(g.get("index")) for g in gpus} | {str(g.get("uuid")) for g in gpus}
        missing = [i for i in ids if i not in known and not any(str(u).startswith(i) for u in known)]
        if ids in ([], ["-1"]) or (missing and missing == ids):
            out.append(_gpu_finding(f"CUDA_VISIBLE_DEVICES={visible!r} hides every GPU (this machine has "
                                    f"{len(gpus)})", visible, selected))
        elif missing:
            out.append(_gpu_finding(f"CUDA_VISIBLE_DEVICES names GPUs that do not exist: {', '.join(missing)} "
                                    f"(this machine has {len(gpus)})", visible, selected))
    if ids is not None and len(set(ids)) < len(ids):
        out.append(_gpu_finding(f"CUDA_VISIBLE_DEVICES={visible!r} lists a GPU twice", visible, selected))
    if selected:
        count = len(ids) if ids is not None else len(gpus) if gpus else None
        chosen = [s.strip() for s in selected.split(",") if s.strip()]
        bad = [s for s in chosen if not s.isdigit() or (count is not None and int(s) >= count)]
        if bad:
            limit = f"{count} visible GPU(s)" if count is not None else "the visible GPUs"
            out.append(_gpu_finding(f"FLAGS_selected_gpus={selected!r} picks {', '.join(bad)}, but there are only "
                                    f"{limit}: FLAGS_selected_gpus counts from 0 within CUDA_VISIBLE_DEVICES",
                                    visible, selected))
    if compiled_with(facts).get("cuda") and not gpus and (facts.get("gpu") or {}).get("nvidia_smi") is False:
        out.append(finding("gpu_visible", "Paddle is a GPU build, but there is no nvidia-smi and no GPU is listed",
                           severity=Severity.INFO, confidence=Confidence.LOW,
                           fix="in a container, start it with `--gpus all`", visible=visible, selected=selected))
    return out


def _gpu_finding(message: str, visible, selected) -> Finding:
    return finding("gpu_visible", message, fix="set CUDA_VISIBLE_DEVICES before Python starts, to GPUs that exist "
                   "(`nvidia-smi -L`), and let the launcher set FLAGS_selected_gpus (`--devices 0,1`)",
                   why="ranks end up on a missing GPU (invalid device ordinal) or share one",
                   visible=visible, selected=selected)
