"""Launcher facts about devices, checked against each other and against the error.

A job's text often says which GPUs it asked for and which it could see: the launch command
(``--gpus`` of ``fleet.launch``, ``--selected_gpus`` of 1.8, ``--devices`` of the new launcher), the
launchers' own print of their arguments (``gpus: 0,1`` / ``LAUNCH INFO ... devices: 0,1``), an
environment dump or ``export`` (``CUDA_VISIBLE_DEVICES=0,1``), and each worker's
``FLAGS_selected_gpus`` (the launchers set it per worker; Paddle 3 prints it in its "Modified FLAGS"
banner; the new launcher writes it to ``envlog.N``). Both launchers take the ids of ``--gpus`` /
``--devices`` as labels of ``CUDA_VISIBLE_DEVICES`` (pp 2.0.2-2.6.2 fleet/launch_utils.py get_gpus
asserts ``x in cuda_visible_devices_list``; pp 2.4.2-3.3.1 launch/context/device.py
get_selected_devices does ``self._labels.index(d)``), and each rank needs its own GPU.

The facts and what contradicts them go into the verdict's ``facts`` and ``why``. The cause stays
the catalog's: a device error keeps its own; a generic error that such a contradiction explains
becomes ``device_not_found`` (an id not visible) or ``cuda_visible_devices_misconfig`` (one GPU for
two ranks), with the generic error as the alternative.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ...catalog import Cause, get_cause
from ...findings import Alternative, Confidence, EvidenceLine, Finding
from ...redact import redact
from ..read.parse import Event
from ...catalog.ids import CauseId
from ...lazy import lazy_compile

# Signatures whose lines carry device facts (a launch command with --ips carries --gpus too).
FACT_SIGNATURES = ("launch_cmd_devices", "launch_cmd_ips", "launch_args_devices", "visible_devices_env",
                   "selected_gpus_env", "launch_device_not_found", "fleet_gpus_not_visible", "cpu_run_requested")
_ARG = lazy_compile(r"--(?P<flag>gpus|devices|selected_gpus)(?:[= ]+|['\"],\s*)['\"]?(?P<ids>\d+(?:\s*,\s*\d+)*)")
_PRINTED_ARG = lazy_compile(r"(?:^|\s)(?P<flag>gpus|devices|selected_gpus): (?P<ids>\d+(?:,\d+)*)\s*$")
_VISIBLE = lazy_compile(r"CUDA_VISIBLE_DEVICES['\"]?\s*[=:]\s*['\"]?(?P<ids>\d+(?:\s*,\s*\d+)*)")
_SELECTED = lazy_compile(r"FLAGS_selected_gpus(?:['\"]?\s*[=:]\s*['\"]?|', current_value=')(?P<id>\d+)\b")
# What the launchers say when an id is not visible: the ids given and the labels they had.
_NOT_FOUND = lazy_compile(r"Device not found \S+ from (?P<ids>\d+(?:,\d+)*) for setting \[(?P<labels>[^\]]*)\]")
_NOT_VISIBLE = lazy_compile(r"in CUDA_VISIBLE_DEVICES\[(?P<labels>[^\]]*)\]")

DEVICE_CAUSES = (CauseId.device_not_found, CauseId.cuda_visible_devices_misconfig)
# Errors with no reason of their own that a device contradiction explains (two ranks on one GPU
# also run out of its memory).
GENERIC = (CauseId.python_exception, CauseId.cuda_error_other, CauseId.nccl_error, "unknown", CauseId.gpu_oom)


@dataclass
class DeviceFacts:
    requested: list[str] = field(default_factory=list)  # ids, as given
    requested_by: str = ""  # "--gpus", "--devices", "--selected_gpus"
    visible: list[str] | None = None  # the visible GPU labels, when the text shows them
    visible_from: str = ""  # "CUDA_VISIBLE_DEVICES" or "the launcher's device list"
    selected: dict[tuple[str, int], str] = field(default_factory=dict)  # (node, rank) -> FLAGS_selected_gpus
    lines: list[Event] = field(default_factory=list)  # where the facts were read
    cpu_requested: Event | None = None  # a flag that asked for no GPU (--use_gpu=false, --device cpu)

    def as_dict(self) -> dict:
        out: dict = {}
        if self.requested:
            out["requested"], out["requested_by"] = list(self.requested), self.requested_by
        if self.visible is not None:
            out["visible"], out["visible_from"] = list(self.visible), self.visible_from
        if self.selected:
            out["selected_gpus_by_rank"] = {str(r): d for (_, r), d in sorted(self.selected.items())}
        if self.cpu_requested is not None:
            out["cpu_requested"] = redact(self.cpu_requested.text.strip())
        return out

    def selects_gpus(self) -> bool:
        return bool(self.requested or self.visible is not None or self.selected)

    def note_requested(self, ids: str, flag: str, e: Event) -> None:
        if not self.requested:
            self.requested, self.requested_by = _ids(ids), flag
            self.lines.append(e)

    def note_visible(self, labels: str, where: str, e: Event | None) -> None:
        if self.visible is None:
            self.visible, self.visible_from = _ids(labels.replace("'", "").replace('"', "")), where
            if e is not None and e not in self.lines:
                self.lines.append(e)


def collect_device_facts(events: list[Event], env_by_rank: dict[tuple[str, int], dict[str, str]],
                         node_of: dict[str, str]) -> DeviceFacts:
    """The first device list asked for, the first visible list shown, and each rank's
    FLAGS_selected_gpus (from its log or its ``envlog``), keyed by (node, rank): two nodes each
    have their own GPU 0. ``node_of`` maps a file to its node dir."""
    facts = DeviceFacts()
    for e in events:
        if e.sig.name in FACT_SIGNATURES:
            _read_line(facts, e, node_of.get(e.file, ""))
    for key, env in env_by_rank.items():
        if env.get("FLAGS_selected_gpus", "").isdigit():
            facts.selected.setdefault(key, env["FLAGS_selected_gpus"])
        if env.get("CUDA_VISIBLE_DEVICES"):
            facts.note_visible(env["CUDA_VISIBLE_DEVICES"], "CUDA_VISIBLE_DEVICES", None)
    return facts


def _read_line(facts: DeviceFacts, e: Event, node: str) -> None:
    text = e.text
    if e.sig.name == "cpu_run_requested":
        facts.cpu_requested = facts.cpu_requested or e
        facts.lines.append(e)
        return
    refused = _NOT_FOUND.search(text)
    if refused:
        facts.note_requested(refused["ids"], "--devices", e)
        facts.note_visible(refused["labels"], "the launcher's device list", e)
        return
    arg = _ARG.search(text) or _PRINTED_ARG.search(text)
    if arg:
        facts.note_requested(arg["ids"], "--" + arg["flag"], e)
    visible = _VISIBLE.search(text) or _NOT_VISIBLE.search(text)
    if visible:
        facts.note_visible(visible.groupdict().get("ids") or visible["labels"], "CUDA_VISIBLE_DEVICES", e)
    selected = _SELECTED.search(text)
    if selected and e.rank is not None:
        facts.selected.setdefault((node, e.rank), selected["id"])


def contradictions(facts: DeviceFacts) -> tuple[list[str], str | None]:
    """What does not fit, in words, and the cause it points to (None: nothing contradicts)."""
    said, cause = [], None
    twice = sorted({d for d in facts.requested if facts.requested.count(d) > 1}, key=int)
    if twice:
        said.append(f"{facts.requested_by} {','.join(facts.requested)} names GPU {', '.join(twice)} more than once: "
                    "two ranks on one GPU")
        cause = CauseId.cuda_visible_devices_misconfig
    shared = _shared_gpus(facts.selected)
    if shared:
        said.append("; ".join(f"ranks {', '.join(map(str, ranks))} all have FLAGS_selected_gpus={gpu}"
                              for gpu, ranks in shared.items()) + ": they share one GPU")
        cause = CauseId.cuda_visible_devices_misconfig
    if facts.visible is not None and facts.requested:
        missing = [d for d in dict.fromkeys(facts.requested) if d not in facts.visible]
        if missing:
            said.append(f"{facts.requested_by} {','.join(facts.requested)} asks for GPU {', '.join(missing)}, which "
                        f"{facts.visible_from} ({','.join(facts.visible) or 'empty'}) does not hold: the launchers "
                        f"take these ids from that list, and {len(facts.visible)} GPU(s) are visible")
            cause = cause or CauseId.device_not_found
    return said, cause


def with_device_facts(root: Finding | None, facts: DeviceFacts) -> Finding | None:
    """``root`` with the device facts added when it is about devices, or re-stated as the device
    cause when it is a generic error that a contradiction explains."""
    if root is None or not (facts.selects_gpus() or facts.cpu_requested is not None):
        return root
    said, cause = contradictions(facts)
    extra = {"launch_devices": {**facts.as_dict(), "contradictions": said}}
    if _no_device_on_a_cpu_run(root, facts):
        return _restated_as_no_gpu(root, extra, facts)
    if _no_device_under_a_list(root, facts):
        return _restated_as_hidden(root, extra, facts)
    renumbered = _renumbered_id(root, facts)
    if renumbered is not None:
        return _restated_as_renumbered(root, renumbered, extra, facts)
    if root.cause in DEVICE_CAUSES:
        why = root.why + ("; " + "; ".join(said) if said else "")
        return dataclasses.replace(root, why=why, evidence=root.evidence + _quoted(facts, root),
                                   facts={**root.facts, **extra})
    if cause is None or root.cause not in GENERIC:
        return root
    return _restated(root, cause, said, extra, facts)


def _restated(root: Finding, cause: str, said: list[str], extra: dict, facts: DeviceFacts) -> Finding:
    entry = get_cause(cause)
    first = Alternative(root.cause, "low", f"the error may have its own reason ({root.message})",
                        "give every rank its own visible GPU and rerun: the error goes away if the devices "
                        "were the cause")
    alternatives = (first,) + tuple(a for a in root.alternatives if a.cause not in (cause, root.cause))[:1]
    return dataclasses.replace(
        root, code="launch_devices_contradict", cause=cause, message=f"{entry.title} ({said[0].split(':')[0]})",
        confidence=Confidence.MEDIUM, evidence=_quoted(facts, root) + root.evidence,
        why=f"the launch facts contradict each other: {'; '.join(said)}; the {root.cause} error that follows "
            "is what that leads to",
        fix=entry.fix.strip(), alternatives=alternatives,
        facts={**root.facts, **extra, "confirm": entry.confirm.strip()})


# CUDA's "no device at all" (cudaErrorNoDevice, 38 before CUDA 10.1 and 100 after; the driver API's
# name), as against an id out of range (invalid device ordinal), which needs a GPU to exist.
_NO_DEVICE = lazy_compile(r"cudaErrorNoDevice|no CUDA-capable device|CUDA_ERROR_NO_DEVICE")


def _no_device_on_a_cpu_run(root: Finding, facts: DeviceFacts) -> bool:
    """CUDA found no device in a run that asked for none and selected no GPU: no device list can have
    hidden one it needed (a GPU build initialises CUDA even then, on a host with no usable GPU)."""
    return (root.cause in DEVICE_CAUSES and facts.cpu_requested is not None
            and not facts.selects_gpus() and any(_NO_DEVICE.search(e.text) for e in root.evidence))


def _restated_as_no_gpu(root: Finding, extra: dict, facts: DeviceFacts) -> Finding:
    entry = get_cause(CauseId.device_not_found)
    asked = facts.cpu_requested
    found = asked.sig.pattern.search(asked.text) if asked is not None else None
    flag = redact(found.group(0)) if found else "a flag"
    first = Alternative(CauseId.cuda_visible_devices_misconfig, "low", "CUDA_VISIBLE_DEVICES set in the shell may "
                        "still hide the GPUs", "`echo $CUDA_VISIBLE_DEVICES` and `nvidia-smi -L` in the shell that ran it")
    return _device_restated(root, "cpu_run_found_no_gpu", entry, first, extra, facts,
                            f"CUDA found no device in a run that asked for no GPU ({flag}) and selected none: no "
                            "device list hid one it needed; the build initialised CUDA on a host with no usable GPU")


def _no_device_under_a_list(root: Finding, facts: DeviceFacts) -> bool:
    """CUDA found no device at all while the text shows CUDA_VISIBLE_DEVICES set: the list is what the
    driver was shown, and it hid every GPU (ids the machine does not have, or a GPU-less list)."""
    return (root.cause == CauseId.device_not_found and facts.visible_from == "CUDA_VISIBLE_DEVICES"
            and any(_NO_DEVICE.search(e.text) for e in root.evidence))


def _restated_as_hidden(root: Finding, extra: dict, facts: DeviceFacts) -> Finding:
    entry = get_cause(CauseId.cuda_visible_devices_misconfig)
    first = Alternative(CauseId.device_not_found, "low", "the machine may have no usable GPU whatever the list says",
                        "`nvidia-smi -L` in the same shell lists the GPUs the driver sees")
    return _device_restated(root, "visible_devices_hide_all", entry, first, extra, facts,
                            f"CUDA saw no device with CUDA_VISIBLE_DEVICES={','.join(facts.visible) or '(empty)'}: "
                            "the list names no GPU the driver has, so it hid all of them")


# The GPU id a device check refused (pp 1.3-3.x pybind.cc CUDAPlace: Invalid CUDAPlace(%d); gpu_info.cc
# Device id %d exceeds ...; cuda_info.cc ... received id is: %d; Only %d CUDA devices found, cannot set to %d).
_ASKED_ID = lazy_compile(r"Invalid CUDAPlace\((?P<a>\d+)\)|Device id (?P<b>\d+) exceeds|received id is: (?P<c>\d+)|"
                         r"cannot set to (?P<d>\d+)")


def _renumbered_id(root: Finding, facts: DeviceFacts) -> str | None:
    """The refused GPU id, when it is one of CUDA_VISIBLE_DEVICES's labels but not an index into the list:
    inside the process CUDA numbers the visible GPUs from 0, so the id given was the physical GPU's."""
    if root.cause != CauseId.device_not_found or facts.visible is None or facts.visible_from != "CUDA_VISIBLE_DEVICES":
        return None
    for e in root.evidence:
        m = _ASKED_ID.search(e.text)
        asked = next((g for g in m.groups() if g is not None), None) if m else None
        if asked is not None and asked in facts.visible and int(asked) >= len(facts.visible):
            return asked
    return None


def _restated_as_renumbered(root: Finding, asked: str, extra: dict, facts: DeviceFacts) -> Finding:
    entry = get_cause(CauseId.cuda_visible_devices_misconfig)
    first = Alternative(CauseId.device_not_found, "low", "the machine may have fewer GPUs than the program asks for",
                        "`nvidia-smi -L` lists the GPUs the driver sees")
    return _device_restated(root, "visible_devices_renumbered", entry, first, extra, facts,
                            f"GPU {asked} was asked for inside a process whose CUDA_VISIBLE_DEVICES is "
                            f"{','.join(facts.visible)}: CUDA numbers those {len(facts.visible)} GPU(s) from 0, so "
                            f"the physical id {asked} is not a valid index (use the position in CUDA_VISIBLE_DEVICES)")


def _device_restated(root: Finding, code: str, entry: Cause, first: Alternative, extra: dict, facts: DeviceFacts,
                     why: str) -> Finding:
    """``root`` re-stated as ``entry``'s cause by the device fact ``code`` names, at medium, with the
    fact's lines quoted and ``first`` as the one alternative."""
    return dataclasses.replace(
        root, code=code, cause=CauseId(entry.id), message=entry.title, confidence=Confidence.MEDIUM,
        evidence=root.evidence + _quoted(facts, root), why=why, fix=entry.fix.strip(), alternatives=(first,),
        facts={**root.facts, **extra, "confirm": entry.confirm.strip()})


def _quoted(facts: DeviceFacts, root: Finding) -> tuple[EvidenceLine, ...]:
    """The lines the facts were read from (two at most), unless the verdict already quotes them."""
    shown = {(e.path, e.line) for e in root.evidence}
    lines = [EvidenceLine(e.file, e.line, redact(e.text.strip())) for e in facts.lines[:2]]
    return tuple(x for x in lines if (x.path, x.line) not in shown)


def _shared_gpus(selected: dict[tuple[str, int], str]) -> dict[str, list[int]]:
    """GPU id -> ranks of one node that were all given it."""
    by_gpu: dict[tuple[str, str], list[int]] = {}
    for (node, rank), gpu in sorted(selected.items()):
        by_gpu.setdefault((node, gpu), []).append(rank)
    return {gpu: ranks for (_, gpu), ranks in by_gpu.items() if len(ranks) > 1}


def _ids(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]
