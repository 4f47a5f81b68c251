"""What start-up leaves undone until it is needed (bench/bench_startup.py has the times): a small
log is scanned without importing Hyperscan, ``explain`` compiles no signature regex, and one
catalog entry parsed alone is the entry the whole file gives."""

from __future__ import annotations

import subprocess
import sys

from paddle_doctor import catalog

PROBE = """
import sys
from paddle_doctor.diagnose.paths import diagnose_paths
from paddle_doctor.diagnose.signatures import SIGNATURES
d = diagnose_paths([sys.argv[1]])
print(d.root_cause.cause, "hyperscan" in sys.modules,
      sum("search" in vars(s.pattern) for s in SIGNATURES), len(SIGNATURES))
"""

EXPLAIN = """
import sys
from paddle_doctor.cli.main import main
main(["explain", "gpu_oom"])
from paddle_doctor.diagnose.signatures import SIGNATURES
print("COMPILED", sum("search" in vars(s.pattern) for s in SIGNATURES))
"""


def test_a_small_log_needs_no_hyperscan_and_few_regexes(tmp_path):
    log = tmp_path / "train.log"
    log.write_text('Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n'
                   "KeyError: 'image'\n")
    out = subprocess.run([sys.executable, "-c", PROBE, str(log)], capture_output=True, text=True, check=True)
    cause, hyperscan_loaded, compiled, total = out.stdout.split()
    assert cause == "python_exception"
    assert hyperscan_loaded == "False"
    assert int(compiled) < int(total) // 4  # only signatures whose literals the three lines hold


WHOLE_CATALOG = """
import sys
from paddle_doctor import catalog
from paddle_doctor.diagnose.paths import diagnose_paths
d = diagnose_paths([sys.argv[1]])
print(d.root_cause.cause, catalog.all_causes.cache_info().currsize)
"""


def test_diagnose_reads_the_cause_relations_without_parsing_the_whole_catalog(tmp_path):
    # the relations (generic, explains, symptom) are asked per line: one table each, not the ~8 ms file
    log = tmp_path / "workerlog.0"
    log.write_text("W1205 10:00:00.000000  1 gpu_resources.cc:61] WARNING: device: 0. The installed Paddle is "
                   "compiled with CUDNN 8.1, but CUDNN version in your machine is 7.6, which may cause serious "
                   "incompatible bug. Please recompile or reinstall Paddle with compatible CUDNN version.\n"
                   "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
                   "OSError: (External) CUDNN error(1), CUDNN_STATUS_NOT_INITIALIZED.\n")
    out = subprocess.run([sys.executable, "-c", WHOLE_CATALOG, str(log)], capture_output=True, text=True, check=True)
    cause, whole_parsed = out.stdout.split()
    assert cause == "cuda_cudnn_mismatch"  # the warning explains the generic error: the relation was read
    assert whole_parsed == "0"


def test_explain_compiles_no_signature():
    out = subprocess.run([sys.executable, "-c", EXPLAIN], capture_output=True, text=True, check=True)
    assert "gpu_oom" in out.stdout
    assert out.stdout.strip().endswith("COMPILED 0")


def test_each_catalog_entry_parsed_alone_is_the_whole_file_entry():
    whole = {cause.id: cause for cause in catalog.all_causes()}
    assert len(whole) > 40
    for cause_id, cause in whole.items():
        alone = catalog._one_cause(cause_id)
        assert alone == cause and type(alone.id) is str
    assert catalog._one_cause("no_such_cause") is None
