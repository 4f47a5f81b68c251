"""The env report as text made to be pasted into a GitHub issue: Markdown bullets, facts first,
then the findings with their fix and ``paddle-doctor explain ID``. Plain text (no colour), so the
paste is the same whether or not stdout is a terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..findings import Finding
from .text import inert, inert_lines

GiB = 1 << 30


def render_env(report: Mapping[str, Any]) -> str:
    findings = [Finding.from_dict(f) for f in report.get("findings", [])]
    lines = [f"<!-- paddle-doctor env {report.get('paddle_doctor', '?')}, {report.get('time', '?')}: "
             "paste everything below into the issue -->", "### Environment (`paddle-doctor env`)", ""]
    lines += [f"- **{name}**: {value}" for name, value in _fact_rows(report)]
    lines += ["", *_variables_block(report)]
    lines += ["", *render_findings(findings, "Findings")]
    needs = report.get("needs_import") or {}
    if needs:
        lines += ["", "Not collected (needs `import paddle`; rerun with `paddle-doctor env --import-paddle`): "
                  + "; ".join(needs.values()) + "."]
    return inert_lines("\n".join(lines)) + "\n"


def render_findings(findings: Sequence[Finding], title: str) -> list[str]:
    if not findings:
        return [f"### {title}: none"]
    lines = [f"### {title} ({len(findings)})", ""]
    for n, f in enumerate(findings, 1):
        lines.append(f"{n}. **{f.severity.value}** `{f.cause}`: {f.message}")
        if f.fix:
            lines.append(f"   - fix: {f.fix}")
        if f.why:
            lines.append(f"   - why: {f.why}")
        lines.append(f"   - more: `paddle-doctor explain {f.cause}`")
    return lines


def _fact_rows(r: Mapping[str, Any]) -> list[tuple[str, str]]:
    system = r.get("system") or {}
    py, osf = system.get("python") or {}, system.get("os") or {}
    rows = [("Python", f"{py.get('version')} ({py.get('implementation')}, `{py.get('executable')}`)"),
            ("OS", " ".join(str(x) for x in (osf.get("system"), osf.get("release"), osf.get("machine")) if x)
             + (f", {osf['distro']}" if osf.get("distro") else "")
             + (f", in {osf['container']}" if osf.get("container") else "") + (", WSL" if osf.get("wsl") else ""))]
    rows += _paddle_rows(r)
    rows += [("GPUs", _gpus(r.get("gpu") or {})), ("CPU", _cpu(system.get("cpu") or {})),
             ("RAM", _memory(system.get("memory"))), ("/dev/shm", _shm(system.get("shm"))),
             ("Open files", _open_files(system.get("open_files"))), ("Host", _host(r.get("network") or {})),
             ("Launcher ports", _ports(r.get("ports") or [])), ("Paddle processes", _processes(r))]
    if r.get("packages") is not None:  # reports before the packages probe have none
        rows.append(("Packages", ", ".join(f"{k} {v}" for k, v in r["packages"].items()) or "none of those listed"))
    return rows


def _paddle_rows(r: Mapping[str, Any]) -> list[tuple[str, str]]:
    p = r.get("paddle") or {}
    if not p.get("installed"):
        return [("Paddle", "not installed (no importable `paddle` package here)")]
    built = p.get("compiled_with") or {}
    libs = r.get("libraries") or {}
    gpu = r.get("gpu") or {}
    commit = (p.get("commit") or "?")[:10]
    running = [f"driver {gpu.get('driver_version') or '-'} (supports CUDA {gpu.get('driver_cuda_version') or '-'})"]
    for name, label in (("cuda_runtime", "CUDA runtime"), ("cudnn", "cuDNN"), ("nccl", "NCCL")):
        lib = libs.get(name) or {}
        found = lib.get("version") or ("found, version unknown" if lib.get("found") else "not found")
        running.append(f"{label} {found}" + (f" ({lib['source']})" if lib.get("source") else ""))
    rows = [("Paddle", f"{p.get('version')} ({p.get('distribution') or 'unknown distribution'}, "
                       f"{p.get('build')} build), commit {commit}"),
            ("Compiled with", f"CUDA {built.get('cuda') or '-'}, cuDNN {built.get('cudnn') or '-'}, "
                              f"NCCL {built.get('nccl') or '-'}"
             + (f", archs {','.join(map(str, built['cuda_archs']))}" if built.get("cuda_archs") else "")),
            ("Running with", ", ".join(running))]
    imported = r.get("paddle_import")
    if imported:
        rows.append(("Paddle (imported)", imported.get("error") or
                     f"compiled with CUDA: {imported.get('compiled_with_cuda')}, GPUs Paddle sees: "
                     f"{imported.get('gpu_count_paddle')}, CUDA init: {imported.get('cuda_init') or '-'}"))
    return rows


def _gpus(gpu: Mapping[str, Any]) -> str:
    if not gpu.get("nvidia_smi"):
        return "none found (no `nvidia-smi`)"
    if gpu.get("error"):
        return f"`nvidia-smi` failed: {gpu['error']}"
    gpus = gpu.get("gpus") or []
    if not gpus:
        return "none (nvidia-smi lists no GPU)"
    by_uuid = {}
    for app in gpu.get("processes") or []:
        by_uuid.setdefault(app.get("gpu_uuid"), []).append(f"PID {app.get('pid')} {app.get('used_memory_mib')} MiB")
    parts = []
    for g in gpus:
        apps = by_uuid.get(g.get("uuid"))
        cap = f", sm {g['compute_cap']}" if g.get("compute_cap") else ""
        parts.append(f"{g.get('index')}: {g.get('name')}{cap}, {g.get('memory_used_mib')}/{g.get('memory_total_mib')} "
                     f"MiB used, {g.get('utilization_pct')}% busy" + (f" [{'; '.join(apps)}]" if apps else ""))
    return f"{len(gpus)} | " + " | ".join(parts)


def _cpu(cpu: Mapping[str, Any]) -> str:
    return f"{cpu.get('count')} ({cpu.get('usable')} usable), {cpu.get('model') or 'unknown model'}"


def _memory(mem: Mapping[str, Any] | None) -> str:
    if not mem or not mem.get("total_bytes"):
        return "unknown"
    text = f"{_gib(mem['total_bytes'])} ({_gib(mem.get('available_bytes'))} available)"
    return text + (f", cgroup limit {_gib(mem['cgroup_limit_bytes'])}" if mem.get("cgroup_limit_bytes") else "")


def _shm(shm: Mapping[str, Any] | None) -> str:
    return "not mounted" if not shm else f"{_gib(shm['total_bytes'])} ({_gib(shm['free_bytes'])} free)"


def _open_files(limit: Mapping[str, Any] | None) -> str:
    if not limit:
        return "unknown"
    return f"{limit.get('soft') or 'unlimited'} (hard {limit.get('hard') or 'unlimited'})"


def _host(net: Mapping[str, Any]) -> str:
    addresses = ", ".join(f"{a['interface']} {a['address']}" for a in net.get("addresses") or []
                          if a.get("interface") != "lo" and not a["address"].startswith("fe80"))
    return f"{net.get('hostname')} -> {net.get('fqdn_ip') or 'does not resolve'}; {addresses or 'no other address'}"


def _ports(ports: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(f"{p['port']} {'free' if p.get('free') else 'IN USE'}" for p in ports) or "none checked"


def _processes(r: Mapping[str, Any]) -> str:
    procs = [p for p in (r.get("processes") or {}).get("paddle") or [] if not p.get("ancestor")]
    if not procs:
        return "none (other than this one's launcher)" if (r.get("processes") or {}).get("under_launcher") else "none"
    return "; ".join(f"PID {p['pid']} {p.get('role')} `{inert(p.get('cmd', ''))[:80]}`" for p in procs[:5]) + \
        (f"; and {len(procs) - 5} more" if len(procs) > 5 else "")


def _variables_block(r: Mapping[str, Any]) -> list[str]:
    variables = r.get("variables") or {}
    proxies = [name for name, on in (r.get("proxies") or {}).items() if on]
    lines = ["Variables (PADDLE_*, FLAGS_*, NCCL_*, GLOG_*, CUDA_VISIBLE_DEVICES and a few more; secret-looking "
             "values masked):"]
    if variables:
        lines += ["```", *(inert(f"{k}={v}") for k, v in variables.items()), "```"]
    else:
        lines.append("none set")
    lines.append(f"Proxy variables set (values not shown): {', '.join(proxies) if proxies else 'none'}")
    return lines


def _gib(n: Any) -> str:
    if not isinstance(n, int):
        return "?"
    return f"{n / GiB:.1f} GiB" if n >= GiB else f"{n / (1 << 20):.0f} MiB"


def render_compare(labels: Sequence[str], findings: Sequence[Finding]) -> str:
    head = [f"### `paddle-doctor env --compare` of {len(labels)} reports: {', '.join(labels)}", ""]
    if not findings:
        return inert_lines("\n".join(head + ["No difference that matters (Paddle build, CUDA, cuDNN, NCCL, driver, GPUs, "
                                 "Python, NCCL_* and FLAGS_* settings are the same)."])) + "\n"
    return inert_lines("\n".join(head + render_findings(findings, "Differences"))) + "\n"
