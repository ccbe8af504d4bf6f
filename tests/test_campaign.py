"""The campaign pipeline (conformance/campaign/): deterministic generation, replay on Spark in local mode, the
same aggregates in process and on Spark, divergence signatures with witnesses that fail as scenarios, resumption
and corpora. One SparkSession (local[2]) serves the whole module."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.dataset as ds
import pytest

from mq_conformance.adapters.base import load
from mq_conformance.conformance.campaign import generate
from mq_conformance.conformance.campaign.corpus import CorpusError, load_corpus, save_corpus
from mq_conformance.conformance.campaign.run import CampaignConfig, run_campaign
from mq_conformance.conformance.runner import FAILED, PASSED, run_scenario
from mq_conformance.conformance.scenario import load_scenario
from tests_support import java_or_skip

ROOT = Path(__file__).resolve().parents[1]
MUTANT = "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE"
# One worker runs this module, so one SparkSession (a JVM) serves it under pytest-xdist (--dist loadgroup).
pytestmark = pytest.mark.xdist_group("spark-local")


@pytest.fixture(scope="module")
def spark():
    java_or_skip()
    from mq_conformance.conformance.campaign.spark import session

    spark = session("local[2]")
    yield spark
    spark.stop()


def test_the_driver_jvm_maps_its_class_data_sharing_archive(spark, tmp_path):
    from mq_conformance.conformance.campaign import class_data_sharing as cds

    if not Path(f"/proc/{spark.sparkContext._gateway.proc.pid}/maps").exists():
        pytest.skip("needs Linux's /proc to see what the JVM mapped")
    built = cds.archive(cds.DRIVER)
    if built is not None:  # built by `make spark-cds` or a first campaign: this module's session maps it
        maps = Path(f"/proc/{spark.sparkContext._gateway.proc.pid}/maps").read_text()
        # A JVM that rejects an archive (another Java, another classpath) unmaps it and starts without it, silently.
        assert str(built.resolve()) in maps, "the driver's JVM started without its class-data sharing archive"
        return
    # A fresh machine (make install starts no JVM): build the driver's archive here, and start a session on it.
    assert cds.build(tmp_path, (cds.DRIVER,)) == 0 and cds.archive(cds.DRIVER, tmp_path) is not None
    code = ("import os; from mq_conformance.conformance.campaign.spark import session; s = session('local[1]'); "
            "maps = open(f'/proc/{s.sparkContext._gateway.proc.pid}/maps').read(); "
            "print(os.path.realpath(os.path.join(os.environ['MQCONF_SPARK_CDS_DIR'], 'driver.jsa')) in maps); s.stop()")
    mapped = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "MQCONF_SPARK_CDS_DIR": str(tmp_path)})
    assert mapped.stdout.strip().splitlines()[-1:] == ["True"], mapped.stdout + mapped.stderr


def test_sequences_are_reproducible_from_seed_and_index_alone():
    first = generate.sequence(7, 42, 20)
    assert first == generate.sequence(7, 42, 20)
    assert first != generate.sequence(7, 43, 20) and first != generate.sequence(8, 42, 20)
    assert first["id"] == "7:42" and first["area"] in generate.AREAS
    code = "import json; from mq_conformance.conformance.campaign.generate import sequence; print(json.dumps(sequence(7, 42, 20)))"
    other = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "123", "PATH": ""})
    assert json.loads(other.stdout) == first
    groups = generate.sequence(1, 0, 30, ["groups"])
    assert len(groups["calls"]) == 32 and groups["area"] == "groups"


def test_a_consume_names_only_a_token_a_browse_bound():
    """A MsgId (24 bytes) passed as a MsgToken (16) is no call MQ can be given: the served model once diverged
    from the model in process on it, each refusing the call in its own words (issue 14)."""
    consumes = 0
    for index in range(50):
        sequence = generate.sequence(0, index, 20, ["browse-mark"])
        assert len(sequence["binds"]) == len(sequence["calls"])
        bound: set[str] = set()
        for call, binds in zip(sequence["calls"], sequence["binds"]):
            token = call.get("GMO", {}).get("MsgToken")
            if token is not None:
                consumes += 1
                assert token in bound, (sequence["id"], token)
            bound.update(variable for variable, path in binds.items() if path == "GMO.MsgToken")
    assert consumes


def test_a_campaign_against_the_model_finds_no_divergence(spark, tmp_path):
    config = CampaignConfig(adapter="reference", sequences=40, length=15, seed=1, partition_size=10)
    summary = run_campaign(config, tmp_path, master="local[2]", spark=spark)
    aggregates = summary["aggregates"]
    assert aggregates["sequences"] == 40 and aggregates["divergent_sequences"] == 0
    assert aggregates["signatures"] == [] and summary["witnesses"] == {}
    assert aggregates["coverage"]["clauses_applied"] > 20 and aggregates["coverage"]["table_rows_covered"] > 5
    rows = aggregates["table_rows"]["put.logical-order.table1"]
    assert rows["rows"] == 12 and 0 < rows["covered"] <= 12
    # Plain Parquet, partitioned by part=K (read here with Arrow, as any Parquet reader can)
    stored = ds.dataset(tmp_path / summary["campaign"] / "steps", format="parquet", partitioning="hive").to_table()
    assert len(set(stored["seq"].to_pylist())) == 40 and set(stored["part"].to_pylist()) == {0, 1, 2, 3}
    assert set(stored.column_names) >= {"call", "model", "impl", "clauses", "part"}
    assert json.loads((tmp_path / summary["campaign"] / "summary.json").read_text())["aggregates"] == aggregates


def test_a_mutant_is_caught_with_the_same_aggregates_in_process_and_on_spark(spark, tmp_path):
    config = CampaignConfig(adapter=MUTANT, sequences=48, length=12, seed=3, partition_size=12)
    on_spark = run_campaign(config, tmp_path / "spark", master="local[2]", spark=spark)
    in_process = run_campaign(config, tmp_path / "local", master="inprocess")
    assert on_spark["aggregates"] == in_process["aggregates"]
    signatures = on_spark["aggregates"]["signatures"]
    assert signatures and all(s["op"] == "put" and "MQPMO_LOGICAL_ORDER" in s["options"] for s in signatures)
    assert (signatures[0]["model_reason"], signatures[0]["impl_reason"]) == ("MQRC_NONE", "MQRC_NONE")
    assert sum(s["count"] for s in signatures) == on_spark["aggregates"]["divergent_sequences"]
    for signature in signatures:
        witness = load_scenario(Path(on_spark["witnesses"][signature["slug"]]))
        assert len([s for s in witness.steps if not s.setup]) <= signature["witness"]["length"]
        assert run_scenario(witness, load("reference")).status == PASSED
        failing = run_scenario(witness, load(MUTANT))
        assert failing.status == FAILED and "GroupId" in " ".join(failing.failures[-1].problems)


def test_spark_executors_write_a_campaign_to_s3_with_the_in_process_aggregates(spark, s3_campaigns, tmp_path):
    """The executors write their partitions and markers to S3 themselves (a real S3 endpoint: moto's server), the
    aggregation reads them back from there, and the summary lands beside them."""
    from mq_conformance.conformance.campaign.store import Store, join

    config = CampaignConfig(adapter=MUTANT, sequences=24, length=10, seed=5, partition_size=6)
    on_s3 = run_campaign(config, s3_campaigns, campaign_id="spark", master="local[2]", spark=spark,
                         show_progress=False)
    in_process = run_campaign(config, tmp_path, campaign_id="local", master="inprocess", show_progress=False)
    assert on_s3["aggregates"] == in_process["aggregates"] and on_s3["run"]["partitions_run"] == 4
    assert Store(join(s3_campaigns, "spark")).summary()["aggregates"] == in_process["aggregates"]


def test_a_resumed_campaign_gives_the_same_result_as_an_uninterrupted_one(spark, tmp_path):
    # 20 partitions of 6 on two executors: the interruption (after the first partition the driver sees done)
    # comes long before the last one is replayed
    config = CampaignConfig(adapter=MUTANT, sequences=120, length=10, seed=5, partition_size=6)
    whole = run_campaign(config, tmp_path / "whole", master="inprocess")
    with pytest.raises(KeyboardInterrupt):
        run_campaign(config, tmp_path / "resumed", campaign_id="c", master="local[2]", spark=spark, stop_after=1)
    folder = tmp_path / "resumed" / "c"
    # the interrupted run waited for its cancelled tasks: what it left is final, and its lease folder is gone
    done = sorted(p.name for p in (folder / "done").iterdir())
    assert 0 < len(done) < 20
    assert not (folder / "running").exists()
    # a partition interrupted while it was being written: rows without a done-marker are thrown away
    unfinished = max(set(range(20)) - {int(name.split("-")[1]) for name in done})
    partial = folder / "steps" / f"part={unfinished}"
    partial.mkdir(parents=True, exist_ok=True)
    (partial / "part-garbage.parquet").write_text("half a file")
    resumed = run_campaign(config, tmp_path / "resumed", campaign_id="c", master="local[2]", spark=spark)
    assert resumed["run"]["partitions_skipped"] == len(done)
    assert resumed["run"]["partitions_run"] == 20 - len(done)
    assert resumed["aggregates"] == whole["aggregates"]
    again = run_campaign(config, tmp_path / "resumed", campaign_id="c", master="inprocess")
    assert again["run"]["partitions_run"] == 0 and again["aggregates"] == whole["aggregates"]


def test_a_cancelled_task_stores_nothing_once_the_driver_has_stopped_waiting(tmp_path):
    # the protocol between an interrupted driver and its Spark tasks (conformance/campaign/spark.py), without Spark
    import threading
    import time

    from mq_conformance.conformance.campaign.spark import CHECK_SECONDS, Cancellation
    from mq_conformance.conformance.campaign.store import Store

    driver = Cancellation(Store(tmp_path), "token")
    driver.open()
    told_yes, told_no = Cancellation(Store(tmp_path), "token"), Cancellation(Store(tmp_path), "token")
    stored = []
    with told_yes.lease(3):
        assert told_yes.wanted()  # told yes: it may store partition 3 whatever happens next
        waited = threading.Thread(target=lambda: stored.append(("driver", driver.cancel(seconds=30))))
        waited.start()
        time.sleep(CHECK_SECONDS + 0.1)
        assert waited.is_alive() and driver.leases() == [3]  # the driver waits for the task it told yes
        assert not told_yes.wanted()  # asked again, it is told no
        stored.append("partition 3")
    waited.join(10)
    assert stored == ["partition 3", ("driver", True)]
    with told_no.lease(4):  # a task that leases after the cancellation is told no, and writes nothing
        assert not told_no.wanted()
    driver.close()
    assert not (tmp_path / "running").exists()
    with told_no.lease(5):  # after the run: no folder to lease in, still no
        assert not told_no.wanted() and not (tmp_path / "running").exists()


def test_a_cancelled_partition_stops_between_sequences_and_writes_nothing(tmp_path):
    from mq_conformance.conformance.campaign.run import Store, Worker, replay_partition

    config = CampaignConfig(adapter="reference", sequences=12, length=6, seed=2, partition_size=12)
    store = Store(tmp_path)
    store.prepare(config)
    answers = iter([True, True, True])  # three sequences, then no
    worker = Worker(config)
    try:
        assert replay_partition(worker, store, 0, wanted=lambda: next(answers, False)) is None
        assert not (tmp_path / "steps" / "part=0").exists() and store.finished() == set()
        assert replay_partition(worker, store, 0, wanted=lambda: True) == 0 and store.finished() == {0}
    finally:
        worker.close()


def test_a_corpus_round_trips_and_replays_as_generated(spark, tmp_path):
    config = CampaignConfig(adapter=MUTANT, sequences=24, length=8, seed=9, partition_size=6)
    generated = run_campaign(config, tmp_path / "generated", master="inprocess")
    # a generated sequence is reproducible from its index and the row it was steered at (stored with its steps)
    stored = ds.dataset(tmp_path / "generated" / generated["campaign"] / "steps", format="parquet",
                        partitioning="hive").to_table(columns=["seq", "target"]).to_pylist()
    targets = {row["seq"]: row["target"] for row in stored}
    assert any(targets.values()), "no sequence was steered at a table row"
    sequences = [generate.sequence(9, i, 8, config.areas, targets[i]) for i in range(24)]
    for name in ("corpus.jsonl", "corpus.parquet"):
        assert load_corpus(save_corpus(sequences, tmp_path / name)) == sequences
    corpus = load_corpus(tmp_path / "corpus.parquet")
    replayed = run_campaign(CampaignConfig(adapter=MUTANT, sequences=24, length=8, seed=9, partition_size=6,
                                           corpus="corpus.parquet"),
                            tmp_path / "corpus", master="local[2]", spark=spark, corpus=corpus)
    assert replayed["aggregates"] == generated["aggregates"]


def test_scenario_files_are_a_corpus_and_agree_with_the_model(tmp_path):
    corpus = load_corpus(ROOT / "fixtures" / "scenarios" / "put")
    assert len(corpus) > 10 and all(s["area"] == "scenario" for s in corpus)
    assert any(bind for s in corpus for bind in s["binds"])  # $g bound by an expectation, used by a later call
    config = CampaignConfig(adapter="reference", sequences=len(corpus), length=1, corpus="put")
    summary = run_campaign(config, tmp_path, master="inprocess", corpus=corpus)
    assert summary["aggregates"]["divergent_sequences"] == 0
    assert summary["aggregates"]["steps"] == sum(len(s["calls"]) for s in corpus)


def test_a_bad_corpus_is_one_clear_message(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"calls": [{"op": "put"}]}\n{not json\n')
    with pytest.raises(CorpusError, match=r"bad.jsonl:2: not JSON"):
        load_corpus(bad)
    result = subprocess.run([sys.executable, "-m", "mq_conformance.conformance.cli", "campaign", "--corpus", str(bad),
                             "--master", "inprocess", "--output", str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "bad.jsonl:2" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("damage", [b"{half a file", b"[1, 2]", b"\xff\xfe", None], ids=["not JSON", "not an object",
                                                                                "not text", "a folder"])
def test_a_damaged_campaign_json_is_one_line_naming_it_and_exit_2(tmp_path, damage):
    command = [sys.executable, "-m", "mq_conformance.conformance.cli", "campaign", "--sequences", "2", "--length", "2",
               "--master", "inprocess", "--output", str(tmp_path), "--id", "c"]
    assert subprocess.run(command, cwd=ROOT, capture_output=True, timeout=120).returncode == 0
    settings = tmp_path / "c" / "campaign.json"
    if damage is None:
        settings.unlink()
        settings.mkdir()
    else:
        settings.write_bytes(damage)
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    errors = [line for line in result.stderr.splitlines() if line.startswith("mqconf:")]
    assert result.returncode == 2 and "Traceback" not in result.stderr and len(errors) == 1, result.stderr
    assert str(settings) in errors[0] and "delete that campaign folder" in errors[0]


def test_a_corpus_of_scenario_files_reports_every_bad_file_not_only_the_first(tmp_path):
    good = sorted((ROOT / "fixtures" / "scenarios" / "put").glob("*.yaml"))[0]
    shutil.copy(good, tmp_path / "b-good.yaml")
    (tmp_path / "a-bad.yaml").write_text("id: a\nsteps: [\n")  # not YAML
    (tmp_path / "c-bad.yaml").write_text("id: c\ntitle: no steps\n")  # YAML, not a scenario
    result = subprocess.run([sys.executable, "-m", "mq_conformance.conformance.cli", "campaign", "--corpus", str(tmp_path),
                             "--master", "inprocess", "--output", str(tmp_path / "out")],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    errors = [line for line in result.stderr.splitlines() if line.startswith("mqconf:")]
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert [e.split(":")[1].strip() for e in errors] == [str(tmp_path / "a-bad.yaml"), str(tmp_path / "c-bad.yaml")]
    assert all(e.split(":")[2].isdigit() for e in errors)  # path:line: why


def test_a_jvm_that_does_not_start_is_one_line_naming_the_options(tmp_path):
    java_or_skip()
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "MQCONF_SPARK_JAVA_OPTIONS": "-Xmx1k",  # too small a heap: the JVM cannot start
           "TMPDIR": str(temporary)}
    result = subprocess.run([sys.executable, "-m", "mq_conformance.conformance.cli", "campaign", "--sequences", "2", "--length", "2",
                             "--master", "local[1]", "--output", str(tmp_path / "campaigns")],
                            cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    errors = [line for line in result.stderr.splitlines() if line.startswith("mqconf:")]
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert len(errors) == 1 and "Spark did not start" in errors[0] and "-Xmx1k" in errors[0]
    # the JVM's own log is kept for the user to read why, and the error names it
    [log] = temporary.glob("mqconf-spark-*.log")
    assert f"JVM log {log})" in errors[0]


def test_the_jvm_log_of_a_session_that_ran_cleanly_is_removed_when_the_process_ends(tmp_path):
    java_or_skip()
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    result = subprocess.run([sys.executable, "-m", "mq_conformance.conformance.cli", "campaign", "--sequences", "2", "--length", "2",
                             "--master", "local[1]", "--output", str(tmp_path / "campaigns")],
                            cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "TMPDIR": str(temporary)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert not list(temporary.glob("mqconf-spark-*.log"))


def test_kept_jvm_logs_of_ended_processes_are_pruned_after_a_week(tmp_path):
    from mq_conformance.conformance.campaign import spark

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead, alive = int(ended.stdout), os.getpid()
    old = time.time() - (spark.KEEP_FAILED_LOGS_DAYS + 1) * 86400
    logs = {"old, ended": tmp_path / f"mqconf-spark-{dead}.log", "old, running": tmp_path / f"mqconf-spark-{alive}.log",
            "recent, ended": tmp_path / "mqconf-spark-999999999.log"}  # above any pid Linux gives
    for name, log in logs.items():
        log.write_text("why Spark failed")
        if name.startswith("old"):
            os.utime(log, (old, old))
    spark._prune_logs(tmp_path)
    assert {name for name, log in logs.items() if log.exists()} == {"old, running", "recent, ended"}


def test_a_missing_java_is_a_message_saying_what_to_install(monkeypatch):
    from mq_conformance.conformance.campaign import spark as campaign_spark
    from mq_conformance.conformance.campaign.run import CampaignError

    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(CampaignError, match="Java 17 or later.*openjdk-17"):
        campaign_spark.java_version()


def test_a_moved_campaign_stays_readable_its_summary_naming_files_inside_its_folder(tmp_path):
    config = CampaignConfig(adapter=MUTANT, sequences=8, length=6, seed=0, areas=("groups",))
    summary = run_campaign(config, tmp_path / "first", master="inprocess", show_progress=False)
    assert summary["witnesses"], "the mutant campaign found nothing to witness"
    stored = json.loads((tmp_path / "first" / summary["campaign"] / "summary.json").read_text())
    assert "directory" not in stored
    assert all(path.startswith("witnesses/") for path in stored["witnesses"].values())
    moved = tmp_path / "elsewhere"
    shutil.move(str(tmp_path / "first" / summary["campaign"]), moved)
    for relative in stored["witnesses"].values():
        assert load_scenario(moved / relative).steps
