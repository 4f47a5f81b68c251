"""The guards' small parts: clean_env, what `run` puts in the environment, the bounded store, the
trace wrapper, pre-flight's comparison table. No paddle, no processes."""

import threading
import time
from types import SimpleNamespace

import pytest

from paddle_doctor import clean_env
from paddle_doctor.process import launchenv
from paddle_doctor.runtime.channel import rankenv
from paddle_doctor.runtime.guards import preflight, trace
from paddle_doctor.runtime.channel.bounded import Worker
from paddle_doctor.errors import PreflightError, StoreTimeoutError
from paddle_doctor.runtime.guards.guardstate import STATE
from paddle_doctor.runtime.guards.heartbeat import endpoints
from paddle_doctor.runtime.channel.store import StoreClient, store_endpoint


def test_clean_env_removes_launcher_leftovers_only():
    env = {"PADDLE_TRAINER_ID": "1", "PADDLE_TRAINERS_NUM": "2", "PADDLE_TRAINER_ENDPOINTS": "a:1,b:2",
           "PADDLE_CURRENT_ENDPOINT": "a:1", "FLAGS_selected_gpus": "3", "MASTER_ADDR": "h", "PADDLE_PG_TIMEOUT": "5",
           "FLAGS_use_mkldnn": "1", "CUDA_VISIBLE_DEVICES": "0", "HOME": "/root"}
    removed = clean_env(env, keep=("MASTER_ADDR",))
    assert sorted(removed) == ["FLAGS_selected_gpus", "PADDLE_CURRENT_ENDPOINT", "PADDLE_TRAINERS_NUM",
                               "PADDLE_TRAINER_ENDPOINTS", "PADDLE_TRAINER_ID"]
    assert sorted(env) == ["CUDA_VISIBLE_DEVICES", "FLAGS_use_mkldnn", "HOME", "MASTER_ADDR", "PADDLE_PG_TIMEOUT"]


def test_run_plan_for_a_launch(tmp_path):
    cmd = ["python", "-m", "paddle.distributed.launch", "--nproc_per_node", "2", "--log_dir", "out/logs", "e.py"]
    plan = launchenv.plan_run(cmd, trace=True, watchdog_timeout=4, environ={"PYTHONPATH": "/mine"}, cwd=tmp_path)
    assert plan.launcher and plan.log_dir == tmp_path / "out" / "logs"
    assert plan.env["PADDLE_DOCTOR_GUARDS"] == "record,watchdog,trace"
    assert plan.env["PYTHONPATH"].split(":") == [str(launchenv.SITE_DIR), "/mine"]
    assert plan.env["PADDLE_DOCTOR_LOG_DIR"] == str(tmp_path / "out" / "logs")
    assert plan.env["PADDLE_DOCTOR_WATCHDOG_TIMEOUT"] == "4" and "PADDLE_DOCTOR_SINGLE" not in plan.env
    assert (launchenv.SITE_DIR / "sitecustomize.py").is_file()
    assert [p.name for p in launchenv.SITE_DIR.iterdir() if p.suffix == ".py"] == ["sitecustomize.py"]


def test_run_plan_for_one_process(tmp_path):
    plan = launchenv.plan_run(["python", "e.py"], check=True, single=True, debug_logs=True, watchdog=False,
                              environ={"PADDLE_TRAINER_ID": "1", "GLOG_v": "2"}, cwd=tmp_path)
    assert not plan.launcher and plan.removed == {"PADDLE_TRAINER_ID": "1"}
    assert plan.log_dir == tmp_path / "log" and plan.env["PADDLE_DOCTOR_SINGLE"] == "1"
    assert plan.env["PADDLE_DOCTOR_GUARDS"] == "record,trace,check"
    assert (plan.env["GLOG_v"], plan.env["NCCL_DEBUG"]) == ("2", "INFO")  # the user's value wins
    assert launchenv.launcher_log_dir(["x", "--log_dir=a/b"]) == "a/b"
    assert launchenv.is_launcher(["/usr/bin/fleetrun", "e.py"])


def test_shell_codes():
    assert [launchenv.shell_code(c) for c in (0, 1, 86, -9, -15)] == [0, 1, 86, 137, 143]


def test_rank_info_from_the_new_and_old_launchers(tmp_path):
    new = rankenv.current({"PADDLE_GLOBAL_RANK": "3", "PADDLE_LOCAL_RANK": "1", "PADDLE_GLOBAL_SIZE": "4",
                           "PADDLE_LOG_DIR": str(tmp_path), "PADDLE_MASTER": "10.0.0.1:6170"})
    assert (new.rank, new.local_rank, new.world_size, new.run_id) == (3, 1, 4, "10.0.0.1:6170")
    assert new.record_path() == tmp_path / "paddle_doctor_error.3.json"
    old = rankenv.current({"PADDLE_TRAINER_ID": "1", "PADDLE_TRAINERS_NUM": "2", "PADDLE_DOCTOR_LOG_DIR": "x"})
    assert (old.rank, old.world_size, old.log_dir.name) == (1, 2, "x")
    assert rankenv.current({}).record_path().name == "paddle_doctor_error.main.json"
    assert endpoints({"PADDLE_TRAINER_ENDPOINTS": "10.0.0.1:6170, 10.0.0.2:6171"}) == [("10.0.0.1", 6170),
                                                                                      ("10.0.0.2", 6171)]
    assert store_endpoint({"PADDLE_MASTER": "10.0.0.1:6170"}) == ("10.0.0.1", 6170)
    assert store_endpoint({"MASTER_ADDR": "h", "MASTER_PORT": "1", "PADDLE_MASTER": "x:2"}) == ("h", 1)


class FakeStore:
    """Paddle's TCPStore as measured: get blocks on a missing key, add(key, 0) reads."""

    def __init__(self):
        self.data, self.frozen = {}, threading.Event()

    def set(self, key, value):
        self.data[key] = value.encode()

    def get(self, key):
        while key not in self.data:
            time.sleep(0.01)
        return self.data[key]

    def add(self, key, n):
        if self.frozen.is_set():
            time.sleep(60)  # rank 0, which hosts the store, is stopped
        self.data[key] = int(self.data.get(key, 0)) + n
        return self.data[key]


def test_the_store_client_never_blocks_past_its_deadline_and_then_fails_at_once():
    """Bounds that hold under the parallel suite: the call that waits gives up after its 1 s, not
    later than 3 s; the next one does not wait at all (under half its 1 s)."""
    fake = FakeStore()
    store = StoreClient(fake, call_timeout=1.0)
    store.publish("plan/0", "hello")
    assert store.ready("plan/0") and store.read("plan/0") == "hello"
    assert not store.ready("plan/1")
    assert store.wait_counter("n", lambda v: v >= 2, timeout=0.2) == 0
    fake.frozen.set()
    start = time.monotonic()
    with pytest.raises(StoreTimeoutError, match="is rank 0, which hosts it, alive"):
        store.add("n", 1)
    assert 1.0 <= time.monotonic() - start < 3.0
    start = time.monotonic()  # its request is still on the socket: the client is broken for good
    with pytest.raises(StoreTimeoutError, match=r"did not answer add\('n'\)"):
        store.ready("plan/0")
    assert time.monotonic() - start < 0.5


def test_worker_runs_calls_in_order_and_survives_a_stuck_one():
    w = Worker("test")
    assert w.call(lambda a, b: a + b, 1, 2, timeout=1) == 3
    with pytest.raises(TimeoutError):
        w.call(time.sleep, 5, timeout=0.1)
    assert w.call(lambda: "next", timeout=1) == "next"  # a fresh thread took over
    with pytest.raises(KeyError):
        w.call({}.__getitem__, "x", timeout=1)


class T:
    def __init__(self, *shape, dtype="paddle.float32"):
        self.shape, self.dtype = list(shape), dtype


def test_trace_records_op_seq_shapes_args_and_call_site():
    calls = []

    def all_reduce(tensor, op=0, group=None, sync_op=True):
        calls.append(tensor)

    def all_gather_object(object_list, obj, group=None):
        inner(object_list, T(1))  # an inner collective is not traced twice

    inner = trace._wrap("all_gather", lambda tensor_list, tensor, group=None, sync_op=True: None,
                        trace.SPECS["all_gather"])
    wrapped = trace._wrap("all_reduce", all_reduce, trace.SPECS["all_reduce"])
    wrapped_obj = trace._wrap("all_gather_object", all_gather_object, trace.SPECS["all_gather_object"])
    before = len(trace.TRACER.ring)
    trace.TRACER.on = True
    try:
        wrapped(T(4, 2), op=1)
        wrapped_obj([], {"a": 1})
        inner([], T(3))
    finally:
        trace.TRACER.on = False
    entries = list(trace.TRACER.ring)[before:]
    assert [e.op for e in entries] == ["all_reduce", "all_gather_object", "all_gather"]
    first = entries[0]
    assert (first.shapes, first.dtypes, first.args) == ([[4, 2]], ["float32"], {"op": 1})
    assert first.site.endswith("test_guards_parts.py:" + str(first.site.rsplit(":", 1)[1])) and first.n == 1
    assert entries[1].seq == first.seq + 1 and STATE.current is None and STATE.last is entries[-1]
    assert trace.describe(first.fingerprint()).startswith(f"all_reduce #{first.seq} [4, 2] float32 op=1 at ")


def test_preflight_names_the_ranks_and_items_that_differ():
    same = {"dataset_len": 10, "params_checksum": "aaa", "batch_size": 4}
    plans = {0: {"plan": same, "local": {"rank": 0}}, 1: {"plan": dict(same, params_checksum="bbb"), "local": {"rank": 1}},
             2: {"plan": same, "local": {"rank": 2}}}
    err = preflight.mismatch_error(plans)
    assert isinstance(err, PreflightError)
    f = err.finding
    assert (f.code, f.cause, f.ranks) == ("preflight", "config_error", (1,)) and err.cause == "config_error"
    assert f.message == "ranks disagree on params_checksum (rank 1 differs from the others)"
    lines = str(err).splitlines()
    assert lines[1].split() == ["item", "rank", "0", "rank", "1", "rank", "2"]
    assert lines[2].split() == ["params_checksum", "aaa", "bbb", "aaa"]
    assert lines[3].split() == ["rank", "(local)", "0", "1", "2"]


def exchange_on_threads(monkeypatch, plans, timeout=5.0):
    """Run preflight's store exchange for len(plans) ranks on threads sharing one fake store."""
    fake, lock = FakeStore(), threading.Lock()
    plain_add = fake.add

    def add(key, n):
        with lock:
            return plain_add(key, n)

    fake.add = add
    monkeypatch.setattr(preflight.StoreClient, "shared", classmethod(lambda cls, world: StoreClient(fake)))
    results = [None] * len(plans)

    def run(rank):
        me = SimpleNamespace(rank=rank, world_size=len(plans))
        try:
            results[rank] = preflight._exchange(me, plans[rank], {"rank": rank}, "k", timeout)
        except PreflightError as exc:
            results[rank] = exc

    threads = [threading.Thread(target=run, args=(r,)) for r in range(len(plans)) if plans[r] is not None]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    return results


def test_preflight_exchange_passes_equal_plans_and_names_a_differing_or_missing_rank(monkeypatch):
    same = {"dataset_len": 10, "batch_size": 4}
    assert exchange_on_threads(monkeypatch, [same, same, same]) == [None, None, None]
    differ = exchange_on_threads(monkeypatch, [same, same, dict(same, batch_size=8)])
    assert all(isinstance(e, PreflightError) and e.finding.ranks == (2,) for e in differ)
    missing = exchange_on_threads(monkeypatch, [same, None, same], timeout=0.3)
    assert [str(missing[r]).split(" did ")[0] for r in (0, 2)] == ["preflight: rank(s) 1"] * 2


def test_plan_of_a_dataset_and_a_loader():
    data = [(i, [i, i + 1]) for i in range(5)]
    plan = preflight.dataset_plan(data)
    assert plan["dataset_len"] == 5 and len(plan["dataset_checksum"]) == 12
    assert preflight.dataset_plan(data[:4])["dataset_checksum"] != plan["dataset_checksum"]
    loader = SimpleNamespace(batch_size=None, __len__=None,
                             batch_sampler=SimpleNamespace(batch_size=4, shuffle=False, drop_last=True, nranks=2))
    assert preflight.loader_plan(loader) == {"batch_size": 4, "sampler": {"type": "SimpleNamespace", "shuffle": False,
                                                                         "drop_last": True, "nranks": 2}}
    assert preflight.preflight({"x": 1}, dataset=data) == {"x": 1, **plan, **preflight.build_plan()}


def test_run_and_the_guards_import_without_paddle():
    import subprocess
    import sys

    code = ("import sys, paddle_doctor.cli.run, paddle_doctor.runtime.launch.bootstrap, paddle_doctor.runtime.guards.preflight, "
            "paddle_doctor.diagnose.records; assert 'paddle' not in sys.modules; print('OK')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "OK", proc.stderr


def test_clean_env_removes_parameter_server_gloo_and_auto_parallel_leftovers():
    env = {"PADDLE_PSERVERS_IP_PORT_LIST": "10.0.0.1:6170", "PADDLE_ROLE": "PSERVER", "PADDLE_GLOO_RENDEZVOUS": "3",
           "PADDLE_AUTO_PARALLEL_CONFIG": "x", "PADDLE_PSERVER_NUMS": "2", "PADDLE_HOME": "/data"}
    removed = clean_env(env)
    assert sorted(removed) == ["PADDLE_AUTO_PARALLEL_CONFIG", "PADDLE_GLOO_RENDEZVOUS", "PADDLE_PSERVERS_IP_PORT_LIST",
                               "PADDLE_PSERVER_NUMS", "PADDLE_ROLE"]
    assert env == {"PADDLE_HOME": "/data"}
