#!/usr/bin/env python3
"""Benchmark: ``paddle-doctor diagnose`` against ``grep -F`` on a big launcher log dir.

Generates (once; reused while the sizes match) a launcher log dir of 8 worker logs
``workerlog.0``..``workerlog.7`` of ``--size-mb`` MiB each (default 128 MiB, 1 GiB in all) in a
scratch dir outside the repo (default /tmp/paddle-doctor-bench). The logs are realistic training
output: a Paddle 3.3.1 "Modified FLAGS detected" banner, start-up glog lines, then
PaddleDetection / PaddleOCR / PaddleNLP style step lines with random numbers, a few glog and
UserWarning lines in between. Rank 5 runs out of GPU memory (Python traceback ending in
``paddle.base.core.ResourceExhaustedError: ... Out of memory error on GPU 5 ...``) and its log ends
there, a few hundred KB short of the other ranks; ranks 0-4 and 6-7 end with the gloo peer-closed
error ``pair.cc:584] TIMEOUT self_rank = N pair_rank = 5`` after a traceback through
paddle/distributed/communication/all_reduce.py.

Then, in one run, alternating (diagnose first on even repetitions, grep first on odd ones):

(a) ``paddle-doctor diagnose --format json DIR``, the real console script, as a subprocess. Wall time
    is perf_counter around spawn..exit; peak RSS is the child's ``ru_maxrss`` from ``os.wait4`` on
    that child's pid (the same number ``/usr/bin/time -f %M`` prints: GNU time also reads it from
    wait4). It is per child, unlike ``getrusage(RUSAGE_CHILDREN)``, which is a max over all children
    ever waited for (grep, the generator...).
(b) ``LC_ALL=C grep -c -F -f MARKERS FILES`` where MARKERS holds exactly
    ``paddle_doctor.diagnose.read.literals.triggers.TRIGGERS``, one per line. ``-c`` with stdout to a pipe, never
    ``> /dev/null``: GNU grep (3.8 here) treats a /dev/null stdout like ``-q`` and stops at the first
    match, even with ``-c`` (0.00 s on these files), so it would not read them. The locale makes no
    difference here (C and C.UTF-8 both ~2.2-2.3 s); LC_ALL=C is set for reproducibility.

The page cache is warmed first (every file read once), so both read from memory; so is Python's
bytecode cache of paddle-doctor's modules (``bytecode_env``: an installed package runs from the
bytecode pip compiled; a checkout run with PYTHONDONTWRITEBYTECODE set, as this project's sandboxes
set it, compiles every module again on each run: ~70 ms of CPU here). ``--no-bytecode-cache`` times
diagnose with the environment as it is given. Likewise the compiled trigger database
(``diagnose/read/literals/hsdb.py``) is kept in ``DIR/cache`` by the untimed first run and loaded
after it, as on a user's machine after the first big diagnosis; ``--no-db-cache`` compiles it on
every run (~45 ms). Prints the
medians, the ratio diagnose/grep (goal <= 4) and diagnose's peak RSS (goal <= 200 MB), and checks
that the JSON says root_cause.category == "gpu_oom" and rank == 5: exit 1 otherwise (the figures are
still printed and written).

    .venv/bin/python bench/bench_diagnose.py [--dir /tmp/paddle-doctor-bench] [--size-mb 128]
        [--reps 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from benchmachine import machine  # bench/ is sys.path[0] when run as a script

GEN_VERSION = 1  # bump when the generated content changes, so old scratch dirs are regenerated
WORLD = 8
FAILING_RANK = 5
PORT = 40123
RANK5_SHORT_BYTES = 300 * 1024  # rank 5 dies this far before the other ranks' logs end
TAIL_RESERVE = 8 * 1024  # room kept at the end of the other ranks for their traceback


def find_cli() -> list[str]:
    script = Path(sys.executable).with_name("paddle-doctor")
    if script.exists():
        return [str(script)]
    found = shutil.which("paddle-doctor")
    return [found] if found else [sys.executable, "-m", "paddle_doctor.cli.main"]


# ----------------------------------------------------------------------------------------------
# Log generation
# ----------------------------------------------------------------------------------------------

FLAGS_BANNER = (
    "======================= Modified FLAGS detected =======================\n"
    "FLAGS(name='FLAGS_selected_gpus', current_value='{rank}', default_value='')\n"
    "FLAGS(name='FLAGS_enable_pir_api', current_value=True, default_value=False)\n"
    "FLAGS(name='FLAGS_cudnn_deterministic', current_value=False, default_value=False)\n"
    "FLAGS(name='FLAGS_embedding_deterministic', current_value=1, default_value=0)\n"
    "=======================================================================\n"
)

GLOG_START = [
    "I1129 09:58:{s:02d}.{us:06d} {tid:>6} tcp_utils.cc:130] Successfully connected to 127.0.0.1:{port}\n",
    "I1129 09:58:{s:02d}.{us:06d} {tid:>6} process_group_nccl.cc:155] ProcessGroupNCCL pg_timeout_ 1800000\n",
    "I1129 09:58:{s:02d}.{us:06d} {tid:>6} process_group_nccl.cc:156] ProcessGroupNCCL nccl_comm_init_option_ 0\n",
    "W1129 09:58:{s:02d}.{us:06d} {tid:>6} gpu_resources.cc:119] Please NOTE: device: {rank}, GPU Compute "
    "Capability: 9.0, Driver API Version: 12.4, Runtime API Version: 12.3\n",
    "W1129 09:58:{s:02d}.{us:06d} {tid:>6} gpu_resources.cc:164] device: {rank}, cuDNN Version: 9.0.\n",
    "[2025-11-29 09:58:{s:02d},{ms:03d}] [    INFO] distributed_strategy.py:214 - distributed strategy "
    "initialized\n",
    "I1129 09:58:{s:02d}.{us:06d} {tid:>6} program_interpreter.cc:243] New Executor is Running.\n",
]

# Glog info lines that show up now and then during training (no trigger words in them).
GLOG_RUNNING = [
    "I1129 {h:02d}:{m:02d}:{s:02d}.{us:06d} {tid:>6} interpretercore.cc:237] New Executor is Running.\n",
    "I1129 {h:02d}:{m:02d}:{s:02d}.{us:06d} {tid:>6} auto_growth_best_fit_allocator.cc:{n}] Free chunks "
    "merged: {k} blocks, {mb} MB released to the pool\n",
    "I1129 {h:02d}:{m:02d}:{s:02d}.{us:06d} {tid:>6} reducer.cc:{n}] Reducer: bucket {k} of {b} ready, "
    "fused {mb} MB\n",
    "I1129 {h:02d}:{m:02d}:{s:02d}.{us:06d} {tid:>6} dygraph_functions.cc:{n}] Running AD API: "
    "matmul_grad\n",
]

WARNING_LINE = (
    "/usr/local/lib/python3.10/dist-packages/paddle/nn/layer/norm.py:{n}: UserWarning: When training, "
    "we now always track global mean and variance.\n"
)


class LineMaker:
    """Training-log lines in three styles; numbers are random, so no two lines are alike."""

    def __init__(self, rank: int, seed: int) -> None:
        self.rank = rank
        self.rnd = random.Random(seed)
        self.step = 0
        self.t = 10 * 3600  # seconds since midnight of the fake clock
        self.tid = 1000 + rank * 37

    def _clock(self) -> tuple[int, int, int]:
        self.t += self.rnd.random() * 0.8
        t = int(self.t) % 86400
        return t // 3600, (t // 60) % 60, t % 60

    def det(self) -> str:  # PaddleDetection
        r = self.rnd.random
        h, m, s = self._clock()
        self.step += 1
        ep, it = divmod(self.step, 1462)
        eta = int((300 * 1462 - self.step) * 0.41)
        return (
            f"[11/29 {h:02d}:{m:02d}:{s:02d}] ppdet.engine INFO: Epoch: [{ep}] [{it:>4}/1462] "
            f"eta: {eta // 86400} day, {eta % 86400 // 3600}:{eta % 3600 // 60:02d}:{eta % 60:02d} "
            f"lr: {0.01 * (1 - self.step / 5e5):.6f} loss: {0.6 + 2 * r():.6f} "
            f"loss_cls: {0.2 + r():.6f} loss_iou: {0.1 + 0.5 * r():.6f} loss_dfl: {0.5 + r():.6f} "
            f"loss_l1: {0.05 + 0.3 * r():.6f} batch_cost: {0.3 + 0.2 * r():.4f} "
            f"data_cost: {0.002 * r():.4f} ips: {15 + 8 * r():.4f} images/s, "
            f"max_mem_reserved: {70000 + int(8000 * r())} MB, max_mem_allocated: {60000 + int(9000 * r())} MB\n"
        )

    def ocr(self) -> str:  # PaddleOCR
        r = self.rnd.random
        h, m, s = self._clock()
        self.step += 1
        eta = int((500 * 2000 - self.step) * 0.33)
        return (
            f"[2025/11/29 {h:02d}:{m:02d}:{s:02d}] ppocr INFO: epoch: [{self.step // 2000 + 1}/500], "
            f"global_step: {self.step}, lr: {0.001 * (1 - self.step / 1e6):.6f}, "
            f"loss: {0.8 + 3 * r():.6f}, loss_shrink_maps: {0.5 + r():.6f}, loss_threshold_maps: "
            f"{0.2 + r():.6f}, loss_binary_maps: {0.1 + r():.6f}, avg_reader_cost: {0.01 * r():.5f} s, "
            f"avg_batch_cost: {0.25 + 0.2 * r():.5f} s, avg_samples: 16.0, ips: {30 + 20 * r():.5f} "
            f"samples/s, eta: {eta // 86400} day, {eta % 86400 // 3600}:{eta % 3600 // 60:02d}:{eta % 60:02d}, "
            f"max_mem_reserved: {60000 + int(9000 * r())} MB, max_mem_allocated: {50000 + int(9000 * r())} MB\n"
        )

    def nlp(self) -> str:  # PaddleNLP
        r = self.rnd.random
        h, m, s = self._clock()
        self.step += 1
        return (
            f"[2025-11-29 {h:02d}:{m:02d}:{s:02d},{int(1000 * r()):03d}] [    INFO] - loss: {1.5 + r():.8f}, "
            f"learning_rate: {3e-05 * (1 - self.step / 2e6):.4e}, global_step: {self.step}, "
            f"current_memory_allocated: {40 + 20 * r():.4f}, current_memory_reserved: {70 + 5 * r():.4f}, "
            f"max_memory_allocated: {60 + 10 * r():.4f}, max_memory_reserved: {72 + 4 * r():.4f}, "
            f"interval_runtime: {1.1 + 0.3 * r():.4f}, interval_samples_per_second: {25 + 5 * r():.4f}, "
            f"interval_tokens_per_second_per_device: {3200 + 400 * r():.4f}, interval_steps_per_second: "
            f"{0.7 + 0.2 * r():.4f}, progress_or_epoch: {self.step / 2e5:.4f}\n"
        )

    def glog(self) -> str:
        r = self.rnd
        h, m, s = self._clock()
        tmpl = r.choice(GLOG_RUNNING)
        return tmpl.format(h=h, m=m, s=s, us=r.randrange(1_000_000), tid=self.tid + r.randrange(4),
                           n=r.randrange(40, 900), k=r.randrange(1, 64), b=64, mb=r.randrange(1, 512))

    def block(self, target_bytes: int) -> str:
        """About ``target_bytes`` of lines: mostly step lines, 1 in 50 glog, 1 in 20000 a UserWarning."""
        out, size = [], 0
        r = self.rnd.random
        makers = (self.det, self.ocr, self.nlp)
        while size < target_bytes:
            x = r()
            if x < 0.02:
                line = self.glog()
            elif x < 0.02005:
                line = WARNING_LINE.format(n=self.rnd.randrange(600, 800))
            else:
                line = makers[int(x * 1000) % 3]()
            out.append(line)
            size += len(line)
        return "".join(out)

    def start(self) -> str:
        r = self.rnd
        lines = [FLAGS_BANNER.format(rank=self.rank)]
        for i, tmpl in enumerate(GLOG_START):
            lines.append(tmpl.format(s=10 + i, us=r.randrange(1_000_000), ms=r.randrange(1000),
                                     tid=self.tid, port=PORT, rank=self.rank))
        return "".join(lines)


def oom_tail(rank: int) -> str:
    site = "/usr/local/lib/python3.10/dist-packages/paddle"
    return f"""Traceback (most recent call last):
  File "/root/PaddleDetection/tools/train.py", line 212, in <module>
    main()
  File "/root/PaddleDetection/tools/train.py", line 208, in main
    run(FLAGS, cfg)
  File "/root/PaddleDetection/tools/train.py", line 161, in run
    trainer.train(FLAGS.eval)
  File "/root/PaddleDetection/ppdet/engine/trainer.py", line 617, in train
    outputs = model(data)
  File "{site}/nn/layer/layers.py", line 1532, in __call__
    return self.forward(*inputs, **kwargs)
  File "{site}/distributed/parallel.py", line 644, in forward
    outputs = self._layers(*inputs, **kwargs)
  File "{site}/nn/layer/layers.py", line 1532, in __call__
    return self.forward(*inputs, **kwargs)
  File "/root/PaddleDetection/ppdet/modeling/architectures/meta_arch.py", line 60, in forward
    out = self.get_loss()
  File "/root/PaddleDetection/ppdet/modeling/architectures/detr.py", line 122, in get_loss
    return self._forward()
  File "/root/PaddleDetection/ppdet/modeling/architectures/detr.py", line 80, in _forward
    body_feats = self.backbone(self.inputs)
  File "{site}/nn/layer/layers.py", line 1532, in __call__
    return self.forward(*inputs, **kwargs)
  File "/root/PaddleDetection/ppdet/modeling/backbones/swin_transformer.py", line 391, in forward
    attn = paddle.matmul(q, k, transpose_y=True)
  File "{site}/tensor/linalg.py", line 322, in matmul
    return _C_ops.matmul(x, y, transpose_x, transpose_y)
paddle.base.core.ResourceExhaustedError: 

--------------------------------------
C++ Traceback (most recent call last):
--------------------------------------
0   paddle::pybind::eager_api_matmul(_object*, _object*, _object*)
1   matmul_ad_func(paddle::Tensor const&, paddle::Tensor const&, bool, bool)
2   paddle::experimental::matmul(paddle::Tensor const&, paddle::Tensor const&, bool, bool)
3   void phi::MatmulKernel<float, phi::GPUContext>(phi::GPUContext const&, phi::DenseTensor const&, phi::DenseTensor const&, bool, bool, phi::DenseTensor*)
4   float* phi::DeviceContext::Alloc<float>(phi::TensorBase*, unsigned long, bool) const
5   phi::DeviceContext::Impl::Alloc(phi::TensorBase*, phi::Place const&, phi::DataType, unsigned long, bool, bool) const
6   paddle::memory::allocation::Allocator::Allocate(unsigned long)
7   paddle::memory::allocation::StatAllocator::AllocateImpl(unsigned long)
8   paddle::memory::allocation::Allocator::Allocate(unsigned long)
9   paddle::memory::allocation::RetryAllocator::AllocateImpl(unsigned long)
10  paddle::memory::allocation::AutoGrowthBestFitAllocator::AllocateImpl(unsigned long)
11  paddle::memory::allocation::Allocator::Allocate(unsigned long)
12  paddle::memory::allocation::CUDAAllocator::AllocateImpl(unsigned long)
13  common::enforce::GetCurrentTraceBackString[abi:cxx11](bool)

----------------------
Error Message Summary:
----------------------
ResourceExhaustedError: 

Out of memory error on GPU {rank}. Cannot allocate 1.5GB memory on GPU {rank}, 78.1GB memory has been allocated and available memory is only 1.2GB.

Please check whether there is any other process using GPU {rank}.
1. If yes, please stop them, or start PaddlePaddle on another GPU.
2. If no, please decrease the batch size of your model. 
 (at /paddle/paddle/phi/core/memory/allocation/cuda_allocator.cc:84)

"""


def gloo_tail(rank: int, failing: int = FAILING_RANK) -> str:
    site = "/usr/local/lib/python3.10/dist-packages/paddle"
    return f"""Traceback (most recent call last):
  File "/root/PaddleDetection/tools/train.py", line 212, in <module>
    main()
  File "/root/PaddleDetection/tools/train.py", line 208, in main
    run(FLAGS, cfg)
  File "/root/PaddleDetection/tools/train.py", line 161, in run
    trainer.train(FLAGS.eval)
  File "/root/PaddleDetection/ppdet/engine/trainer.py", line 631, in train
    self._compose_callback.on_step_end(self.status)
  File "/root/PaddleDetection/ppdet/engine/callbacks.py", line 70, in on_step_end
    c.on_step_end(status)
  File "/root/PaddleDetection/ppdet/engine/callbacks.py", line 152, in on_step_end
    training_staus.update(stats)
  File "/root/PaddleDetection/ppdet/utils/stats.py", line 74, in update
    paddle.distributed.all_reduce(v)
  File "{site}/distributed/communication/all_reduce.py", line 85, in all_reduce
    return stream.all_reduce(
  File "{site}/distributed/communication/stream/all_reduce.py", line 127, in all_reduce
    return _all_reduce_in_dygraph(
  File "{site}/distributed/communication/stream/all_reduce.py", line 38, in _all_reduce_in_dygraph
    task = group.process_group.all_reduce(tensor, op_type, sync_op)
RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT self_rank = {rank} pair_rank = {failing} peer_str = [127.0.0.1]:{PORT}
"""


def write_worker_log(path: Path, rank: int, size: int, failing: int = FAILING_RANK) -> None:
    maker = LineMaker(rank, seed=1000 + rank)
    if rank == failing:
        tail = oom_tail(rank)
        body_end = size - min(RANK5_SHORT_BYTES, size // 4)
    else:
        tail = gloo_tail(rank, failing)
        body_end = size - TAIL_RESERVE
    written = 0
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n", buffering=1 << 20) as f:
        head = maker.start()
        f.write(head)
        written += len(head)
        while written < body_end:
            chunk = maker.block(min(4 << 20, body_end - written))
            f.write(chunk)
            written += len(chunk)  # ASCII only: characters == bytes
        f.write(tail)
    tmp.replace(path)


def manifest_ok(scratch: Path, size_mb: int, world: int = WORLD) -> bool:
    try:
        man = json.loads((scratch / "manifest.json").read_text())
    except (OSError, ValueError):
        return False
    if man.get("gen_version") != GEN_VERSION or man.get("size_mb") != size_mb or man.get("world", WORLD) != world:
        return False
    files = man.get("files", {})
    for rank in range(world):
        p = scratch / "log" / f"workerlog.{rank}"
        if not p.is_file() or p.stat().st_size != files.get(p.name):
            return False
    return True


def generate(scratch: Path, size_mb: float, world: int = WORLD, failing: int = FAILING_RANK) -> tuple[Path, bool]:
    logdir = scratch / "log"
    if manifest_ok(scratch, size_mb, world):
        return logdir, False
    if logdir.exists():
        shutil.rmtree(logdir)
    (scratch / "manifest.json").unlink(missing_ok=True)
    logdir.mkdir(parents=True)
    size = int(size_mb * (1 << 20))
    for rank in range(world):
        t0 = time.perf_counter()
        write_worker_log(logdir / f"workerlog.{rank}", rank, size, failing)
        if world <= 16 or rank % 128 == 0:
            print(f"  generated workerlog.{rank} ({(logdir / f'workerlog.{rank}').stat().st_size / 2**20:.2f} MiB, "
                  f"{time.perf_counter() - t0:.1f} s)", flush=True)
    files = {p.name: p.stat().st_size for p in sorted(logdir.iterdir())}
    (scratch / "manifest.json").write_text(json.dumps(
        {"gen_version": GEN_VERSION, "size_mb": size_mb, "world": world, "files": files}, indent=1))
    return logdir, True


# ----------------------------------------------------------------------------------------------
# Measurement
# ----------------------------------------------------------------------------------------------

def warm(files: list[Path]) -> float:
    t0 = time.perf_counter()
    buf = bytearray(8 << 20)
    for p in files:
        with open(p, "rb", buffering=0) as f:
            while f.readinto(buf):
                pass
    return time.perf_counter() - t0


def bytecode_env(scratch: Path) -> dict[str, str]:
    """diagnose's environment with its bytecode cached in ``scratch`` (written on the first run and
    read after it), whatever PYTHONDONTWRITEBYTECODE says; the repo's folders get no __pycache__."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
    return env


def timed(cmd: list[str], env: dict | None = None) -> tuple[float, int, int, bytes, bytes]:
    """Run ``cmd``; (wall s, peak RSS KiB of that child from wait4, return code, stdout, stderr)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    # communicate() would reap the child with waitpid and lose its rusage: drain the pipes in
    # threads and reap with os.wait4 ourselves.
    chunks: dict[str, list[bytes]] = {"out": [], "err": []}

    def drain(stream, key):
        for piece in iter(lambda: stream.read(1 << 16), b""):
            chunks[key].append(piece)

    threads = [threading.Thread(target=drain, args=(proc.stdout, "out")),
               threading.Thread(target=drain, args=(proc.stderr, "err"))]
    for t in threads:
        t.start()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    for t in threads:
        t.join()
    proc.returncode = os.waitstatus_to_exitcode(status)  # stop Popen from waiting again
    return wall, usage.ru_maxrss, proc.returncode, b"".join(chunks["out"]), b"".join(chunks["err"])


def check_json(stdout: bytes, failing: int = FAILING_RANK) -> tuple[bool, str]:
    try:
        data = json.loads(stdout)
    except ValueError as exc:
        return False, f"not JSON ({exc}): {stdout[:200]!r}"
    root = data.get("root_cause") or {}
    cat, rank = root.get("category"), root.get("rank")
    ok = cat == "gpu_oom" and rank == failing
    return ok, f"root_cause.category={cat!r} rank={rank!r}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default="/tmp/paddle-doctor-bench", help="scratch dir (outside the repo)")
    ap.add_argument("--size-mb", type=int, default=128, help="MiB per worker log (default 128)")
    ap.add_argument("--reps", type=int, default=3, help="repetitions of each command (default 3)")
    ap.add_argument("--json", dest="json_out", help="write the figures to this JSON file")
    ap.add_argument("--scale", action="store_true",
                    help="1024 worker logs of 512 KiB (rank 777 OOM, 1023 gloo victims), compared with "
                         "grep -c -F -e Traceback -e Error -r; goal ratio <= 5, RSS <= 200 MB, report <= 60 lines")
    ap.add_argument("--no-db-cache", dest="db_cache", action="store_false",
                    help="compile Hyperscan's trigger database on every run (PADDLE_DOCTOR_NO_CACHE=1)")
    ap.add_argument("--no-bytecode-cache", dest="bytecode_cache", action="store_false",
                    help="time diagnose in the environment as given (with PYTHONDONTWRITEBYTECODE set, every "
                         "module is compiled again on each run)")
    args = ap.parse_args()
    world, failing, goal = (1024, 777, 5) if args.scale else (WORLD, FAILING_RANK, 4)
    if args.scale:
        args.size_mb = 0.5
        if args.dir == "/tmp/paddle-doctor-bench":
            args.dir = "/tmp/paddle-doctor-bench-scale"

    from paddle_doctor.diagnose.read.literals.triggers import TRIGGERS

    scratch = Path(args.dir).resolve()
    repo = Path(__file__).resolve().parents[1]
    if scratch == repo or repo in scratch.parents:
        ap.error(f"--dir must be outside the repo ({repo})")
    scratch.mkdir(parents=True, exist_ok=True)

    print(f"logs: {scratch / 'log'} ({world} x {args.size_mb} MiB)", flush=True)
    t0 = time.perf_counter()
    logdir, fresh = generate(scratch, args.size_mb, world, failing)
    print(f"  {'generated' if fresh else 'reused'} in {time.perf_counter() - t0:.1f} s", flush=True)
    files = [logdir / f"workerlog.{r}" for r in range(world)]
    total_mb = sum(p.stat().st_size for p in files) / 2**20

    markers = scratch / "markers.txt"
    markers.write_text("".join(t + "\n" for t in TRIGGERS), encoding="utf-8")

    cli = find_cli()
    diag_cmd = cli + ["diagnose", "--format", "json", str(logdir)]
    grep_cmd = ["grep", "-c", "-F", "-f", str(markers)] + [str(p) for p in files]
    if args.scale:  # the baseline: two literals, recursive over the dir
        grep_cmd = ["grep", "-c", "-F", "-e", "Traceback", "-e", "Error", "-r", str(logdir)]
    grep_env = dict(os.environ, LC_ALL="C")

    print(f"warming the page cache: {total_mb:.0f} MiB read in {warm(files):.1f} s", flush=True)
    diag_env = bytecode_env(scratch) if args.bytecode_cache else dict(os.environ)
    bytecode = (f"cached in {diag_env['PYTHONPYCACHEPREFIX']} (warmed by one untimed run)" if args.bytecode_cache else
                f"as the environment gives it (PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE')})")
    diag_env["XDG_CACHE_HOME"] = str(scratch / "cache")
    if args.db_cache:
        diag_env.pop("PADDLE_DOCTOR_NO_CACHE", None)
    else:
        diag_env["PADDLE_DOCTOR_NO_CACHE"] = "1"
    timed(diag_cmd, diag_env)
    print(f"bytecode: {bytecode}", flush=True)
    print("trigger database: " + (f"cached in {scratch / 'cache'} (written by the untimed run)" if args.db_cache
                                  else "compiled on every run (--no-db-cache)"), flush=True)
    print(f"diagnose: {' '.join(diag_cmd)}")
    print(f"grep:     LC_ALL=C {' '.join(grep_cmd[:9])} ...")

    d_wall, d_rss, g_wall, ratios, checks = [], [], [], [], []
    grep_counts = ""
    failures: list[str] = []
    for rep in range(args.reps):
        order = ("diagnose", "grep") if rep % 2 == 0 else ("grep", "diagnose")
        for which in order:
            if which == "diagnose":
                wall, rss, rc, out, err = timed(diag_cmd, diag_env)
                d_wall.append(wall)
                d_rss.append(rss / 1024)
                ok, what = check_json(out, failing) if rc == 0 else (False, f"exit {rc}: {err.decode(errors='replace').strip()[-300:]}")
                checks.append(what)
                if not ok:
                    failures.append(f"rep {rep + 1}: {what}")
            else:
                wall, _rss, rc, out, err = timed(grep_cmd, grep_env)
                g_wall.append(wall)
                if rc not in (0, 1):
                    failures.append(f"rep {rep + 1}: grep exit {rc}: {err.decode(errors='replace')[-300:]}")
                grep_counts = out.decode().strip().replace("\n", ", ")
                if args.scale:
                    grep_counts = f"{len(out.splitlines())} files counted"
        ratios.append(d_wall[-1] / g_wall[-1])
        print(f"  rep {rep + 1} ({order[0]} first): diagnose {d_wall[-1]:.2f} s, {d_rss[-1]:.0f} MB; "
              f"grep {g_wall[-1]:.2f} s; ratio {ratios[-1]:.2f}; {checks[-1]}", flush=True)

    res = {
        "date": dt.date.today().isoformat(),
        "machine": machine(),
        "logs": {"dir": str(logdir), "files": world, "size_mb_each": args.size_mb, "total_mib": round(total_mb, 1)},
        "reps": args.reps,
        "diagnose_cmd": " ".join(diag_cmd),
        "bytecode": bytecode,
        "grep_cmd": "LC_ALL=C " + " ".join(grep_cmd),
        "diagnose_wall_s": [round(x, 3) for x in d_wall],
        "grep_wall_s": [round(x, 3) for x in g_wall],
        "diagnose_peak_rss_mb": [round(x, 1) for x in d_rss],
        "median_diagnose_wall_s": round(statistics.median(d_wall), 3),
        "median_grep_wall_s": round(statistics.median(g_wall), 3),
        "median_ratio_paired": round(statistics.median(ratios), 2),
        "ratio_of_medians": round(statistics.median(d_wall) / statistics.median(g_wall), 2),
        "median_diagnose_peak_rss_mb": round(statistics.median(d_rss), 1),
        "max_diagnose_peak_rss_mb": round(max(d_rss), 1),
        "diagnose_throughput_mib_s": round(total_mb / statistics.median(d_wall), 1),
        "grep_throughput_mib_s": round(total_mb / statistics.median(g_wall), 1),
        "grep_match_counts": grep_counts,
        "check": checks[-1] if checks else "",
        "check_passed": not failures,
        "rss_method": "os.wait4(pid) ru_maxrss of the diagnose child (what /usr/bin/time -f %M reports)",
    }
    ratio_goal = res["median_ratio_paired"] <= goal
    res["ratio_goal"] = goal
    if args.scale:  # the text report a user reads: how long it is, and that it names the rank
        text = subprocess.run(cli + ["diagnose", str(logdir)], capture_output=True, text=True, check=False,
                              env=diag_env).stdout
        res["report_lines"] = len(text.splitlines())
        res["report_first_line"] = text.splitlines()[0] if text else ""
        res["goal_report_met"] = res["report_lines"] <= 60 and f"rank {failing}" in res["report_first_line"]
        print(f"text report: {res['report_lines']} lines (goal <= 60); first: {res['report_first_line']}")
        if not res["goal_report_met"]:
            failures.append("report too long or not naming the rank")
    rss_goal = res["max_diagnose_peak_rss_mb"] <= 200
    res["goal_ratio_met"], res["goal_rss_met"] = ratio_goal, rss_goal

    print()
    print(f"diagnose wall (median of {args.reps}):  {res['median_diagnose_wall_s']:.2f} s "
          f"({res['diagnose_throughput_mib_s']:.0f} MiB/s)")
    print(f"grep wall (median of {args.reps}):      {res['median_grep_wall_s']:.2f} s "
          f"({res['grep_throughput_mib_s']:.0f} MiB/s)")
    print(f"ratio diagnose/grep:          {res['median_ratio_paired']:.2f} (median of paired ratios; "
          f"ratio of medians {res['ratio_of_medians']:.2f}) goal <= {goal}: {'met' if ratio_goal else 'MISSED'}")
    print(f"diagnose peak RSS:            {res['median_diagnose_peak_rss_mb']:.0f} MB median, "
          f"{res['max_diagnose_peak_rss_mb']:.0f} MB max; goal <= 200: {'met' if rss_goal else 'MISSED'}")
    print(f"grep matching lines per file: {grep_counts}")
    print(f"machine: {res['machine']}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(res, indent=2) + "\n")
        print(f"figures written to {args.json_out}")
    if failures:
        print(f"\nFAILED: diagnose did not name gpu_oom on rank {failing}:", file=sys.stderr)
        for f in failures:
            print(f"  {f}", file=sys.stderr)
        return 1
    print(f"check: {checks[-1]} (ok)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
