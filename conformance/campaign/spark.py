"""The campaign on Spark: the session, the replay job writing Parquet, and the aggregation as a map-reduce.

The session runs with the UI off and quiet logs, with ``SPARK_HOME`` the installed PySpark's unless set.
``local[*]`` is the default; on a master of this machine (``local[N]``, ``local-cluster[...]``, or a standalone
master on loopback such as ``spark://127.0.0.1:7077``) the driver binds to 127.0.0.1 and the executors' Python
workers run this interpreter. A standalone master that cannot be reached is one line naming it, in seconds. Any
other master URL (``spark://host:7077``, ``yarn``, ``k8s://...``) takes the same job to a real cluster with nothing
else to do: the session ships the suite to the executors as a zip (ship.py; they need only
Python with pyarrow and pyyaml, ``PYSPARK_PYTHON`` naming it when it is not ``python3``), the driver listens on
its host's address (Spark's defaults, or ``spark-defaults.conf`` in ``SPARK_CONF_DIR``), and the campaign folder
is any location pyarrow reaches from every executor (store.py: a shared path, ``hdfs://``, ``s3://``).

The replay is one Spark job with a task per partition. A task builds one model and one adapter, replays its
partition's sequences (generated on the executor from (seed, index), or shipped from a corpus) and writes them
as Parquet under ``steps/part=K`` itself, then the partition's done-marker: the rows never pass through the
driver, which only follows the markers for progress. Nothing the tasks compute depends on the driver's state.
Aggregation is a second job, a map-reduce over the stored partitions (see :func:`aggregate`).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import logging
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import class_data_sharing, ship
from .run import CampaignConfig, CampaignError, Partial, Progress, Worker, partition_aggregate, replay_partition
from .store import Store

LOG4J = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
logger.spark.name = org.apache.spark
logger.spark.level = error
logger.hadoop.name = org.apache.hadoop
logger.hadoop.level = error
"""

# The JVMs here schedule tasks and aggregate; the replay itself runs in Python workers. The client compiler
# alone (C1) and the serial collector start the JVM in about half the time and leave the cores to those workers.
# MQCONF_SPARK_JAVA_OPTIONS replaces them (for example with "" on a large cluster with big aggregations).
JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

STARTS_NOT = "did not start"
JAVA_HELP = ("Spark needs Java 17 or later. Install a JDK or JRE (for example `apt-get install "
             "openjdk-17-jre-headless`, or Temurin 17 from adoptium.net) and put `java` on PATH or set JAVA_HOME; "
             "or run the campaign without Spark: --master inprocess")


@functools.lru_cache(maxsize=16)
def _probe(java: str) -> tuple[int | None, str]:
    """The major version of ``java`` (None, with why, when it does not run or is not a Java)."""
    if not Path(java).exists():
        return None, "no such file"
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"-version failed ({exc})"
    found = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if not found and out.returncode != 0 and (out.stderr + out.stdout).strip():
        # a Java that does not start (under ulimit -v: "Could not allocate compressed class space"): its words
        said = [" ".join(line.split()) for line in (out.stderr + out.stdout).splitlines() if line.strip()]
        return None, f"{STARTS_NOT}: {'; '.join(said[:2])[:300]}"
    if not found:
        return None, "cannot tell its version"
    major = int(found.group(1))
    if major == 1 and found.group(2):
        major = int(found.group(2))  # "1.8.0" is Java 8
    return major, f"Java {major}"


def find_java() -> tuple[str, int]:
    """The Java 17+ to run Spark on, and its major version: ``$JAVA_HOME/bin/java`` if it works, else ``java`` on
    PATH. The product and the tests both ask this one function (a test without a Java skips with its message).
    Raises :class:`CampaignError` saying what was tried and what to install when none works."""
    home = os.environ.get("JAVA_HOME")
    candidates = [(str(Path(home) / "bin" / "java"), f"JAVA_HOME={home}")] if home else []
    on_path = shutil.which("java")
    if on_path:
        candidates.append((on_path, "on PATH"))
    tried = []
    for java, origin in candidates:
        major, what = _probe(java)
        if major is not None and major >= 17:
            return java, major
        tried.append(f"{java} ({origin}): {what}")
    if not tried:
        raise CampaignError(f"no `java` found (JAVA_HOME not set, none on PATH). {JAVA_HELP}")
    if all(STARTS_NOT in line for line in tried):  # a Java is there: installing one would not help
        raise CampaignError(f"Java did not start ({'; '.join(tried)}); a memory limit (ulimit -v) or JVM options "
                            "may keep it from starting; or run the campaign without Spark: --master inprocess")
    raise CampaignError(f"no working Java 17+ ({'; '.join(tried)}). {JAVA_HELP}")


def java_version() -> int:
    """The major version of the Java that Spark will start (:func:`find_java`); CampaignError with what to install
    otherwise. When JAVA_HOME names no working Java but PATH has one, JAVA_HOME is pointed at that one (Spark's
    launcher reads JAVA_HOME), with a warning."""
    java, major = find_java()
    home = os.environ.get("JAVA_HOME")
    if home and Path(java) != Path(home) / "bin" / "java":
        found_home = str(Path(os.path.realpath(java)).parent.parent)
        logging.getLogger("mqconf.campaign").warning(
            "warning: JAVA_HOME=%s holds no working Java 17+; Spark uses %s (JAVA_HOME=%s)", home, java, found_home)
        os.environ["JAVA_HOME"] = found_home
    return major


def executor_python(master: str) -> str:
    """The Python the executors run the replay on: ``PYSPARK_PYTHON`` if set (Spark's own variable; this process
    is the driver whatever it says), else this interpreter on a master of this machine (a local one, or a
    standalone master on loopback, whose workers can only be here), else ``python3`` on the executors' PATH. Its
    minor version must be this interpreter's (PySpark refuses others)."""
    here = ship.is_local(master) or on_loopback(master)
    return os.environ.get("PYSPARK_PYTHON") or (sys.executable if here else "python3")


MASTER_PROBE_SECONDS = 5.0  # how long a standalone master may take to accept a connection before it is unreachable
LOOPBACK_NAMES = ("localhost", "ip6-localhost", "::1")


def standalone_masters(master: str) -> list[tuple[str, int]]:
    """``(host, port)`` of each master of a standalone cluster's URL (``spark://host:port``, or several
    comma-separated for a highly available one; port 7077 when none is given); empty for any other master."""
    if not master.startswith("spark://"):
        return []
    found = []
    for part in master[len("spark://"):].split(","):
        host, colon, port = part.strip().rstrip("/").rpartition(":")
        if not colon or not port.isdigit():
            host, port = part.strip().rstrip("/"), "7077"
        found.append((host.strip("[]"), int(port)))
    return found


def on_loopback(master: str) -> bool:
    """Whether ``master`` is a standalone master on this machine's loopback (``spark://127.0.0.1:7077``): its
    workers are on this machine and reach the driver there, so the driver binds to 127.0.0.1 too."""
    hosts = [host for host, _ in standalone_masters(master)]
    return bool(hosts) and all(h.startswith("127.") or h.lower() in LOOPBACK_NAMES for h in hosts)


def check_master(master: str, seconds: float = MASTER_PROBE_SECONDS) -> None:
    """A standalone master that accepts no connection is a :class:`CampaignError` naming it, within ``seconds``
    (Spark's own client retries for over a minute before it gives up, and then says only that all masters are
    unresponsive). Other masters are left to Spark."""
    import socket

    reasons = []
    for host, port in standalone_masters(master):
        try:
            socket.create_connection((host, port), timeout=seconds).close()
            return
        except OSError as exc:
            reasons.append(f"{host}:{port}: {exc.strerror or exc}")
    if reasons:
        raise CampaignError(f"Spark master {master} cannot be reached ({'; '.join(reasons)}): is the master "
                            "running there? (README: a standalone cluster on this machine)")


def spark_home() -> str:
    """The Spark installation the campaign uses: ``SPARK_HOME``, else the installed PySpark's (which holds Spark's
    jars and ``bin/spark-class``, to start a standalone master and worker with: README)."""
    from pyspark.find_spark_home import _find_spark_home

    return os.environ.get("SPARK_HOME") or _find_spark_home()


def session(master: str = "local[*]", app_name: str = "mqconf-campaign", archives: bool = True,
            driver_options: str = "", executor_options: str = "", ship_suite: bool | None = None):
    """A SparkSession on ``master``, set up for the campaign (see the module's docstring).

    The JVMs map the class-data sharing archives ``make install`` built, if any (``archives``; see
    class_data_sharing.py); ``driver_options`` and ``executor_options`` are added to their JVM options.
    ``ship_suite`` adds the suite's zip (ship.py) for the executors to import it from; by default it is shipped
    to every master but those of this machine (``local``, ``local[N]``, ``local-cluster[...]``)."""
    check_master(master)
    java_version()
    os.environ["SPARK_HOME"] = spark_home()
    python = executor_python(master)
    os.environ["PYSPARK_PYTHON"] = python
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    here = ship.is_local(master)
    loopback = here or on_loopback(master)
    shipping = not here if ship_suite is None else ship_suite
    if loopback:
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    log4j = _private_file("mqconf-log4j2-", ".properties", LOG4J)
    java_options = (f"-Dlog4j2.configurationFile=file:{log4j} -Dlog4j.configurationFile=file:{log4j} "
                    + os.environ.get("MQCONF_SPARK_JAVA_OPTIONS", JVM_OPTIONS))
    if archives:
        shared_driver, shared_executor = class_data_sharing.java_options(master)
        driver_options, executor_options = f"{driver_options} {shared_driver}", f"{executor_options} {shared_executor}"
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master(master).appName(app_name)
    if loopback:  # a cluster's executors connect back to the driver: there it keeps Spark's choice of address
        builder = builder.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
    builder = (builder
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.driver.extraJavaOptions", f"{java_options} {driver_options}".strip())
               # a cluster's executors keep their own JVM options and logging: the log4j file is on this machine
               .config("spark.executor.extraJavaOptions",
                       (f"{java_options} {executor_options}" if here else executor_options).strip())
               .config("spark.executorEnv.PYSPARK_PYTHON", python)
               .config("spark.sql.shuffle.partitions", "8")
               .config("spark.python.worker.reuse", "true"))
    _quiet_py4j()
    jvm_log = _jvm_log()
    start = jvm_log.stat().st_size if jvm_log.exists() else 0
    before = _children()
    try:
        with _stderr_to(jvm_log):  # the JVM inherits it: its stack traces (a Ctrl-C as it starts) go there
            spark = builder.getOrCreate()
    except BaseException as exc:
        # A JVM interrupted (Ctrl-C) or failing before its gateway answers would live on, orphaned, for good.
        for pid in _children() - before:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if not isinstance(exc, Exception):
            raise
        _KEPT_LOGS.add(jvm_log)
        said = _jvm_said(jvm_log, start)
        raise CampaignError(f"Spark did not start on master {master!r}: {_first_line(exc)}"
                            + (f" (the JVM said: {said})" if said else "") + f" (JVM options: "
                            f"{java_options.split(' ', 2)[-1] or 'none'}; MQCONF_SPARK_JAVA_OPTIONS replaces "
                            f"the defaults; JVM log {jvm_log})") from None
    spark.sparkContext.setLogLevel("ERROR")
    if master.startswith("local-cluster["):
        atexit.register(shutil.rmtree, local_cluster_work(spark), True)
    if shipping:  # the executors' Python workers import the suite from its zip
        try:
            ship.add(spark.sparkContext)
        except BaseException:
            spark.stop()
            raise
    return spark


def local_cluster_work(spark) -> Path:
    """The folder a ``local-cluster[...]`` application's executors work in: Spark keeps one per application under
    ``$SPARK_HOME/work`` (inside the installed pyspark) for good, whatever SPARK_WORKER_DIR says, so a session on
    that master removes its own when this process ends (the executors are gone by then)."""
    from pyspark.find_spark_home import _find_spark_home

    return Path(os.environ.get("SPARK_HOME") or _find_spark_home()) / "work" / spark.sparkContext.applicationId


KEEP_FAILED_LOGS_DAYS = 7
_LOGS: set[Path] = set()  # this process's JVM logs, removed when it ends...
_KEPT_LOGS: set[Path] = set()  # ...unless Spark failed


def _jvm_log() -> Path:
    """The file this process's Spark JVM writes its own messages to (its standard error), one per process.

    The JVM outlives a stopped session (PySpark keeps its gateway for the next one) and writes here until this
    process ends, so the file is removed then, unless Spark failed (it did not start, or a job failed): then it
    is kept for the user to read, and the error names it. Kept logs of processes that have ended are removed
    after KEEP_FAILED_LOGS_DAYS days, by the next session started on this machine."""
    path = Path(tempfile.gettempdir()) / f"mqconf-spark-{os.getpid()}.log"
    if path not in _LOGS:
        _LOGS.add(path)
        atexit.register(_remove_log, path)
        _prune_logs(path.parent)
    return path


def _remove_log(path: Path) -> None:
    if path not in _KEPT_LOGS:
        with contextlib.suppress(OSError):
            path.unlink()


def _prune_logs(folder: Path) -> None:
    """Remove the kept JVM logs of ended processes once they are older than KEEP_FAILED_LOGS_DAYS days."""
    cutoff = time.time() - KEEP_FAILED_LOGS_DAYS * 86400
    for log in folder.glob("mqconf-spark-*.log"):
        pid = log.name[len("mqconf-spark-"):-len(".log")]
        with contextlib.suppress(OSError, ValueError):
            if log.stat().st_mtime < cutoff and not _alive(int(pid)):
                log.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process
        return True
    return True


def _children() -> set[int]:
    """The process ids of this process's children (Linux; empty elsewhere)."""
    found: set[int] = set()
    try:
        for task in Path(f"/proc/{os.getpid()}/task").iterdir():
            found.update(int(pid) for pid in (task / "children").read_text().split())
    except OSError:
        pass
    return found


def _quiet_py4j() -> None:
    """Py4J logs through the root logger, with tracebacks, each call a Ctrl-C interrupts (about 47 lines); the
    campaign reports its own errors in one line, so those records are dropped."""
    root = logging.getLogger()
    if not any(isinstance(f, _NotPy4J) for f in root.filters):
        root.addFilter(_NotPy4J())


class _NotPy4J(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return f"{os.sep}py4j{os.sep}" not in record.pathname


def _private_file(prefix: str, suffix: str, text: str) -> Path:
    """A new file of this process in the temporary folder (made with O_EXCL under a name no one can foresee, so
    no link placed there is written through) holding ``text``; removed when the process ends."""
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=suffix)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    atexit.register(_unlink_quietly, name)
    return Path(name)


def _unlink_quietly(name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name)


@contextlib.contextmanager
def _stderr_to(path: Path) -> Iterator[None]:
    """File descriptor 2 points at ``path`` (appended to) for the duration: what starts then inherits it."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        # never through a link someone placed at this predictable name in the shared temporary folder
        log = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            os.dup2(log, 2)
        finally:
            os.close(log)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _jvm_said(path: Path, start: int) -> str | None:
    """The JVM's reason for failing, from what it wrote to ``path`` after byte ``start``: its first error line."""
    try:
        with path.open("rb") as log:
            log.seek(start)
            text = log.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        return None
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith(("WARNING", " "))]
    errors = [line for line in lines if re.search(r"(^Error|Error:|Exception:|^Exception)", line)]
    chosen = (errors or lines or [None])[0]
    return " ".join(chosen.split())[:300] if chosen else None


QUIESCE_SECONDS = 5.0  # how long an interrupted run waits for its cancelled tasks to stop writing
CHECK_SECONDS = 0.2  # how often, at most, a task asks whether it is still wanted between sequences


class Cancellation:
    """How the driver stops a job's tasks, and knows when they have stopped writing to the campaign folder.

    Cancelling a Spark job ends it at once for the driver, not for its Python workers: a task in the middle of
    a partition replays on (Spark kills its worker seconds later, or not at all) and would store the partition
    and write its done-marker after the driver had given up, so the folder would still change under a caller
    that had seen the interruption. The tasks cooperate through files under ``running/<token>/`` in the
    campaign folder (any executor that can write the campaign can see them):

    - ``wanted`` exists while the job is wanted; the driver deletes it to cancel (:meth:`cancel`);
    - a task holds the lease ``part-K`` while it may write partition K: taken before it first asks whether it
      is wanted, released once its marker is written or it gave up (:meth:`lease`).

    A task asks between sequences (at most every CHECK_SECONDS) and once more once its rows are computed; it
    writes nothing once told no. Having deleted ``wanted``, the driver waits until no lease is left (at most
    QUIESCE_SECONDS): a task that was told yes holds its lease until its partition is stored whole, and one that
    takes a lease later is told no. So once :meth:`cancel` returns True, nothing more is written."""

    def __init__(self, store: Store, token: str):
        self.store, self.token = store, token
        self._answer: tuple[float, bool] | None = None

    # -- the driver

    def open(self) -> None:
        self.store.write_text("", "running", self.token, "wanted")

    def cancel(self, seconds: float = QUIESCE_SECONDS) -> bool:
        """Tell the tasks to stop; wait (at most ``seconds``) until none may still write. False on timeout."""
        self._remove("wanted")
        deadline = time.monotonic() + seconds
        while self.leases():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)
        return True

    def leases(self) -> list[int]:
        """The partitions whose tasks may still write."""
        return sorted(int(name.split("-", 1)[1]) for name in self.store.listing("running", self.token)
                      if name.startswith("part-"))

    def close(self) -> None:
        with contextlib.suppress(CampaignError):
            self.store.delete("running", self.token)
            if not self.store.listing("running"):  # no other run's folder left in it
                self.store.delete("running")

    # -- a task

    @contextlib.contextmanager
    def lease(self, part: int) -> Iterator[None]:
        self._answer = None  # an answer given before the lease was taken does not count
        try:
            if not self.store.exists("running", self.token):
                raise FileNotFoundError  # the driver has removed the folder: the job is over
            self.store.write_text("", "running", self.token, f"part-{part}")
        except (CampaignError, OSError):
            self._answer = (math.inf, False)
        try:
            yield
        finally:
            self._remove(f"part-{part}")

    def wanted(self) -> bool:
        """Whether the job is still wanted (asked of the folder at most every CHECK_SECONDS; no is final)."""
        now = time.monotonic()
        if self._answer is not None and (not self._answer[1] or now - self._answer[0] < CHECK_SECONDS):
            return self._answer[1]
        try:
            answer = self.store.exists("running", self.token, "wanted")
        except CampaignError:
            answer = False
        self._answer = (now, answer)
        return answer

    def _remove(self, name: str) -> None:
        with contextlib.suppress(OSError, CampaignError):
            self.store.fs.delete_file(self.store.path("running", self.token, name))


def _replay_task(config_json: str, directory: str, corpus_mode: bool, token: str):
    """The function each task runs on its executor: replay the task's partitions with one model and one adapter
    and store each as Parquet with its done-marker; yield (partition, divergent sequences) per partition. A
    cancelled task stops between sequences and stores nothing more (:class:`Cancellation`)."""

    def task(items: Iterator[tuple[int, str]]) -> Iterator[tuple[int, int]]:
        config = CampaignConfig.from_json(json.loads(config_json))
        store = Store(directory)
        cancellation = Cancellation(store, token)
        worker = Worker(config)
        try:
            for part, shipped in items:
                sequences = dict(zip(config.indexes(part), json.loads(shipped))) if corpus_mode else None
                with cancellation.lease(part):
                    divergent = replay_partition(worker, store, part, sequences, cancellation.wanted)
                if divergent is None:
                    return
                yield part, divergent
        finally:
            worker.close()

    return task


POLL_SECONDS = 0.25


def run(spark, config: CampaignConfig, store: Store, corpus: Sequence[Mapping[str, Any]] | None,
        progress: Progress, stop_after: int | None = None) -> tuple[int, int]:
    """Replay every pending partition on the executors as one Spark job (a task per partition). Returns
    (partitions run, partitions skipped).

    The job runs on a background thread; this one follows the done-markers the tasks write, for the progress
    line, and cancels the job on Ctrl-C (or, as a test hook, once ``stop_after`` partitions are done)."""
    if any(c in str(store.steps) for c in "[]{}*?"):
        raise CampaignError(f"{store.directory}: Spark reads paths as glob patterns; choose an output folder and id "
                            "without [ ] { } * ?")
    pending = store.pending(config)
    if not pending:
        return 0, config.parts
    items = [(part, json.dumps([corpus[i] for i in config.indexes(part)]) if corpus is not None else "")
             for part in pending]
    cancellation = Cancellation(store, uuid.uuid4().hex)
    try:
        cancellation.open()
        job = (spark.sparkContext.parallelize(items, len(items))
               .mapPartitions(_replay_task(json.dumps(config.to_json()), store.for_executors(), corpus is not None,
                                           cancellation.token)))
        return _follow(spark, job, config, store, pending, progress, stop_after, cancellation)
    finally:
        cancellation.close()  # the tasks' files go, whatever happened


def _follow(spark, job, config: CampaignConfig, store: Store, pending: list[int], progress: Progress,
            stop_after: int | None, cancellation: Cancellation) -> tuple[int, int]:
    """Run ``job`` on a background thread and follow its done-markers (see :func:`run`). When the job does not
    end well (Ctrl-C, the test hook, a failed task), its tasks are cancelled and waited for, so that what is on
    disk once this returns or raises no longer changes."""
    outcome: dict[str, Any] = {}

    def collect() -> None:
        try:
            outcome["parts"] = job.collect()
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread, which raises it
            outcome["error"] = exc

    thread = threading.Thread(target=collect, name="mqconf-campaign-job", daemon=True)
    thread.start()
    seen: set[int] = set()
    waiting = set(pending)
    try:
        while True:
            thread.join(POLL_SECONDS)
            finished = not thread.is_alive()
            done = sorted((store.finished() & waiting) - seen)
            if done:
                seen.update(done)
                progress.advance(done, sum(store.divergent(p) for p in done))
            if stop_after is not None and len(seen) >= stop_after and not finished:
                raise KeyboardInterrupt
            if finished:
                break
    except KeyboardInterrupt:
        spark.sparkContext.cancelAllJobs()
        thread.join()
        _quiesce(cancellation)
        raise
    if "error" in outcome:
        _quiesce(cancellation)  # a failed task aborts the job; the others are cancelled and may still be writing
        log = _jvm_log()
        _KEPT_LOGS.add(log)
        raise CampaignError(f"the Spark job failed: {_first_line(outcome['error'])} (JVM log {log})"
                            ) from outcome["error"]
    return len(pending), config.parts - len(pending)


def _quiesce(cancellation: Cancellation) -> None:
    if not cancellation.cancel():
        logging.getLogger("mqconf.campaign").warning(
            "warning: cancelled Spark tasks of partitions %s did not stop within %s s; a re-run redoes whatever "
            "they leave unmarked", ", ".join(map(str, cancellation.leases())), QUIESCE_SECONDS)


def _first_line(exc: BaseException) -> str:
    """The useful line of an exception raised through Py4J (the Python error of a task, if there is one)."""
    text = str(exc)
    # the last ``Name: message`` line of a Python traceback; a class given with its module
    # (``mq_conformance.conformance.campaign.store.CampaignError: ...``) is named without it
    python_errors = re.findall(r"^(?:\w+\.)*(\w*(?:Error|Exception): .*)$", text, re.MULTILINE)
    return (python_errors[-1] if python_errors else text.strip().splitlines()[0] if text.strip() else repr(exc))[:500]


def aggregate(spark, store: Store, config: CampaignConfig) -> Partial:
    """The aggregates of the stored rows as a Spark map-reduce: each task reads its partitions' Parquet and
    aggregates them (clause counts, sequences, divergence signatures with their shortest witness); the partial
    aggregates are merged by ``reduce``. The counts are small, so this needs no shuffle and no SQL engine."""
    directory = store.for_executors()

    def aggregate_partition(part: int) -> Partial:
        return partition_aggregate(Store(directory), part)

    parts = list(range(config.parts))
    slices = min(len(parts), 4 * max(1, spark.sparkContext.defaultParallelism))
    return spark.sparkContext.parallelize(parts, slices).map(aggregate_partition).reduce(Partial.merge)
