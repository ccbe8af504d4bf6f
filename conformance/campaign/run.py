"""A campaign: its settings, the work of one partition, the in-process path, aggregation and its outputs.

A campaign lives under ``reports/campaigns/<id>/``::

    campaign.json          the settings (a re-run with the same id must use the same ones)
    steps/part=K/*.parquet one row per call replayed (columns below)
    done/part-K            written once partition K's rows are stored: a re-run skips it
    summary.json           the aggregates: coverage, divergence signatures with counts and witnesses
    witnesses/*.yaml       the shortest sequence of each signature, as a scenario that runs as is

Sequences are cut into partitions of consecutive indexes (``partition_size``). A partition is the unit of work
and of resumption: its rows are stored in one step, then marked done; an interrupted campaign leaves unmarked
partitions, whose partial rows the next run deletes and redoes. The work of a partition depends on nothing but
the settings and its number, so it runs the same in this process or on any Spark executor.

The step columns (:data:`STEP_COLUMNS`, :func:`arrow_schema`): ``seq`` (the sequence's index), ``sequence_id``,
``area``, ``target`` (the table row it was steered at, or null), ``step`` (the call's position), ``op``,
``options`` (the option names it passes, sorted, joined by +), ``model_reason`` and ``impl_reason`` (each side's
MQRC name, or ``error: ...``), ``clauses`` (the model's), ``diverged``, ``problems`` (the differences) and
``fields`` (the fields they are in, every MQINQ selector apart: replay.differing_fields), on the diverging call
only. What a divergence needs is kept whole, and only there (a campaign replays millions of
calls): ``call`` (the call with ``$idN`` symbols) and ``expect`` (the model's outcome as a scenario expectation),
JSON, for every step of a sequence that diverged and for a call an executor failed on; ``model`` and ``impl``
(both outcomes, JSON) on the diverging call and on calls an executor failed on. They are null elsewhere: a
generated sequence is rebuilt from ``(seed, seq, target)`` with :func:`mq_conformance.conformance.campaign.generate.sequence`
(a corpus sequence is the corpus's ``seq``-th), and :func:`mq_conformance.conformance.campaign.replay.replay` gives its full
records.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mq_conformance.adapters.base import load
from mq_conformance.adapters.reference import ReferenceAdapter

from .generate import AREAS, Steering, sequence
from .replay import replay_columns
from .store import CampaignError, Store, is_uri, join

__all__ = ["CampaignError", "Store"]  # re-exported: the campaign's error and folder live in store.py

STEP_COLUMNS = ("seq", "sequence_id", "area", "target", "step", "op", "call", "model", "impl", "expect", "clauses",
                "problems", "diverged", "options", "model_reason", "impl_reason", "fields")
# the columns a sequence's replay gives one value per call for (replay.Replayed)
REPLAYED_COLUMNS = ("op", "call", "model", "impl", "expect", "clauses", "options", "model_reason", "impl_reason")
# A divergence's signature: the call (op and options), the fields it differs in (replay.differing_fields: every
# MQINQ selector apart) and both reason codes
SIGNATURE = ("op", "options", "model_reason", "impl_reason", "fields")


@dataclass(frozen=True)
class CampaignConfig:
    """What a campaign replays: ``sequences`` generated from ``seed`` (or the ``corpus`` given), on ``adapter``."""

    adapter: str = "reference"
    sequences: int = 1000
    length: int = 20
    seed: int = 0
    areas: tuple[str, ...] = AREAS
    partition_size: int = 0  # 0: chosen from the number of sequences
    corpus: str | None = None  # a corpus file's path, recorded for the reader
    corpus_digest: str | None = None

    def __post_init__(self) -> None:
        if self.sequences < 1 or self.length < 1:
            raise CampaignError("--sequences and --length must be at least 1")
        unknown = set(self.areas) - set(AREAS)
        if unknown or not self.areas:
            raise CampaignError(f"unknown area(s) {', '.join(sorted(unknown)) or '(none given)'}; "
                                f"areas: {', '.join(AREAS)}")
        if not self.partition_size:
            object.__setattr__(self, "partition_size", max(1, min(1000, -(-self.sequences // 16))))
        object.__setattr__(self, "areas", tuple(sorted(self.areas)))

    @property
    def parts(self) -> int:
        return -(-self.sequences // self.partition_size)

    def indexes(self, part: int) -> range:
        return range(part * self.partition_size, min(self.sequences, (part + 1) * self.partition_size))

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["areas"] = list(self.areas)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CampaignConfig:
        return cls(**{**data, "areas": tuple(data["areas"])})


def campaign_identity(adapter: Any, command: str | None = None) -> dict[str, Any]:
    """The identity a campaign records (conformance/identity.py): the implementation ``adapter`` greeted, the
    suite, and the command (recorded, not compared). ``adapter`` is closed."""
    from ..identity import implementation_of, suite

    try:
        found = {"implementation": implementation_of(adapter), "suite": suite()}
    finally:
        close = getattr(adapter, "close", None)
        if close is not None:
            close()
    return {**found, "command": command} if command else found


def default_id(config: CampaignConfig, identity: Mapping[str, Any] | None = None) -> str:
    """A campaign id derived from its settings and the identity of who answers and which suite asks (the command
    aside), so the same command resumes the same campaign, and the same command after an upgrade of the suite or
    a change of the implementation starts its own instead of refusing the old folder."""
    named = {"config": config.to_json(), "identity": {k: v for k, v in (identity or {}).items() if k != "command"}}
    digest = hashlib.sha1(json.dumps(named, sort_keys=True, default=str).encode()).hexdigest()[:8]
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in config.adapter)[:40]
    return f"{safe}-n{config.sequences}-l{config.length}-s{config.seed}-{digest}"


# -- the work of one partition (runs on executors) ----------------------------------------------------------

@dataclass
class Worker:
    """One model and one adapter under test, kept for a whole partition (or task) and reset per sequence."""

    config: CampaignConfig
    corpus: Sequence[Mapping[str, Any]] | None = None
    model: Any = None
    impl: Any = None
    divergent: int = field(default=0)

    def __post_init__(self) -> None:
        self.model = ReferenceAdapter()
        self.impl = load(self.config.adapter)

    def close(self) -> None:
        self.impl.close()

    def sequence(self, index: int, steering: Steering | None = None) -> Mapping[str, Any]:
        if self.corpus is not None:
            return self.corpus[index]
        target = steering.target(index) if steering is not None else None
        return sequence(self.config.seed, index, self.config.length, self.config.areas, target)

    def rows(self, indexes: Iterator[int] | range, sequences: Mapping[int, Mapping[str, Any]] | None = None
             ) -> dict[str, list]:
        """The step rows of the sequences at ``indexes``, column by column. Generated sequences are steered
        toward the table rows the earlier sequences of these ``indexes`` have not reached (generate.Steering)."""
        columns: dict[str, list] = {name: [] for name in STEP_COLUMNS}
        steering = Steering(self.config.seed, self.config.areas) if sequences is None and self.corpus is None else None
        per_sequence = [columns[name] for name in STEP_COLUMNS[:4]]
        per_step = [(columns[name], name) for name in REPLAYED_COLUMNS]
        steps, problems, diverged, fields = columns["step"], columns["problems"], columns["diverged"], columns["fields"]
        for index in indexes:
            seq = sequences[index] if sequences is not None else self.sequence(index, steering)
            self.model.reset()
            self.impl.reset()
            replayed = replay_columns(seq, self.model, self.impl)
            count = len(replayed)
            if not count:
                continue
            if replayed.diverged:
                self.divergent += 1
            for column, value in zip(per_sequence, (index, seq["id"], seq["area"], seq.get("target"))):
                column.extend(itertools.repeat(value, count))
            steps.extend(range(count))
            for column, name in per_step:
                column.extend(getattr(replayed, name))
            problems.extend(itertools.repeat([], count - 1))
            problems.append(replayed.problems)
            diverged.extend(itertools.repeat(False, count - 1))
            diverged.append(replayed.diverged)
            fields.extend(itertools.repeat("", count - 1))
            fields.append(replayed.fields)
            if steering is not None:
                steering.saw(itertools.chain.from_iterable(replayed.clauses))
        return columns


def arrow_schema():
    import pyarrow as pa

    return pa.schema([
        ("seq", pa.int64()), ("sequence_id", pa.string()), ("area", pa.string()), ("target", pa.string()),
        ("step", pa.int32()),
        ("op", pa.string()), ("call", pa.string()), ("model", pa.string()), ("impl", pa.string()),
        ("expect", pa.string()), ("clauses", pa.list_(pa.string())), ("problems", pa.list_(pa.string())),
        ("diverged", pa.bool_()), ("options", pa.string()), ("model_reason", pa.string()),
        ("impl_reason", pa.string()), ("fields", pa.string()),
    ])


# -- the campaign folder (store.py: on any filesystem pyarrow reaches) --------------------------------------

def write_partition_arrow(store: Store, part: int, columns: dict[str, list], divergent: int) -> None:
    """One partition's rows as a Parquet file (written aside, then renamed into place), then its marker.

    This runs wherever the partition was replayed (this process or a Spark executor): the rows go straight to
    Parquet without passing through the driver."""
    import pyarrow as pa

    store.write_partition(part, pa.table(columns, schema=arrow_schema()))
    store.mark(part, divergent)


def replay_partition(worker: Worker, store: Store, part: int,
                     sequences: Mapping[int, Mapping[str, Any]] | None = None,
                     wanted: Callable[[], bool] | None = None) -> int | None:
    """Replay partition ``part`` with ``worker`` and store it; returns how many of its sequences diverged.

    ``wanted`` (a cancelled Spark task's way out) is asked before each sequence and once more just before the
    partition is stored: once it says no, the partition stops, nothing of it is written, and None is returned."""
    before = worker.divergent
    indexes = worker.config.indexes(part)
    if wanted is not None:
        indexes = itertools.takewhile(lambda _: wanted(), indexes)
    columns = worker.rows(indexes, sequences)
    if wanted is not None and not wanted():
        return None
    write_partition_arrow(store, part, columns, worker.divergent - before)
    return worker.divergent - before


# -- progress -----------------------------------------------------------------------------------------------

class Progress:
    """Partitions and sequences done, rate and divergences, on one terminal line (silent off a terminal)."""

    def __init__(self, config: CampaignConfig, skipped: int, stream=sys.stderr, enabled: bool = True):
        self.config, self.stream = config, stream
        self.live = enabled and stream.isatty()
        self.parts_done = skipped
        self.sequences = 0
        self.divergent = 0
        self.started = time.perf_counter()

    def advance(self, parts: Sequence[int], divergent: int = 0) -> None:
        self.parts_done += len(parts)
        self.sequences += sum(len(self.config.indexes(p)) for p in parts)
        self.divergent += divergent
        if self.live:
            rate = self.sequences / max(time.perf_counter() - self.started, 1e-9)
            self.stream.write(f"\rcampaign: partitions {self.parts_done}/{self.config.parts}, "
                              f"{self.sequences} sequences replayed ({rate:,.0f}/s), {self.divergent} divergent   ")
            self.stream.flush()

    def end(self) -> None:
        if self.live:
            self.stream.write("\n")
            self.stream.flush()


# -- aggregation: a partial aggregate per partition, merged (in this process, or as a Spark reduce) ------------

@dataclass
class Partial:
    """The aggregates of some partitions' stored rows. Partials merge (associative and commutative), so
    partitions can be aggregated anywhere in any order: in this process, or on Spark executors and reduced."""

    sequences: int = 0
    steps: int = 0
    clauses: Counter = field(default_factory=Counter)
    # signature -> [count, shortest witness (length, seq, sequence id)]
    signatures: dict[tuple, list] = field(default_factory=dict)
    # table row -> how many sequences were steered at it
    targets: Counter = field(default_factory=Counter)

    def add(self, signature: tuple, count: int, witness: tuple[int, int, str]) -> None:
        """Count ``count`` divergences of ``signature``, keeping the shorter witness."""
        mine = self.signatures.setdefault(signature, [0, witness])
        mine[0] += count
        mine[1] = min(mine[1], witness)

    def merge(self, other: Partial) -> Partial:
        merged = Partial(self.sequences + other.sequences, self.steps + other.steps, self.clauses + other.clauses,
                         {k: list(v) for k, v in self.signatures.items()}, self.targets + other.targets)
        for signature, (count, witness) in other.signatures.items():
            merged.add(signature, count, witness)
        return merged

    def aggregates(self, areas: Sequence[str] = AREAS) -> dict[str, Any]:
        signatures = [(key, count, witness) for key, (count, witness) in self.signatures.items()]
        return finish_aggregates(self.sequences, self.steps, self.clauses, signatures, self.targets, areas)


def partition_aggregate(store: Store, part: int) -> Partial:
    """The partial aggregate of one stored partition, read column by column with Arrow (sequences never span
    partitions, so their distinct count adds up)."""
    import pyarrow.compute as pc

    table = store.read_partition(part, ["seq", "target", "clauses", "diverged"])
    clauses = Counter({c["values"]: c["counts"] for c in pc.value_counts(pc.list_flatten(table["clauses"])).to_pylist()})
    steered = table.filter(pc.is_valid(table["target"])).group_by("target").aggregate([("seq", "count_distinct")])
    targets = Counter({r["target"]: r["seq_count_distinct"] for r in steered.to_pylist()})
    partial = Partial(pc.count_distinct(table["seq"]).as_py(), table.num_rows, clauses, targets=targets)
    if pc.any(table["diverged"]).as_py():
        for row in store.read_partition(part, ["seq", "sequence_id", "step", *SIGNATURE],
                                        [("diverged", "=", True)]).to_pylist():
            partial.add(tuple(row[k] for k in SIGNATURE), 1, (row["step"] + 1, row["seq"], row["sequence_id"]))
    return partial


def read_witness_rows(store: Store, config: CampaignConfig, seqs: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """The stored rows of sequences ``seqs`` in step order, read from the partitions that hold them."""
    found: dict[int, list] = {s: [] for s in seqs}
    for part in sorted({s // config.partition_size for s in seqs}):
        wanted = [s for s in seqs if s // config.partition_size == part]
        table = store.read_partition(part, list(STEP_COLUMNS), [("seq", "in", wanted)])
        for row in table.to_pylist():
            found[row["seq"]].append(row)
    return {s: sorted(rows, key=lambda r: r["step"]) for s, rows in found.items()}


def why_unreached(table_id: str, row_id: str, areas: Sequence[str], steered: int) -> str:
    """Why no sequence of the campaign reached a table row: unreachable by construction (the vocabulary says
    why), its area not in the campaign, or not yet generated (and how often the generator aimed at it)."""
    from .. import vocabulary

    reason = vocabulary.unreachable(table_id, row_id)
    if reason is not None:
        return f"unreachable by construction: {reason}"
    area = vocabulary.table_area(table_id)
    if area is not None and area.name not in areas:
        return f"not generated: its area {area.name} is not in this campaign"
    return f"not yet generated: {steered} sequence(s) were steered at it without reaching it"


def finish_aggregates(sequences: int, steps: int, clauses: Mapping[str, int],
                      signatures: Sequence[tuple[tuple, int, tuple[int, int, str]]],
                      targets: Mapping[str, int] | None = None, areas: Sequence[str] = AREAS) -> dict[str, Any]:
    """The aggregates in their one canonical, sorted shape (whatever computed the counts). Each table lists
    its rows' counts, and for each row never reached, why (:func:`why_unreached`)."""
    from mq_conformance.reference.tables import default_spec

    from ..clauses import load_registry

    registry = load_registry()
    targets = targets or {}
    tables = {}
    for table in default_spec().tables.values():
        counts = {row.id: int(clauses.get(row.id, 0)) for row in table.rows}
        unreached = {row: why_unreached(table.id, row, areas, int(targets.get(row, 0)))
                     for row, count in counts.items() if not count}
        tables[table.id] = {"rows": len(counts), "covered": sum(1 for c in counts.values() if c), "counts": counts,
                            "steered": {row: int(targets[row]) for row in counts if targets.get(row)},
                            "unreached": unreached}
    listed = []
    for key, count, (length, seq, sequence_id) in signatures:
        signature = dict(zip(SIGNATURE, key))
        listed.append({**signature, "count": int(count), "slug": signature_slug(signature),
                       "witness": {"sequence": int(seq), "sequence_id": sequence_id, "length": int(length)}})
    listed.sort(key=lambda s: (-s["count"], *(s[k] for k in SIGNATURE)))
    return {
        "sequences": int(sequences),
        "steps": int(steps),
        "divergent_sequences": sum(s["count"] for s in listed),
        "signatures": listed,
        "clauses": {k: int(v) for k, v in sorted(clauses.items())},
        "coverage": {
            "clauses_applied": sum(1 for k in clauses if k in registry),
            "clauses_total": len(registry.clauses),
            "table_rows_covered": sum(t["covered"] for t in tables.values()),
            "table_rows_total": sum(t["rows"] for t in tables.values()),
        },
        "table_rows": dict(sorted(tables.items())),
    }


def signature_slug(signature: Mapping[str, str]) -> str:
    digest = hashlib.sha1(json.dumps([signature[k] for k in SIGNATURE]).encode()).hexdigest()[:10]
    return f"{signature['op']}-{digest}"


# -- witnesses ----------------------------------------------------------------------------------------------

SETUP_OPS = {"define_queue": "queues", "define_qmgr": "qmgrs", "define_channel": "channels"}


def witness_scenario(signature: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], adapter: str) -> dict:
    """The witness's stored rows (in step order, up to the diverging one) as a scenario document whose
    expectations are the model's outcomes: it passes on the model and fails where the adapter diverged."""
    setup: dict[str, Any] = {}
    steps = []
    leading = True
    for row in rows:
        call = json.loads(row["call"])
        if leading and row["op"] in SETUP_OPS and not (row["op"] == "define_qmgr" and "name" not in call):
            setup.setdefault(SETUP_OPS[row["op"]], []).append(call)
            continue
        if leading and row["op"] == "define_qmgr":
            setup["qmgr"] = call
            continue
        leading = False
        steps.append({row["op"]: call, "expect": json.loads(row["expect"])})
    last = rows[-1]
    return {
        "id": f"campaign-{signature['slug']}",
        "title": f"Campaign witness: {adapter} differs from the model on {signature['op']} "
                 f"[{signature['options'] or 'no options'}] in {signature.get('fields') or 'its outcome'} (model "
                 f"{signature['model_reason']}, implementation {signature['impl_reason']}); "
                 f"sequence {last['sequence_id']}, {len(rows)} calls; " + "; ".join(last["problems"])[:300],
        "clauses": sorted(set(last["clauses"])) or ["get.order.priority-then-physical"],
        "capabilities": ["core"],
        "setup": setup,
        "steps": steps,
    }


def write_outputs(store: Store, config: CampaignConfig, campaign_id: str, aggregates: dict[str, Any],
                  run: dict[str, Any], identity: dict[str, Any] | None = None) -> dict[str, Any]:
    """summary.json and one witness scenario per signature; returns the summary."""
    store.delete("witnesses")
    rows = read_witness_rows(store, config, sorted({s["witness"]["sequence"] for s in aggregates["signatures"]}))
    paths: dict[str, str] = {}
    for signature in aggregates["signatures"]:
        steps = rows[signature["witness"]["sequence"]][:signature["witness"]["length"]]
        name = f"{signature['slug']}.yaml"
        store.write_text(yaml.safe_dump(witness_scenario(signature, steps, config.adapter), sort_keys=False,
                                        width=120, allow_unicode=True), "witnesses", name)
        paths[signature["slug"]] = f"witnesses/{name}"
    # summary.json names its files relative to the campaign folder, so a moved or copied campaign stays readable;
    # the summary returned resolves them against the folder it was written in.
    summary = {"campaign": campaign_id, "config": config.to_json(), "identity": identity, "run": run,
               "aggregates": aggregates, "witnesses": paths}
    store.write_text(json.dumps(summary, indent=2) + "\n", "summary.json")
    return {**summary, "directory": store.directory,
            "witnesses": {slug: store.uri(relative) for slug, relative in paths.items()}}


# -- the in-process path ------------------------------------------------------------------------------------

def run_in_process(config: CampaignConfig, store: Store, corpus: Sequence[Mapping[str, Any]] | None,
                   progress: Progress, stop_after: int | None = None) -> tuple[int, int]:
    """Replay every pending partition in this process. Returns (partitions run, partitions skipped)."""
    pending = store.pending(config)
    worker = Worker(config, corpus)
    try:
        for count, part in enumerate(pending):
            if stop_after is not None and count >= stop_after:
                raise KeyboardInterrupt
            progress.advance([part], replay_partition(worker, store, part))
    finally:
        worker.close()
    return len(pending), config.parts - len(pending)


# -- the entry point ----------------------------------------------------------------------------------------

IN_PROCESS = "inprocess"


def run_campaign(config: CampaignConfig, output: Path | str, campaign_id: str | None = None, master: str = "local[*]",
                 corpus: Sequence[Mapping[str, Any]] | None = None, spark: Any = None, show_progress: bool = True,
                 stop_after: int | None = None, ship_suite: bool | None = None,
                 identity: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run (or resume) a campaign and aggregate it; returns the summary (also written as summary.json).

    ``output`` is the campaigns folder: a local path or a URI pyarrow reaches (``file://``, ``hdfs://``, ``s3://``;
    store.py). ``master`` is a Spark master URL, or ``inprocess`` for a plain loop in this process without Spark.
    ``stop_after`` stops after that many partitions (or Spark waves) with KeyboardInterrupt: a test hook
    standing for an interruption. ``ship_suite`` ships the suite's code to the executors as a zip (ship.py; by
    default to every master but those of this machine). ``identity`` (conformance/identity.py: the
    implementation's hello, the suite, the command) is recorded in campaign.json and summary.json; a folder
    resumes only when it recorded the same (the command aside). Without it, it is read from the adapter."""
    if corpus is not None and len(corpus) != config.sequences:
        raise CampaignError("the corpus and the sequence count disagree")
    if master != IN_PROCESS and spark is None:  # an unreachable master is said before anything is written
        from .spark import check_master

        check_master(master)
    from ..outfolder import check_name

    if campaign_id is not None:
        campaign_id = check_name(campaign_id, "--id")
    identity = dict(identity) if identity is not None else campaign_identity(load(config.adapter))
    campaign_id = campaign_id if campaign_id is not None else default_id(config, identity)
    with contextlib.ExitStack() as claimed:
        store = Store(join(str(output), campaign_id))
        if not is_uri(str(output)):  # a local folder: confined, the suite's own, one campaign at a time in it
            store.local = claimed.enter_context(claim_campaign(Path(output), campaign_id))
        command = identity.pop("command", None)
        store.prepare(config, identity)
        return _run_campaign(config, store, campaign_id, master, corpus, spark, show_progress, stop_after,
                             ship_suite, identity, command)


def claim_campaign(output: Path, campaign_id: str):
    """The campaign folder ``output/campaign_id`` claimed (outfolder.py): ``output`` is a campaigns folder of the
    suite's (or new, or empty), the campaign folder a campaign's (resumed) or new, and no other campaign holds it.
    Folders of campaigns written before folders were marked (a ``campaign.json`` in each) are adopted."""
    from ..outfolder import MARKER, OutputFolder

    def adopt(folder: Path, holds) -> None:
        if folder.is_dir() and not (folder / MARKER).exists() and any(folder.iterdir()) and holds(folder):
            with OutputFolder.open(folder, make=False) as legacy:
                legacy.write_text(json.dumps({"kind": "campaigns" if folder == output else "campaign"}) + "\n",
                                  MARKER)

    adopt(output, lambda f: all(e.is_dir() and not e.is_symlink() and (e / "campaign.json").is_file()
                                for e in f.iterdir()))
    with OutputFolder.claim(output, "campaigns", lock=False):
        pass
    adopt(output / campaign_id, lambda f: (f / "campaign.json").is_file())
    return OutputFolder.claim(output / campaign_id, "campaign", option="--output/--id")


def _run_campaign(config: CampaignConfig, store: Store, campaign_id: str, master: str,
                  corpus: Sequence[Mapping[str, Any]] | None, spark: Any, show_progress: bool,
                  stop_after: int | None, ship_suite: bool | None, identity: dict[str, Any],
                  command: Any) -> dict[str, Any]:
    """:func:`run_campaign` in its prepared folder."""
    if master != IN_PROCESS and spark is None:  # the first campaign on Spark builds the archives its JVMs would map
        from .class_data_sharing import ensure

        ensure(master)
    started = time.perf_counter()
    progress = Progress(config, len(store.finished()), enabled=show_progress)
    with contextlib.ExitStack() as cleanup:
        cleanup.callback(progress.end)
        if master == IN_PROCESS:
            ran, skipped = run_in_process(config, store, corpus, progress, stop_after)
            partial = functools.reduce(Partial.merge, (partition_aggregate(store, p) for p in range(config.parts)),
                                       Partial())
        else:
            from . import spark as spark_job

            session = spark or spark_job.session(master, ship_suite=ship_suite)
            if spark is None:  # a session this call started: stopped at the end, so executors shut down cleanly
                cleanup.callback(session.stop)
            ran, skipped = spark_job.run(session, config, store, corpus, progress, stop_after)
            partial = spark_job.aggregate(session, store, config)
        run = {"master": master, "partitions": config.parts, "partitions_run": ran, "partitions_skipped": skipped,
               "seconds": round(time.perf_counter() - started, 3)}
        run["command"] = command
        return write_outputs(store, config, campaign_id, partial.aggregates(config.areas), run, identity)
