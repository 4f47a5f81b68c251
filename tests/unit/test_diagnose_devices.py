"""Launcher device facts against each other and against the error. Lines are built from the
templates in the launchers' sources (pp 2.4.2 fleet/launch.py, fleet/launch_utils.py get_gpus,
launch/plugins/__init__.py, launch/context/device.py) and CUDA's error strings."""

from paddle_doctor.diagnose import diagnose_paths

FLAGS_BANNER = "FLAGS(name='FLAGS_selected_gpus', current_value='{gpu}', default_value='')"  # pp 3.x
NCCL_FAILURE = ("OSError: (External) NCCL error(5), invalid usage (run with NCCL_DEBUG=WARN for details). "
                "(at /paddle/paddle/fluid/distributed/collective/process_group_nccl.cc:112)")
ORDINAL = "OSError: (External) CUDA error(101), invalid device ordinal. [Hint: 'cudaErrorInvalidDevice'.]"


def _terminal(tmp_path, text):
    f = tmp_path / "terminal.log"
    f.write_text(text)
    return diagnose_paths([str(f)]).root_cause


def test_gpus_not_in_cuda_visible_devices_with_invalid_ordinal(tmp_path):
    rc = _terminal(tmp_path, "export CUDA_VISIBLE_DEVICES=0,1\n"
                             "python -m paddle.distributed.launch --gpus 0,1,2,3 train.py\n"
                             "Traceback (most recent call last):\n" + ORDINAL + "\n")
    assert rc.cause == "cuda_visible_devices_misconfig"  # the error's own cause is kept
    dev = rc.fact("launch_devices")
    assert dev["requested"] == ["0", "1", "2", "3"] and dev["requested_by"] == "--gpus"
    assert dev["visible"] == ["0", "1"] and dev["visible_from"] == "CUDA_VISIBLE_DEVICES"
    assert "asks for GPU 2, 3" in rc.why and "2 GPU(s) are visible" in rc.why
    assert any("--gpus 0,1,2,3" in e.text for e in rc.evidence)


def test_fleet_assertion_reads_its_own_facts(tmp_path):
    rc = _terminal(tmp_path, "-----------  Configuration Arguments -----------\ngpus: 2\nips: 127.0.0.1\n"
                             "Traceback (most recent call last):\n"
                             "AssertionError: Can't find your gpus 2 in CUDA_VISIBLE_DEVICES[0,1].\n")
    assert rc.cause == "device_not_found" and rc.code == "fleet_gpus_not_visible"
    dev = rc.fact("launch_devices")
    assert dev["requested"] == ["2"] and dev["visible"] == ["0", "1"]
    assert "asks for GPU 2" in rc.why


def test_new_launcher_device_not_found(tmp_path):
    rc = _terminal(tmp_path, "LAUNCH INFO 2024-10-23 18:26:56,088 devices: 1\n"
                             "LAUNCH ERROR 2024-10-23 18:26:56,091 Device not found 1 from 1 for setting ['0']\n")
    assert rc.cause == "device_not_found"
    dev = rc.fact("launch_devices")
    assert dev["requested"] == ["1"] and dev["visible"] == ["0"]


def test_the_same_gpu_twice_explains_a_generic_nccl_error(tmp_path):
    rc = _terminal(tmp_path, "python -m paddle.distributed.launch --gpus=0,0 train.py\n"
                             "Traceback (most recent call last):\n" + NCCL_FAILURE + "\n")
    assert rc.cause == "cuda_visible_devices_misconfig" and rc.confidence.value == "medium"
    assert rc.alternatives[0].cause == "nccl_error"
    assert "names GPU 0 more than once" in rc.why
    assert any("NCCL error(5)" in e.text for e in rc.evidence)
    assert any("--gpus=0,0" in e.text for e in rc.evidence)


def test_two_ranks_of_one_node_with_one_flags_selected_gpus(tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    for rank in (0, 1):
        (log / f"workerlog.{rank}").write_text(FLAGS_BANNER.format(gpu=0) + "\nTraceback (most recent call last):\n"
                                               + NCCL_FAILURE + "\n")
    rc = diagnose_paths([str(log)]).root_cause
    assert rc.cause == "cuda_visible_devices_misconfig"
    assert rc.fact("launch_devices")["selected_gpus_by_rank"] == {"0": "0", "1": "0"}
    assert "ranks 0, 1 all have FLAGS_selected_gpus=0" in rc.why


def test_envlog_selected_gpus_per_rank(tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    for rank in (0, 1):
        (log / f"envlog.{rank}").write_text(f"PADDLE_GLOBAL_RANK={rank}\nFLAGS_selected_gpus=0\n")
        (log / f"workerlog.{rank}").write_text("Traceback (most recent call last):\n" + NCCL_FAILURE + "\n")
    rc = diagnose_paths([str(log)]).root_cause
    assert rc.cause == "cuda_visible_devices_misconfig"


def test_own_gpu_per_rank_and_on_two_nodes_is_fine(tmp_path):
    for node in ("a", "b"):
        log = tmp_path / node / "log"
        log.mkdir(parents=True)
        for local in (0, 1):
            (log / f"workerlog.{local}").write_text(FLAGS_BANNER.format(gpu=local) + "\n"
                                                    "Traceback (most recent call last):\n" + NCCL_FAILURE + "\n")
    rc = diagnose_paths([str(tmp_path / "a" / "log"), str(tmp_path / "b" / "log")]).root_cause
    assert rc.cause == "nccl_error"
    assert rc.fact("launch_devices") is None


def test_consistent_facts_leave_a_specific_cause_alone(tmp_path):
    rc = _terminal(tmp_path, "export CUDA_VISIBLE_DEVICES=2,3\n"
                             "python -m paddle.distributed.launch --devices 2,3 train.py\n"
                             "Traceback (most recent call last):\n"
                             "ValueError: bad config key\n")
    assert rc.cause == "python_exception"
    assert rc.fact("launch_devices") is None


def test_local_ip_not_in_ips(tmp_path):
    rc = _terminal(tmp_path, "Traceback (most recent call last):\n"
                             "AssertionError: Can't find your local ip {127.0.1.1} in node_ips: {['10.0.0.1', '10.0.0.2']}\n")
    assert rc.cause == "wrong_host_ip"
    rc = _terminal(tmp_path, "Traceback (most recent call last):\n"
                             "AssertionError: Can't find your local ip {10.0.0.3} in node_ips: {['10.0.0.1', '10.0.0.2']}\n")
    assert rc.cause == "config_error"
