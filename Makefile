# Two commands do all the set-up on a fresh machine: `make test` and `make demo`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test demo unit integration bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider

unit: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider tests/unit

integration: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider tests/integration

demo: $(STAMP)
	$(VENV)/bin/paddle-doctor demo

bench: $(STAMP)
	$(PY) bench/bench_diagnose.py

clean:
	rm -rf $(VENV) build dist .pytest_cache
