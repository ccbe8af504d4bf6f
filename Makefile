PYTHON ?= python3
VENV := .venv
VENV_PY := $(VENV)/bin/python

.PHONY: install test conformance clean

$(VENV)/.installed: pyproject.toml constraints.txt
	test -x $(VENV_PY) || $(PYTHON) -m venv $(VENV)
	$(VENV_PY) -m pip install --quiet --upgrade pip
	$(VENV_PY) -m pip install -c constraints.txt -e .
	touch $@

install: $(VENV)/.installed

test: install
	$(VENV_PY) -m pytest -n auto -q

conformance: install
	$(VENV)/bin/mqconf run --adapter reference

clean:
	rm -rf $(VENV)
	if [ -d reports ]; then find reports -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +; fi
