# Two commands do all the set-up on a fresh machine: `make test` and `make demo`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# The suite runs in parallel (pytest-xdist): most of a real launch is waiting (gloo timeouts, the
# watchdog's deadline, Paddle's import). Which tests share a worker: tests/conftest.py (XDIST_GROUPS);
# the scheduler for --dist loadgroup: tests/suite_schedule.py. No test needs the machine to itself:
# a wall-clock bound in a test holds under the parallel suite's load (timings belong in bench/).
JOBS ?= 4
# Python's default: cache bytecode (__pycache__/, git-ignored). A machine-wide PYTHONDONTWRITEBYTECODE
# (this one has it) makes each of the suite's ~500 processes compile paddle_doctor again (0.1 s of a
# CLI call's 0.22 s) and each xdist worker redo pytest's assertion rewriting.
unexport PYTHONDONTWRITEBYTECODE
# A wall-clock cap on the whole run: a crashed xdist worker can leave the scheduler waiting forever
# (seen once: an OOM-killed worker's replacement was never given work); `timeout` then ends pytest's
# process group and the run fails (exit 124) instead of hanging until CI's own limit.
SUITE_LIMIT ?= 25m
PYTEST := timeout -k 30s $(SUITE_LIMIT) $(PY) -m pytest -q -p no:cacheprovider
PARALLEL := -n $(JOBS) --dist loadgroup

.PHONY: test demo unit integration bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(PYTEST) $(PARALLEL)

unit: $(STAMP)
	$(PYTEST) $(PARALLEL) tests/unit

integration: $(STAMP)
	$(PYTEST) $(PARALLEL) tests/integration

demo: $(STAMP)
	$(VENV)/bin/paddle-doctor demo

bench: $(STAMP)
	$(PY) bench/bench_diagnose.py

clean:
	rm -rf $(VENV) build dist .pytest_cache
