"""Class-data sharing archives for Spark's JVMs: a shorter and cheaper start for every campaign session.

A Spark JVM spends most of its start-up loading, parsing and verifying the few thousand classes of Spark, Scala,
Netty and Py4J it needs. The JDK's dynamic class-data sharing (JDK 13 and later) writes the classes a JVM loaded
to an archive when it exits (``-XX:ArchiveClassesAtExit``); a later JVM maps that archive instead of loading the
classes again (``-XX:SharedArchiveFile``). On these 2-core machines that takes a local[2] session's start from
about 7.5 s to 3.9 s and a local-cluster[2,1,1024] campaign from about 30 to 19 busy core-seconds.

There are two archives, each built from a small campaign run for the purpose: one from a local[2] driver, and
one from a local-cluster executor, whose classpath differs from the driver's (a dynamic archive serves only the
classpath it was made with). ``make install`` starts no JVM: the first campaign on Spark builds the archives its
master uses (``ensure``, with a line on standard error saying so; a failure costs that campaign nothing but the
time), and ``make spark-cds`` (``python -m mq_conformance.conformance.campaign.class_data_sharing``) builds or rebuilds both
ahead of time. They live in ``<prefix>/share/mqconf/spark-cds`` (the virtualenv), or in the folder
``MQCONF_SPARK_CDS_DIR`` names; an empty ``MQCONF_SPARK_CDS_DIR`` turns them off, and ``MQCONF_SPARK_CDS_BUILD=0``
turns off only the build on first use (the test suite sets it: its tests build archives only explicitly).

A JVM that cannot use an archive (another Java or Spark since it was built, an executor on another machine)
starts exactly as it would without one, and says nothing: the archives only ever save time.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DRIVER, EXECUTOR = "driver", "executor"
# The master each archive is made on: local[2] runs the executor's classes in the driver's JVM, as local[*] does;
# local-cluster with one executor gives an executor JVM of its own with the classpath local-cluster executors use.
MASTERS = {DRIVER: "local[2]", EXECUTOR: "local-cluster[1,1,1024]"}
# A JVM that cannot map an archive would print a warning; it then starts as usual, so the warning is only noise.
QUIET = "-Xlog:cds=off -Xlog:cds+dynamic=off"


def directory() -> Path | None:
    """Where the archives are: ``MQCONF_SPARK_CDS_DIR`` if set (None when it is empty), else the prefix's share/."""
    chosen = os.environ.get("MQCONF_SPARK_CDS_DIR")
    if chosen is not None:
        return Path(chosen) if chosen.strip() else None
    return Path(sys.prefix) / "share" / "mqconf" / "spark-cds"


def archive(role: str, folder: Path | None = None) -> Path | None:
    """The archive for ``role`` (driver or executor), if it has been built."""
    folder = folder if folder is not None else directory()
    if folder is None:
        return None
    path = folder / f"{role}.jsa"
    return path if path.is_file() else None


def java_options(master: str, folder: Path | None = None) -> tuple[str, str]:
    """The options that map the built archives: (for the driver's JVM, for the executors' JVMs).

    Executors are given theirs only on local-cluster masters: on a real cluster the archive's path is on this
    machine, not theirs (a JVM would pass over it, but there is no reason to send it)."""
    driver, executor = archive(DRIVER, folder), archive(EXECUTOR, folder)
    driver_options = f"-XX:SharedArchiveFile={driver} {QUIET}" if driver else ""
    executor_options = (f"-XX:SharedArchiveFile={executor} {QUIET}"
                        if executor and master.startswith("local-cluster") else "")
    return driver_options, executor_options


def _dump(role: str, target: Path) -> None:
    """In a child process: run a small campaign on ``role``'s master with its JVM(s) writing ``target`` at exit,
    and return once the archive is written (the JVMs that write it have exited)."""
    from .run import CampaignConfig, run_campaign
    from .spark import session

    option = f"-XX:ArchiveClassesAtExit={target}"
    spark = session(MASTERS[role], app_name=f"mqconf-cds-{role}", archives=False,
                    driver_options=option if role == DRIVER else "",
                    executor_options=option if role == EXECUTOR else "")
    gateway = spark.sparkContext._gateway.proc  # the driver's JVM, started by PySpark
    with tempfile.TemporaryDirectory(prefix="mqconf-cds-") as output:
        config = CampaignConfig(adapter="reference", sequences=8, length=10, seed=0, partition_size=4)
        run_campaign(config, Path(output), campaign_id="cds", master=MASTERS[role], spark=spark, show_progress=False)
    spark.stop()
    # The driver's JVM exits when its standard input closes (PySpark's gateway watches it); executors exit when
    # their application ends. Each writes its archive on the way out.
    gateway.stdin.close()
    gateway.wait(timeout=120)
    deadline = time.monotonic() + 120
    while _running_with(option) and time.monotonic() < deadline:
        time.sleep(0.5)


def _running_with(text: str) -> bool:
    """Whether a process whose command line holds ``text`` is still running (an executor still writing)."""
    proc = Path("/proc")
    if proc.is_dir():  # Linux: read the command lines (pgrep may not be installed)
        wanted = text.encode()
        for cmdline in proc.glob("[0-9]*/cmdline"):
            try:
                if wanted in cmdline.read_bytes():
                    return True
            except OSError:  # the process ended while we looked
                continue
        return False
    pgrep = shutil.which("pgrep")
    if pgrep is None:
        time.sleep(10)  # no way to look: give the executor time to finish writing
        return False
    return subprocess.run([pgrep, "-f", "--", text], capture_output=True).returncode == 0


def _failed_marker(folder: Path, role: str) -> Path:
    """The file that records a failed build on first use, so that later campaigns do not try again each time."""
    return folder / f"{role}.failed"


def build(folder: Path, roles: tuple[str, ...] = (DRIVER, EXECUTOR), out=None, remember_failures: bool = False) -> int:
    """Build the archives of ``roles`` in ``folder``, each in a child process; a one-line message for each on
    ``out`` (standard output by default). Returns the exit status: 0 when all were built or Java is missing
    (campaigns then say what to install), 1 otherwise. With ``remember_failures`` a role that could not be built
    leaves a ``<role>.failed`` file with the reason, and ``ensure`` does not try it again (the explicit build,
    ``make spark-cds``, does; a role built removes its file)."""
    from .run import CampaignError
    from .spark import java_version

    out = out if out is not None else sys.stdout

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    try:
        java_version()
    except CampaignError as exc:
        say(f"class-data sharing archives not built: {exc}")
        return 0
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        say(f"class-data sharing archives not built: cannot make {folder}: {exc.strerror or exc}")
        return 1
    status = 0
    for role in roles:
        started = time.monotonic()
        say(f"class-data sharing archive for the Spark {role}: building (a small campaign on {MASTERS[role]})")
        partial = folder / f".{role}.{os.getpid()}.jsa"
        try:
            done = subprocess.run([sys.executable, "-m", "mq_conformance.conformance.campaign.class_data_sharing", "--dump", role,
                                   str(partial)], capture_output=True, text=True, timeout=300)
            problem = (done.stderr.strip().splitlines() or ["no archive was written"])[-1]
            failed = done.returncode != 0
        except (OSError, subprocess.SubprocessError) as exc:
            problem, failed = str(exc), True
        marker = _failed_marker(folder, role)
        if failed or not partial.is_file() or partial.stat().st_size == 0:
            say(f"class-data sharing archive for the Spark {role} not built: {problem}")
            partial.unlink(missing_ok=True)
            if remember_failures:
                with contextlib.suppress(OSError):
                    marker.write_text(problem + "\n")
            status = 1
            continue
        final = folder / f"{role}.jsa"
        os.replace(partial, final)  # a JVM never maps a half-written archive
        marker.unlink(missing_ok=True)
        say(f"class-data sharing archive for the Spark {role}: {final} "
            f"({final.stat().st_size / 2**20:.0f} MiB, {time.monotonic() - started:.0f} s)")
    return status


BUILD_OFF = ("0", "no", "false", "off")


def ensure(master: str, out=None) -> None:
    """Before a campaign's Spark session on ``master``: build, once, the archives it would map and that are
    missing (the driver's; also the executor's on a local-cluster master), saying so on ``out`` (standard error
    by default). Never raises and never fails the campaign: without archives its JVMs only start slower.

    Does nothing when the archives are turned off (an empty ``MQCONF_SPARK_CDS_DIR``), when
    ``MQCONF_SPARK_CDS_BUILD`` is 0, when Java is missing (the session then says what to install), or for a role
    whose build failed before (``<role>.failed``; ``make spark-cds`` tries again)."""
    out = out if out is not None else sys.stderr
    try:
        if os.environ.get("MQCONF_SPARK_CDS_BUILD", "1").strip().lower() in BUILD_OFF:
            return
        folder = directory()
        if folder is None:
            return
        roles = (DRIVER, EXECUTOR) if master.startswith("local-cluster") else (DRIVER,)
        missing = tuple(role for role in roles
                        if archive(role, folder) is None and not _failed_marker(folder, role).exists())
        if not missing:
            return
        from .run import CampaignError
        from .spark import java_version

        try:
            java_version()
        except CampaignError:
            return
        print(f"campaign: first use of Spark here: building class-data sharing archives once, so that later "
              f"sessions start in about half the time (`make spark-cds` builds them ahead; "
              f"MQCONF_SPARK_CDS_BUILD=0 skips this)", file=out, flush=True)
        build(folder, missing, out=out, remember_failures=True)
    except Exception as exc:  # noqa: BLE001 - the archives only ever save time; the campaign goes on without them
        print(f"class-data sharing archives not built: {exc}; the campaign goes on without them", file=out,
              flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the class-data sharing archives that shorten the start of "
                                     "Spark's JVMs for campaigns (make spark-cds runs this; the first campaign on "
                                     "Spark builds the ones it needs).")
    parser.add_argument("--dir", type=Path, help="where to write them (default: MQCONF_SPARK_CDS_DIR, else "
                        "<prefix>/share/mqconf/spark-cds)")
    parser.add_argument("--dump", nargs=2, metavar=("ROLE", "PATH"), help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args(argv)
    if args.dump:
        _dump(args.dump[0], Path(args.dump[1]))
        return 0
    folder = args.dir or directory()
    if folder is None:
        print("class-data sharing archives not built: MQCONF_SPARK_CDS_DIR is empty (archives turned off)")
        return 0
    return build(folder)


if __name__ == "__main__":
    sys.exit(main())
