PYTHON ?= python3
VENV := .venv
VENV_PY := $(VENV)/bin/python
ALLURE := $(VENV)/allure/node_modules/.bin/allure
# The suite starts many Python processes (xdist workers, mqconf's inner pytest, command-line tests); with bytecode
# caches (git-ignored __pycache__) each skips recompiling the project and re-rewriting Hypothesis, even where the
# environment sets PYTHONDONTWRITEBYTECODE.
RUN := env -u PYTHONDONTWRITEBYTECODE

.PHONY: install spark-cds test conformance allure allure-cli browser clean

$(VENV)/.installed: pyproject.toml constraints.txt
	@test -x $(VENV_PY) || echo "make install: creating the virtualenv $(VENV)"
	test -x $(VENV_PY) || $(PYTHON) -m venv $(VENV)
	@echo "make install: upgrading pip"
	$(VENV_PY) -m pip install --quiet --upgrade pip
	@echo "make install: installing the suite with every extra (spark, ibmmq, test) at the versions constraints.txt pins (pip; the first time it downloads several hundred MiB, most of it pyspark)"
	$(VENV_PY) -m pip install --quiet --progress-bar off -c constraints.txt -e ".[spark,ibmmq,test]"
	# pip compiles what it installs, but not the modules of an editable install: compile them once here, rather than
	# in each of the first test run's many processes at once.
	@echo "make install: compiling the suite's modules"
	$(RUN) $(VENV_PY) -m compileall -q reference conformance adapters emulator fixtures
	$(VENV)/bin/mqconf emulator --libmqm >/dev/null || echo "make install: libmqm not built (no C compiler?); mqconf emulator --libmqm says why"
	touch $@
	@echo "make install: done ($(VENV)); no JVM was started: campaigns on Spark build their class-data sharing archives on first use, or run make spark-cds"

# What every user needs, and nothing more: a JSON-lines implementer never starts Spark.
install: $(VENV)/.installed

# Class-data sharing archives for Spark's JVMs (conformance/campaign/class_data_sharing.py): every campaign's and
# test's Spark session then starts in about half the time. The first campaign on Spark builds the ones it uses (with a
# line saying so); this target builds (or, after changing Java or Spark, rebuilds) both ahead of time.
spark-cds: install
	@echo "make spark-cds: building the class-data sharing archives of Spark's driver and executor (a small campaign each)"
	$(RUN) $(VENV_PY) -m mq_conformance.conformance.campaign.class_data_sharing

# Best effort: Debian's chromium lets tests/test_report.py check the HTML report in a real browser. Installed only
# when running as root with apt-get; otherwise that test is skipped with its reason. Never fails the build.
browser:
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium for the browser test of the HTML report (apt-get)"; \
		(apt-get install -y -q chromium >/dev/null 2>&1 || \
		 (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1)) || \
		echo "chromium could not be installed; the browser test will be skipped"; \
	else echo "no chromium (needs root and apt-get to install); the browser test will be skipped"; fi

test: install browser
	@echo "make test: the whole suite with pytest-xdist, one worker per core; each worker first collects every test"
	@echo "make test: (a minute or more on 2 cores) before the first dot; README.md gives the whole run's time"
	$(RUN) $(VENV_PY) -m pytest -n auto -q

# A conformance run against the model; its last line is the path of the HTML report.
conformance: install
	@echo "make conformance: a campaign on Spark (needs Java 17+), then the conformance run against the model"
	$(RUN) $(VENV)/bin/mqconf campaign --adapter reference --sequences 200 --length 20 --seed 0
	$(RUN) $(VENV)/bin/mqconf run --adapter reference

# The Allure command line (Allure 3, from the npm registry) inside the virtualenv, where mqconf finds it.
allure-cli: $(ALLURE)
$(ALLURE):
	@echo "make allure-cli: installing Allure 3 from the npm registry into $(VENV)/allure"
	npm install --silent --no-fund --no-audit --prefix $(VENV)/allure allure@3

# A conformance run that also makes a single-file Allure HTML report (reports/<run-id>/allure-report/index.html).
allure: install
	-$(MAKE) --no-print-directory allure-cli || echo "allure: npm could not install Allure 3; the run goes on without it"
	$(VENV)/bin/mqconf run --adapter reference --allure

clean:
	rm -rf $(VENV)
	if [ -d reports ]; then find reports -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +; fi

# The figures issue 9 and issue 8 ask for, measured in one run each (never asserted): the model against a plain-
# Python floor, get cost by depth, state-machine steps, the suite's wall time with -n 1 and -n 2, the memory of
# 10^6 messages; then campaign throughput in process, on Spark local[1] and local[2] (100,000 sequences: ~20 min);
# then out of process: the quick profile served over JSON lines against in process, and a failing machine's shrink.
.PHONY: bench
bench: install
	$(RUN) $(VENV_PY) benchmarks/model.py --suite --memory
	$(RUN) $(VENV_PY) benchmarks/campaign.py
	$(RUN) $(VENV_PY) benchmarks/out_of_process.py
	$(RUN) $(VENV_PY) benchmarks/emulator.py

# The emulator's puts and gets per second through IBM's ibmmq layer against that layer's floor over a do-nothing
# native module, and 10,000 messages through 4 threads in 2 processes checked to arrive exactly once (issue 26).
.PHONY: bench-emulator
bench-emulator: install
	$(RUN) $(VENV_PY) benchmarks/emulator.py
