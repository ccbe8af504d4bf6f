"""A run's results as files a person and a program can read and trust.

A run folder holds what happened, written as it happens, so that a run killed midway still leaves what it
finished readable:

- ``run.json``: the suite (version, git commit, hash of ``fixtures/``), the adapter (name, version, capabilities
  claimed), the profile, the start time; ``finished`` is added when the run ends;
- ``results.jsonl``: one line per scenario as it finishes (every step's call, expected and actual outcome, and
  the clauses the model applied there);
- ``tests.jsonl``: one line per pytest test as it finishes (``conformance/testlog.py``);
- ``divergences/``: minimal scenarios written by the differential state machines;
- ``campaigns.json``: a copy of each campaign summary (``mqconf campaign``) the run includes, taken when the run
  starts, so that rebuilding the report later shows the same campaign even if its folder has changed since.

From those, :func:`write_reports` builds (again, any time: ``mqconf report DIR``) ``conformance.json`` (checked
against ``schemas/report.json``), ``conformance.html``, ``summary.md`` and ``badge.svg``.

A certificate counts the clauses of the capabilities the implementation claims (fixtures/capabilities.yaml,
``clauses``: each clause belongs to capabilities, or to no certificate); the others are *not claimed* (or *not
certified*), whatever checks met them. Clause statuses, from the evidence that cites a counted clause, worst
first: failed, unexpected pass, expected failure, decision differs, suspect, passed, consequence, inconclusive;
a counted clause without evidence is *not covered*: a defect of the suite (tests/test_clause_capabilities.py),
kept out of the headline's ratio. A failing scenario step blames the clauses the scenario cites that the model
applied at that step, or those the step cites itself, and nothing else (a clause the scenario cites elsewhere is
not blamed for it); the other clauses applied there are listed as "also applied", not failed. A failing test
blames the clauses its failure names, else those it declares; a random search's failure (a state machine's
divergence, a property test's counterexample) fails the run and shows the clauses the model applied where it
diverged, but fails none of them, so that the clauses a run fails do not move with its seed. Blame stays within
the claim: a clause not counted is never failed. A clause whose
confidence is ``decision`` (the model decided where the documents are silent) that an implementation answers
differently is "decision differs": shown, but it fails the run only in strict mode (``mqconf run --strict``).

One verdict (``verdict``): *incomplete* when any planned scenario or test has no result or the run did not
finish; otherwise *failed* when any scenario or test failed or errored (with or without a clause), any clause
failed, or an expected failure passed; otherwise *passed*. The headline, badge, summary and exit status all say
it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shlex
import subprocess
from collections import Counter
from collections.abc import Callable
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

from mq_conformance import fixtures
from mq_conformance.adapters.untrusted import bounded, for_markdown, for_terminal

from . import __version__
from .causes import cause_lines, group_causes
from .clauses import Registry
from .difference import THE_MODEL, call_text, difference_lines, error_answer, field_problem, model_problem
from .identity import implementation_of
from .infiles import UnsafeFile, read_bytes, read_text
from .outfolder import OutputFolder
from .runner import ERROR, FAILED, NOT_CLAIMED, PASSED, ScenarioResult, StepResult

SCHEMA_VERSION = 4
_STEP_FIELDS = tuple(f.name for f in fields(StepResult))
SCHEMA = Path(__file__).resolve().parent / "schemas" / "report.json"
EXPECTED_FAILURE, UNEXPECTED_PASS, NOT_COVERED, SKIPPED = "expected failure", "unexpected pass", "not covered", "skipped"
DECISION_DIFFERS = "decision differs"  # a difference at a clause the model decided (the documents are silent)
# listed as an expected failure, found only by a random search (a state machine, a campaign), not hit this run
NOT_SEEN = "not seen this run"
INCONCLUSIVE = "inconclusive"  # evidence that failed elsewhere: it neither passes nor fails this clause
# A scenario's first difference is its failure; the clauses of the earlier steps that produced what it depends
# on are *suspects* (not passed, not failed), those only later failing steps applied are *consequences*.
SUSPECT, CONSEQUENCE = "suspect", "consequence"
# A clause in no certificate (fixtures/capabilities.yaml ``clauses.outside``: the emulator's and the suite's own)
NOT_CERTIFIED = "not certified"
CLAUSE_STATUSES = (FAILED, UNEXPECTED_PASS, EXPECTED_FAILURE, DECISION_DIFFERS, SUSPECT, PASSED, CONSEQUENCE,
                   INCONCLUSIVE, NOT_CLAIMED, NOT_COVERED, NOT_CERTIFIED)
EVIDENCE_STATUSES = (PASSED, FAILED, ERROR, EXPECTED_FAILURE, UNEXPECTED_PASS, NOT_SEEN, NOT_CLAIMED, SKIPPED,
                     SUSPECT, CONSEQUENCE, INCONCLUSIVE)
# How a piece of evidence counts towards its clause's status.
_CLAUSE_OF = {PASSED: PASSED, FAILED: FAILED, ERROR: FAILED, EXPECTED_FAILURE: EXPECTED_FAILURE,
              UNEXPECTED_PASS: UNEXPECTED_PASS, NOT_SEEN: EXPECTED_FAILURE, NOT_CLAIMED: NOT_CLAIMED,
              SUSPECT: SUSPECT, CONSEQUENCE: CONSEQUENCE, INCONCLUSIVE: INCONCLUSIVE}
VERDICTS = ("passed", "failed", "incomplete")
# the page for implementers on reading a report (the verdict, the causes, each failure), linked from the headline
READING = "docs/reading-a-report.md"


def reading_guide() -> str:
    """Where :data:`READING` is: the file in a clone of the suite, else its path in the suite's repository."""
    if isinstance(fixtures.ROOT, Path) and (fixtures.ROOT.parent / READING).is_file():
        return (fixtures.ROOT.parent / READING).as_uri()
    return READING
DECISION = "decision"  # the clause confidence of a rule the model decided


class ReportError(Exception):
    """A run folder that cannot be read as a report (names the file)."""


def new_run_id(adapter_name: str, root: Path = Path("reports")) -> str:
    """A run id that sorts by time and names the adapter, and that no folder under ``root`` has yet (two runs in
    one second, or two adapters whose names make the same folder name, never share a folder)."""
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    base = f"{stamp}-{safe_name(adapter_name)}"
    candidate, number = base, 1
    while (root / candidate).exists():
        number += 1
        candidate = f"{base}-{number}"
    return candidate


def safe_name(text: str) -> str:
    """``text`` as a file name: letters, digits, ``-`` and ``_`` only."""
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in text)[:80] or "adapter"


def fixtures_hash() -> str:
    """A hash of every file under fixtures/, so a report says exactly which spec it checked."""
    digest = hashlib.sha256()
    for relative, path in sorted(_files(fixtures.ROOT), key=lambda item: item[0].split("/")):
        if relative.endswith((".yaml", ".json")):
            digest.update(relative.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


CODE_PACKAGES = ("reference", "adapters", "emulator", "conformance")  # the suite's code: what decides an answer


@cache  # the code a process runs does not change under it
def code_hash() -> str:
    """A hash of the suite's own Python source (the model, the adapters, the emulator and the suite with its
    campaign generator), so a run made by edited code is another suite even at the same commit and version: a
    campaign folder never resumes with what older code drew and decided."""
    from importlib.resources import files

    digest = hashlib.sha256()
    for package in CODE_PACKAGES:
        root = files(f"mq_conformance.{package}")
        for relative, path in sorted(_files(root), key=lambda item: item[0].split("/")):
            if relative.endswith(".py"):
                digest.update(f"{package}/{relative}".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _files(folder: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Every file under ``folder`` (a folder on disk, or inside the suite's zip on a Spark executor) with its
    path relative to it, written with ``/``."""
    found = []
    for item in folder.iterdir():
        relative = f"{prefix}{item.name}"
        if item.is_dir():
            found += _files(item, relative + "/")
        elif item.is_file():
            found.append((relative, item))
    return found


def _identity_line(adapter: dict[str, Any]) -> str:
    """The implementation as it declared itself, for summary.md: name, version, the other members of its hello,
    the protocol it spoke and the capabilities it claimed."""
    hello = {k: v for k, v in (adapter.get("hello") or {}).items() if k not in ("name", "version")}
    parts = [f"{adapter['name']} {adapter['version']}".strip()]
    parts += [f"{key} {value}" for key, value in sorted(hello.items())]
    if adapter.get("protocol") is not None:
        parts.append(f"protocol {adapter['protocol']}")
    parts.append("claims " + (", ".join(adapter.get("capabilities") or []) or "nothing"))
    return for_markdown("; ".join(parts), 1000)


def git_commit() -> str:
    """The suite's git commit, or "unknown" outside a checkout."""
    if not isinstance(fixtures.ROOT, Path):  # run from the suite's zip: no checkout
        return "unknown"
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=fixtures.ROOT, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _expected(expectations: list[dict], scenario_id: str, clauses: list[str]) -> str:
    for item in expectations:
        if item.get("scenario") == scenario_id or item.get("clause") in clauses:
            return str(item.get("reason", "")) + (f" ({item['issue']})" if item.get("issue") else "")
    return ""


def scenario_record(result: ScenarioResult, expectations: list[dict] | None = None) -> dict[str, Any]:
    """One scenario's result as a JSON-able record; a listed expected failure turns failed into *expected
    failure* and passed into *unexpected pass*."""
    clauses = sorted(result.scenario.clause_ids())
    status, expected = result.status, _expected(expectations or [], result.scenario.id, clauses)
    if expected and status in (FAILED, ERROR):
        status = EXPECTED_FAILURE
    elif expected and status == PASSED:
        status = UNEXPECTED_PASS
    return {
        "id": result.scenario.id,
        "title": result.scenario.title,
        "path": str(result.scenario.path),
        "status": status,
        "reason": result.reason or expected,
        "clauses": clauses,
        # what it needs claimed: a report restricts a run to any claim from its records (as_claimed)
        "capabilities": sorted(getattr(result.scenario, "capabilities", ())),
        "steps": [_step_record(step) for step in result.steps],
    }


def _step_record(step: StepResult) -> dict[str, Any]:
    """A step's fields as they are: its call, expectation and outcome are JSON values already, and the record is
    written at once (``dataclasses.asdict`` deep-copied every one, a third of a run's report time)."""
    record = {name: getattr(step, name) for name in _STEP_FIELDS}
    # what the implementation said, bounded: a 1 MB error text on every call made a 6.6 GB results.jsonl
    record["outcome"], record["problems"] = bounded(step.outcome), bounded(step.problems)
    if not step.cites:
        del record["cites"]  # only a step that cites clauses of its own says so
    return record


class RunWriter:
    """Writes a run's results as they happen; ``campaigns`` are :func:`load_campaign` copies to include."""

    def __init__(self, directory: Path | OutputFolder, adapter: Any, profile: str = "quick",
                 expectations: list[dict] | None = None, campaigns: list[dict] | None = None,
                 planned: list[str] | None = None, strict: bool = False, spec: str | None = None,
                 command: str | None = None, seed: int | None = None):
        # every file goes through the confined folder (outfolder.py): a Path is a folder already chosen
        self.folder = directory if isinstance(directory, OutputFolder) else OutputFolder.open(directory)
        self.directory = self.folder.path
        directory = self.directory
        # written first, so that even an interrupted run's report shows them; a stale copy from an earlier run
        # into the same folder must not survive
        campaigns = [_keep_witnesses(copy, self.folder) for copy in campaigns or []]
        if campaigns:
            self.folder.write_text(json.dumps(campaigns, indent=1) + "\n", CAMPAIGN_COPIES)
        else:
            self.folder.remove(CAMPAIGN_COPIES)
        self.expectations = expectations or []
        self.meta = {
            # the entries that name campaign signatures: the report judges the campaigns it includes with them,
            # also when it is rebuilt (scenarios and tests are judged as they run)
            "expectations": [e for e in self.expectations if "signature" in e],
            "suite": {"version": __version__, "commit": git_commit(), "fixtures_hash": fixtures_hash(),
                      "code_hash": code_hash()},
            "adapter": {
                **implementation_of(adapter),
                # as the run named it (``--adapter``): what a campaign of the same implementation records
                "spec": spec if spec is not None else str(getattr(adapter, "name", "?")),
            },
            "profile": profile,
            # the random search's seed (``mqconf run --seed``): the same seed repeats the same generated sequences
            "seed": seed,
            "command": command,
            "strict": bool(strict),
            "started": _now(),
            "finished": None,
            # what the run means to give a result for: the scenario ids, and whether the tests run too
            "planned": {"scenarios": list(planned or []), "tests": False},
        }
        self._write_meta()
        self.results_path = directory / "results.jsonl"
        self.folder.write_text("", "results.jsonl")
        self._results = self.folder.append("results.jsonl")

    def _write_meta(self) -> None:
        self.folder.write_text(json.dumps(self.meta, indent=2) + "\n", "run.json")

    def plan_tests(self) -> None:
        """The run's tests (tables and state machines) are about to run: a report without their results is
        incomplete."""
        self.meta["planned"]["tests"] = True
        self._write_meta()

    def add(self, result: ScenarioResult) -> dict[str, Any]:
        """One scenario's record, appended and flushed at once (nothing of the run is held in memory); returns it
        (its status is the one the report counts: the expectations file applied)."""
        record = scenario_record(result, self.expectations)
        try:
            self._results.write(json.dumps(record) + "\n")
            self._results.flush()
        except OSError as exc:  # a full disk: name the file (the records before this one are intact)
            raise OSError(exc.errno, exc.strerror, str(self.results_path)) from None
        return record

    def finish(self, registry: Registry) -> dict[str, Path]:
        self.meta["finished"] = _now()
        self._write_meta()
        self._results.close()
        return write_reports(self.folder, registry)


# -- reading a run folder ------------------------------------------------------------------------------------

def _text(path: Path, root: Path | None = None) -> str:
    """A file of a run folder (``root``, by default the file's own folder) as text, through the confined reader
    (infiles.py: a regular file inside the folder, under a size limit); :class:`ReportError` naming it when it is
    not to be read, unreadable or not UTF-8 (a binary file in place of a record). A missing file raises
    FileNotFoundError for the caller to word."""
    try:
        return read_text(path, root=path.parent if root is None else root)
    except FileNotFoundError:
        raise
    except UnsafeFile as exc:
        raise ReportError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise ReportError(f"{path}: not UTF-8 text (byte {exc.start}), so not a file mqconf wrote") from None
    except OSError as exc:
        raise ReportError(f"{path}: cannot read it ({exc.strerror or exc})") from None


def _json(path: Path) -> Any:
    """A JSON file of a run folder; :class:`ReportError` naming it (and the line) when it cannot be read."""
    try:
        return json.loads(_text(path))
    except json.JSONDecodeError as exc:
        raise ReportError(f"{path}:{exc.lineno}: {exc.msg}") from None
    except RecursionError:
        raise ReportError(f"{path}: nested too deeply to read") from None


def _jsonl(path: Path) -> list[dict]:
    """Records of a JSON-lines file; a last line cut short by a kill is dropped, not fatal."""
    if not path.exists() and not path.is_symlink():
        return []
    records = []
    lines = _text(path).splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines):
                break
            raise ReportError(f"{path}:{number}: not a JSON record") from None
        except RecursionError:
            raise ReportError(f"{path}:{number}: nested too deeply to read") from None
    return records


def read_run(directory: Path) -> tuple[dict, list[dict], list[dict]]:
    """``run.json``, the scenario records and the test records of a run folder (the test log's own records, what
    was collected and whether pytest finished, are in ``meta["testlog"]``)."""
    meta_path = directory / "run.json"
    if not meta_path.exists() and not meta_path.is_symlink():
        raise ReportError(f"{directory}: not a run folder (no run.json)")
    meta = _json(meta_path)
    if not isinstance(meta, dict):
        raise ReportError(f"{meta_path}: not a run record (a JSON object)")
    log = [r for r in _jsonl(directory / "tests.jsonl") if isinstance(r, dict)]
    tests = [r for r in log if r.get("kind") == "test"]
    collected = next((r for r in log if r.get("kind") == "collected"), None)
    finished = next((r for r in log if r.get("kind") == "finished"), None)
    meta["testlog"] = {"collected": None if collected is None else collected.get("ids", collected.get("count")),
                       "exitstatus": None if finished is None else finished.get("exitstatus")}
    return meta, _jsonl(directory / "results.jsonl"), tests


# -- campaigns -----------------------------------------------------------------------------------------------

CAMPAIGNS = Path("reports") / "campaigns"  # where ``mqconf campaign`` writes by default (from the current folder)
CAMPAIGN_COPIES = "campaigns.json"
TOP_CLAUSES = 20  # a campaign counts hundreds of clauses: the report keeps the most applied ones

_INT = {"type": "integer", "minimum": 0}
_STR = {"type": "string"}
# The part of summary.json (conformance/campaign/run.py, write_outputs) the report reads. Checked on reading, so
# that a damaged or foreign file is one line naming what is wrong, not a KeyError later.
SUMMARY_SHAPE = {
    "type": "object",
    "required": ["campaign", "config", "run", "aggregates", "witnesses"],
    "properties": {
        "campaign": _STR,
        "config": {"type": "object", "required": ["adapter", "sequences", "length", "seed"],
                   "properties": {"adapter": _STR, "sequences": _INT, "length": _INT, "seed": {"type": "integer"},
                                  "areas": {"type": "array", "items": _STR}, "corpus": {"type": ["string", "null"]}}},
        "run": {"type": "object", "required": ["master"],
                "properties": {"master": _STR, "seconds": {"type": "number", "minimum": 0}}},
        "aggregates": {
            "type": "object",
            "required": ["sequences", "steps", "divergent_sequences", "signatures", "clauses", "coverage",
                         "table_rows"],
            "properties": {
                "sequences": _INT, "steps": _INT, "divergent_sequences": _INT,
                "signatures": {"type": "array", "items": {
                    "type": "object",
                    "required": ["op", "options", "model_reason", "impl_reason", "count", "slug", "witness"],
                    "properties": {"op": _STR, "options": _STR, "model_reason": _STR, "impl_reason": _STR,
                                   "count": {"type": "integer", "minimum": 1}, "slug": _STR,
                                   "witness": {"type": "object", "required": ["sequence_id", "length"],
                                               "properties": {"sequence_id": _STR, "length": _INT}}}}},
                "clauses": {"type": "object", "additionalProperties": _INT},
                "coverage": {"type": "object", "required": ["clauses_applied", "clauses_total", "table_rows_covered",
                                                            "table_rows_total"],
                             "additionalProperties": _INT},
                "table_rows": {"type": "object", "additionalProperties": {
                    "type": "object", "required": ["rows", "covered", "counts"],
                    "properties": {"rows": _INT, "covered": _INT,
                                   "counts": {"type": "object", "additionalProperties": _INT}}}},
            },
        },
        "witnesses": {"type": "object", "additionalProperties": _STR},
    },
}


def _check_summary(summary: Any, file: Any) -> dict[str, Any]:
    """``summary`` (parsed from ``file``) if it has the shape the report reads; ReportError naming what is wrong."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(SUMMARY_SHAPE).iter_errors(summary))
    if error is not None:
        raise ReportError(f"{file}: not a campaign summary ({error.json_path}: {error.message[:120]})")
    return summary


def _load_campaign_uri(location: str) -> dict[str, Any]:
    """:func:`load_campaign` for a campaign at a URI pyarrow reaches (campaign/store.py): the copy also holds the
    witness scenarios' texts (``fetched``), which the run writes into its own folder so they run as they are."""
    from urllib.parse import urlsplit, urlunsplit

    from .campaign.store import CampaignError, Store, join, shown

    split = urlsplit(location)
    if split.path.rstrip("/").endswith("/summary.json"):
        location = urlunsplit(split._replace(path=split.path.rstrip("/")[:-len("/summary.json")]))
    file = shown(join(location, "summary.json"))
    try:
        store = Store(location)
        text = store.read_text("summary.json")
    except FileNotFoundError:
        raise ReportError(f"{file}: no summary.json there (did the campaign finish?); give a campaign folder "
                          "or its summary.json") from None
    except CampaignError as exc:
        raise ReportError(str(exc)) from None
    try:
        summary = _check_summary(json.loads(text), file)
    except json.JSONDecodeError as exc:
        raise ReportError(f"{file}:{exc.lineno}: not JSON ({exc.msg})") from None
    witnesses, fetched = {}, {}
    for slug, recorded in summary["witnesses"].items():
        name = Path(str(recorded)).name
        witnesses[slug] = shown(store.uri("witnesses", name))
        try:
            fetched[slug] = store.read_text("witnesses", name)
        except (FileNotFoundError, CampaignError):
            raise ReportError(f"{witnesses[slug]}: cannot read this witness of the campaign") from None
    return {"source": file, "witnesses": witnesses, "summary": summary, "fetched": fetched}


def load_campaign(path: Path | str) -> dict[str, Any]:
    """A campaign's ``summary.json`` (``path`` is the campaign folder or the file itself, a local path or a URI
    pyarrow reaches such as ``s3://bucket/campaigns/ID``) as the copy a run keeps: ``{"source": absolute path,
    "witnesses": {slug: absolute path}, "summary": the file as is}``. Raises :class:`ReportError` (one line naming
    the file) when it is missing, unreadable or not a campaign summary."""
    from .campaign.store import is_uri

    if is_uri(str(path)):
        return _load_campaign_uri(str(path))
    path = Path(path)
    file = path / "summary.json" if path.is_dir() else path
    try:
        summary = json.loads(read_text(file, root=file.parent))
    except FileNotFoundError:
        where = "no summary.json in that folder (did the campaign finish?)" if path.is_dir() else "no such file"
        raise ReportError(f"{file}: {where}; give a campaign folder under {CAMPAIGNS} or its summary.json") from None
    except UnsafeFile as exc:
        raise ReportError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"{file}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    except json.JSONDecodeError as exc:
        raise ReportError(f"{file}:{exc.lineno}: not JSON ({exc.msg})") from None
    _check_summary(summary, file)
    file = file.resolve()
    witnesses = {}
    for slug, recorded in summary["witnesses"].items():
        # summary.json records paths as seen from where `mqconf campaign` ran; the file's own folder is surer
        beside = file.parent / "witnesses" / Path(recorded).name
        witnesses[slug] = str(beside if beside.exists() else Path(recorded).resolve())
    return {"source": str(file), "witnesses": witnesses, "summary": summary}


def _campaign_adapter(folder: Path) -> str | None:
    """The adapter a campaign folder was run on (its settings, else its summary); None when neither says."""
    for name in ("campaign.json", "summary.json"):
        try:
            data = json.loads(read_text(folder / name, root=folder))
            adapter = data["adapter"] if name == "campaign.json" else data["config"]["adapter"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if isinstance(adapter, str):
            return adapter
    return None


def latest_campaign(adapter: str, root: Path = CAMPAIGNS, warn=None) -> dict[str, Any] | None:
    """The most recent campaign under ``root`` run on ``adapter`` (newest ``summary.json``), as
    :func:`load_campaign` gives it; None when there is none. A newer one that cannot be read (an interrupted
    campaign, a damaged file) is passed over with one line to ``warn``."""
    if not root.is_dir():
        return None
    found = []
    for folder in root.iterdir():
        if folder.is_dir() and _campaign_adapter(folder) == adapter:
            stamped = folder / "summary.json" if (folder / "summary.json").exists() else folder
            found.append((stamped.stat().st_mtime, folder.name, folder))
    for _, _, folder in sorted(found, reverse=True):
        try:
            return load_campaign(folder)
        except ReportError as exc:
            if warn is not None:
                warn(f"campaign skipped: {exc}")
    return None


def _relative(path: str, start: Path) -> str:
    """``path`` relative to ``start`` where that can be said (not across Windows drives)."""
    try:
        return os.path.relpath(path, start.resolve())
    except ValueError:
        return path


def _command_path(path: str) -> str:
    """A witness's path for a command run from the suite's folder (as ``make`` and the README do)."""
    try:
        return str(Path(path).relative_to(fixtures.ROOT.parent.resolve()))
    except ValueError:
        return path


def campaign_section(copy: dict[str, Any], directory: Path, adapter: dict | None = None) -> dict[str, Any]:
    """One entry of the report's ``campaigns``: a campaign's settings, headline numbers, coverage per table,
    every divergence signature with its witness scenario and the command that runs it, and the most applied
    clauses. Paths are relative to the report folder ``directory`` where possible. ``identity_differs``: how the
    implementation the campaign recorded (identity.py) differs from the run's ``adapter`` - the same adapter
    string may reach another program since - one line each; empty when they agree or the campaign recorded none."""
    summary = copy["summary"]
    recorded = (summary.get("identity") or {}).get("implementation") if isinstance(summary.get("identity"), dict) \
        else None
    differs: list[str] = []
    if isinstance(recorded, dict) and adapter is not None:
        from .identity import differences

        now = {k: v for k, v in adapter.items() if k != "spec"}
        differs = [f"implementation.{line}" for line in differences(recorded, now)]
    config, run, aggregates = summary["config"], summary["run"], summary["aggregates"]
    signatures = []
    for signature in aggregates["signatures"]:
        witness = copy["witnesses"].get(signature["slug"])
        command = (f"mqconf scenario {shlex.quote(_command_path(witness))} --adapter {shlex.quote(config['adapter'])}"
                   if witness else None)
        signatures.append({
            **{k: signature[k] for k in ("op", "options", "model_reason", "impl_reason", "count", "slug")},
            "fields": str(signature.get("fields") or ""),  # a campaign of an earlier suite did not record them
            "witness": {"sequence_id": signature["witness"]["sequence_id"], "length": signature["witness"]["length"],
                        "path": _relative(witness, directory) if witness else None, "command": command}})
    clauses = sorted(aggregates["clauses"].items(), key=lambda item: (-item[1], item[0]))
    return {
        "id": summary["campaign"],
        "adapter": config["adapter"],
        "summary": copy["source"] if "://" in copy["source"] else _relative(copy["source"], directory),
        "master": run["master"],
        "seconds": run.get("seconds"),
        "sequences": aggregates["sequences"],
        "length": config["length"],
        "seed": config["seed"],
        "areas": list(config.get("areas") or []),
        "corpus": config.get("corpus"),
        "steps": aggregates["steps"],
        "divergent_sequences": aggregates["divergent_sequences"],
        "coverage": {k: aggregates["coverage"][k]
                     for k in ("clauses_applied", "clauses_total", "table_rows_covered", "table_rows_total")},
        "tables": {table_id: {"rows": table["rows"], "covered": table["covered"],
                              "uncovered": [row for row, n in table["counts"].items() if not n]}
                   for table_id, table in sorted(aggregates["table_rows"].items())},
        "signatures": signatures,
        "clauses_counted": sum(1 for _, n in clauses if n),
        "top_clauses": [{"id": clause_id, "count": n} for clause_id, n in clauses[:TOP_CLAUSES] if n],
        "identity_differs": differs,
    }


def _keep_witnesses(copy: dict[str, Any], folder: OutputFolder) -> dict[str, Any]:
    """A campaign copy whose witnesses were fetched from a URI (:func:`_load_campaign_uri`) with them written
    into the run folder (``campaign-witnesses/<campaign>/``), where they run as scenarios; other copies as is."""
    fetched = copy.get("fetched")
    if not fetched:
        return {k: v for k, v in copy.items() if k != "fetched"}
    name = safe_name(str(copy["summary"]["campaign"]))
    witnesses = {}
    for slug, text in fetched.items():
        target = folder.write_text(text, "campaign-witnesses", name, f"{safe_name(slug)}.yaml")
        witnesses[slug] = str(target.resolve())
    return {**{k: v for k, v in copy.items() if k != "fetched"}, "witnesses": witnesses}


def read_campaigns(directory: Path) -> list[dict[str, Any]]:
    """The campaign copies a run folder keeps (none when it has no ``campaigns.json``)."""
    path = directory / CAMPAIGN_COPIES
    if not path.exists():
        return []
    copies = _json(path)
    if not isinstance(copies, list) or not all(isinstance(c, dict) and {"source", "witnesses", "summary"} <= set(c)
                                               for c in copies):
        raise ReportError(f"{path}: not a list of campaign copies")
    return copies


# -- the report ----------------------------------------------------------------------------------------------

def failing_sequence(record: dict) -> list[dict]:
    """The calls of a failing scenario up to and including its first failing step: the sequence to replay."""
    calls = []
    for step in record["steps"]:
        calls.append(step["call"])
        if step["status"] in (FAILED, ERROR):
            break
    return calls


def _failing(step: dict) -> bool:
    return step["status"] in (FAILED, ERROR)


def scenario_blame(record: dict) -> tuple[list[str], list[str]]:
    """What a failing scenario blames, and what else was applied where it failed: the clauses the scenario cites
    that the model applied at its first failing step (none when it cites none of those), and the other
    clauses applied there ("also applied": shown, not failed). A failing step that cites clauses of its own blames
    those alone: a step breaking two rules at once, where IBM gives no order, cites the decision that orders them.
    Later failing steps are consequences (:func:`scenario_analysis`)."""
    analysis = scenario_analysis(record)
    return analysis["blamed"], analysis["also_applied"]


def scenario_analysis(record: dict) -> dict[str, Any]:
    """A failing scenario read as an outsider needs it: its first failing step is *the* failure, blamed on the
    clauses the scenario cites that the model applied there; every later failing step is a *consequence* (its
    cited clauses are listed, not failed: an earlier difference left the queue manager elsewhere than the
    scenario expects); and the earlier steps that produced what the failure depends on are *suspects*, with the
    clauses the scenario cites that the model applied at them: a step that bound a variable the failing step uses
    (``$c`` from a put's CorrelId), and a step whose bound value stands to the scenario's identifiers otherwise
    than the model's (the implementation returned the CorrelId given, where the model generated one)."""
    cited = set(record["clauses"])
    steps = record["steps"]
    first = next((i for i, step in enumerate(steps) if _failing(step)), None)
    if first is None:  # no step differed (a scenario that could not start): no rule is blamed
        return {"first": None, "blamed": [],
                "also_applied": [], "consequences": [], "consequence_clauses": [], "suspects": [],
                "suspect_clauses": []}
    failing = steps[first]
    applied = set(failing["clauses"])
    # a clause fails only by a difference at a step that applies it: a scenario citing it elsewhere is no blame
    blamed = set(failing.get("cites") or ()) or (cited & applied)
    later = [step for step in steps[first + 1:] if _failing(step)]
    consequence_clauses = {c for step in later for c in step["clauses"]} & cited - blamed
    producers = {name: index for index, step in enumerate(steps[:first]) for name in step.get("binds") or []}
    suspects: list[dict[str, Any]] = []
    for index, step in enumerate(steps[:first]):
        used = sorted(name for name in failing.get("uses") or [] if producers.get(name) == index)
        why = [f"bound {', '.join(used)}, which the failing step uses"] if used else []
        why += list(step.get("unlike_model") or [])
        if why:
            suspects.append({"index": step["index"], "line": step["line"], "op": step["op"], "why": why,
                             "clauses": sorted(cited & set(step["clauses"]) - blamed)})
    suspect_clauses = sorted({c for suspect in suspects for c in suspect["clauses"]})
    return {"first": failing, "blamed": sorted(blamed), "also_applied": sorted(applied - blamed),
            "consequences": later, "consequence_clauses": sorted(consequence_clauses - set(suspect_clauses)),
            "suspects": suspects, "suspect_clauses": suspect_clauses}


def blame_of_test(record: dict) -> tuple[list[str], list[str]]:
    """What a failing test blames, and what else its failure names. A state machine's divergence names the
    clauses the model applied at the diverging call: those the test declares are blamed (all of them when it
    declares none of those), the rest are "also applied". A failure that names none blames the declared clauses."""
    named, declared = list(record.get("blamed") or []), list(record["clauses"])
    if record.get("failure") == "suite":  # the suite itself crashed: no rule of the implementation's is blamed
        return [], []
    if record.get("random_search"):
        # a random search (a state machine, a property test) fails the run, and shows the clauses the model applied
        # where it diverged, but fails none: which divergence it finds depends on the seed, and a clause's verdict
        # must not (the scenarios and table tests, which do not search, give it)
        return [], named
    if not named:
        return declared, []
    blamed = [c for c in named if c in declared] or named
    return blamed, [c for c in named if c not in blamed]


def step_label(steps: list[dict], index: int) -> str:
    """A step as the scenario's author counts it: ``step N`` among the steps the file lists (the set-up steps
    that ``setup:`` expands into come first and are not counted), or ``set-up step N``."""
    step = steps[index] if 0 <= index < len(steps) else {}
    before = steps[:index]
    if step.get("setup"):
        return f"set-up step {sum(1 for s in before if s.get('setup')) + 1}"
    return f"step {sum(1 for s in before if not s.get('setup')) + 1}"


def shown_path(path: str) -> str:
    """A scenario's path as a report shows it: relative to the current folder, or to the folder above the suite's
    fixtures (``fixtures/scenarios/...``, wherever the suite is installed), else as it is."""
    for base in (Path.cwd(), fixtures.ROOT.parent if isinstance(fixtures.ROOT, Path) else None):
        if base is None:
            continue
        try:
            return str(Path(path).resolve().relative_to(Path(base).resolve()))
        except (ValueError, OSError):
            continue
    return path


def scenario_failure(record: dict) -> dict:
    """A failing scenario's entry of the report's ``failures`` (:func:`scenario_analysis`)."""
    analysis = scenario_analysis(record)
    step = analysis["first"]
    steps = record["steps"]
    path = shown_path(record["path"])
    failure = {"kind": "scenario", "id": record["id"], "status": record["status"], "path": path,
               "title": record.get("title", ""), "sequence": failing_sequence(record),
               "clauses": analysis["blamed"], "also_applied": analysis["also_applied"],
               "message": record.get("reason", ""),
               "suspects": analysis["suspect_clauses"], "consequences": analysis["consequence_clauses"],
               "suspect_steps": [{**{k: s[k] for k in ("index", "line", "op", "why")},
                                  "label": step_label(steps, s["index"])} for s in analysis["suspects"]],
               "consequence_steps": [{"index": s["index"], "line": s["line"], "op": s["op"],
                                      "label": step_label(steps, s["index"]),
                                      "problems": s["problems"], "clauses": sorted(set(s["clauses"])
                                                                                   & set(record["clauses"]))}
                                     for s in analysis["consequences"]]}
    if record["status"] == EXPECTED_FAILURE:
        failure["expected_reason"] = record.get("reason") or ""
    if step is not None:
        label = step_label(steps, step["index"])
        failure["step"] = {"index": step["index"], "line": step["line"], "op": step["op"], "expected": step["expect"],
                           "actual": step["outcome"], "problems": step["problems"], "call": step["call"],
                           "label": label, "status": step["status"]}
        # the heading names the first difference (its own status: a later error does not make it one)
        failure["first_difference"] = f"{step['status']} at {label} ({step['op']}, line {step['line']})"
        error = (step["outcome"] or {}).get("error")
        failure["difference"] = {
            "call": step["call"], "where": f"{path}:{step['line']}, {label}",
            "expected_from": "the scenario",
            "problems": [error_answer(error)] if error is not None and (
                step["status"] == ERROR) else list(step["problems"])}
    return failure


def failure_of_test(record: dict, divergences: list[dict]) -> dict:
    """A failing test's entry of the report's ``failures``: what it blames, its difference (a table test's, or
    built from a state machine's divergence record), its one-line message."""
    blamed, also = blame_of_test(record)
    failure = {"kind": "test", "id": record["id"], "status": record["status"], "clauses": blamed,
               "also_applied": also, "message": record.get("message", ""), "sequence": []}
    if record["status"] in (EXPECTED_FAILURE, NOT_SEEN):
        failure["expected_reason"] = record.get("message", "")
    for divergence in divergences:
        if divergence["file"] in failure["message"]:
            failure["divergence"] = divergence
            failure["sequence"] = list(divergence.get("sequence", []))
    if isinstance(record.get("difference"), dict):  # a table test's Difference (conformance/difference.py)
        failure["difference"] = record["difference"]
    elif failure.get("divergence", {}).get("problems"):
        divergence = failure["divergence"]
        failure["difference"] = {"call": divergence.get("call") or {}, "expected_from": THE_MODEL,
                                 "problems": [model_problem(p) for p in divergence["problems"]]}
    return failure


def read_divergences(directory: Path) -> list[dict]:
    """The minimal scenarios the state machines wrote into the run's ``divergences/`` folder, each with the
    record written beside it (conformance/differential.py :func:`~mq_conformance.conformance.differential.write_divergence`):
    ``file``, ``path`` (in the run folder), ``scenario`` (its text), and from the record the ``summary`` line,
    the diverging ``call``, the ``fields`` that differed, the ``clauses`` the model applied there, the call
    ``sequence`` and the ``commands`` that run it on the model and on the implementation. Everything in them
    came from the implementation's answers: it is text to show escaped, never to run."""
    folder = directory / "divergences"
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            text = read_bytes(path, root=directory).decode("utf-8", errors="replace")
        except UnsafeFile as exc:
            raise ReportError(str(exc)) from None
        except OSError:
            continue
        entry: dict[str, Any] = {"file": path.name, "path": f"divergences/{path.name}", "scenario": text}
        try:
            record = json.loads(read_text(path.with_suffix(".json"), root=directory))
        except UnsafeFile as exc:
            raise ReportError(str(exc)) from None
        except (OSError, ValueError):
            record = None
        if isinstance(record, dict):
            for key, kind in (("machine", str), ("summary", str), ("call", dict), ("fields", list),
                              ("problems", list), ("clauses", list), ("sequence", list), ("commands", list),
                              ("calls_found", int), ("calls_shrunk", int), ("replays", int)):
                if isinstance(record.get(key), kind):
                    entry[key] = record[key]
        found.append(entry)
    return found


def table_coverage(records: list[dict], tests: list[dict]) -> dict[str, dict]:
    """For every row of fixtures/tables: how many scenario steps the model decided by it, and how many tests
    pin it. Rows never exercised show 0."""
    from mq_conformance.reference.tables import Spec

    steps: Counter[str] = Counter()
    for record in records:
        for step in record["steps"]:
            steps.update(step["clauses"])
    pinned: Counter[str] = Counter(c for t in tests for c in set(t["clauses"]))
    return {
        table.id: {"title": table.title,
                   "rows": [{"id": row.id, "steps": steps.get(row.id, 0), "tests": pinned.get(row.id, 0)}
                            for row in table.rows]}
        for table in Spec.load().tables.values()
    }


def missing_results(meta: dict, records: list[dict], tests: list[dict]) -> dict[str, Any]:
    """What a run planned and has no result for: scenario ids, test ids, and one line per reason (the run did
    not finish; pytest was killed before it finished; tests never collected). Empty lists when nothing is
    missing."""
    reasons: list[str] = []
    planned = meta.get("planned") if isinstance(meta.get("planned"), dict) else {}
    wanted = [i for i in planned.get("scenarios") or [] if isinstance(i, str)]
    done = {r.get("id") for r in records}
    scenarios = [i for i in wanted if i not in done]
    if scenarios:
        reasons.append(f"{len(scenarios)} of {len(wanted)} planned scenarios have no result")
    missing_tests: list[str] = []
    if planned.get("tests"):
        log = meta.get("testlog") or {}
        collected, exitstatus = log.get("collected"), log.get("exitstatus")
        ran = {t["id"] for t in tests}
        if collected is None:
            reasons.append("the tests (tables and state machines) never reported what they collected")
        elif isinstance(collected, list):
            missing_tests = [str(i) for i in collected if i not in ran]
            if missing_tests:
                reasons.append(f"{len(missing_tests)} of {len(collected)} collected tests have no result")
        elif isinstance(collected, int) and not isinstance(collected, bool) and len(ran) < collected:
            reasons.append(f"{collected - len(ran)} of {collected} collected tests have no result")
        if collected is not None and exitstatus is None:
            reasons.append("pytest stopped before it finished (killed, or out of memory or disk)")
        elif exitstatus not in (None, 0, 1, 5):
            reasons.append(f"pytest ended with exit status {exitstatus} (interrupted or an internal error)")
    if not meta.get("finished"):
        reasons.append("the run did not finish")
    return {"scenarios": scenarios, "tests": missing_tests, "reasons": reasons}


def as_claimed(meta: dict, records: list[dict], tests: list[dict], claim: frozenset[str] | set[str]
               ) -> tuple[dict, list[dict], list[dict]]:
    """A run's records as a run of the same implementation claiming only ``claim`` would have them: every
    scenario and test needing a capability outside it *not claimed*, as the runner and the suite's pytest plugin
    record it, the rest as they are. A check's result does not depend on what else is claimed (the runner and the
    plugin only run or skip it), so a certificate of any claim is a function of one run's results under a larger
    one (tests/test_claims.py runs a claim for real and compares)."""
    claim = frozenset(claim) | {"core"}

    def missing(item: dict) -> list[str]:
        return sorted(set(item.get("capabilities") or ()) - claim)

    scenarios = [item if not missing(item) else
                 {**item, "status": NOT_CLAIMED, "steps": [], "reason": f"adapter does not claim {', '.join(missing(item))}"}
                 for item in records]
    checks = [item if not missing(item) else
              {**item, "status": NOT_CLAIMED, "blamed": [], "duration": 0.0, "when": "setup",
               "message": f"not claimed: adapter does not claim {', '.join(missing(item))}"}
              for item in tests]
    adapter = {**meta["adapter"], "capabilities": sorted(claim & set(meta["adapter"].get("capabilities") or ()))}
    return {**meta, "adapter": adapter}, scenarios, checks


def build_report(directory: Path, registry: Registry, claim: frozenset[str] | None = None) -> dict[str, Any]:
    """The conformance report of a run folder: the suite, the implementation, every clause's status with its
    evidence, every failure with its minimal call sequence and the clauses it blames, the coverage of every
    table row, what is missing, and the one verdict. ``claim``: the report of the same run as a claim of only
    those capabilities (:func:`as_claimed`)."""
    meta, records, tests = read_run(directory)
    if claim is not None:
        meta, records, tests = as_claimed(meta, records, tests, claim)
    strict = bool(meta.get("strict"))
    divergences = read_divergences(directory)
    applied: Counter[str] = Counter()
    evidence: dict[str, dict[str, dict[str, str]]] = {}

    def cite(clause_id: str, kind: str, item_id: str, status: str) -> None:
        slot = evidence.setdefault(clause_id, {"scenarios": {}, "tests": {}})[kind]
        if status in (FAILED, ERROR) or item_id not in slot:
            slot[item_id] = status

    failures = []
    for record in records:
        for step in record["steps"]:
            applied.update(step["clauses"])
        analysis = scenario_analysis(record) if record["status"] in (FAILED, ERROR, EXPECTED_FAILURE) else None
        for clause_id in record["clauses"]:
            status = record["status"]
            if analysis is not None and clause_id not in analysis["blamed"]:
                # the scenario failed, but not at a step that applied this clause: a suspect when a step that
                # produced what the failure depends on applied it, a consequence when only a later failing step
                # did, else neither passed nor failed by this scenario
                status = (SUSPECT if clause_id in analysis["suspect_clauses"] else
                          CONSEQUENCE if clause_id in analysis["consequence_clauses"] else INCONCLUSIVE)
            cite(clause_id, "scenarios", record["id"], status)
        if record["status"] in (FAILED, ERROR, EXPECTED_FAILURE, UNEXPECTED_PASS):
            failures.append(scenario_failure(record))
    for test in tests:
        blamed = set(blame_of_test(test)[0]) if test["status"] in (FAILED, ERROR) else None
        for clause_id in set(test["clauses"]) | (blamed or set()):
            status = test["status"]
            if blamed is not None and clause_id not in blamed:
                status = INCONCLUSIVE
            cite(clause_id, "tests", test["id"], status)
        if test["status"] in (FAILED, ERROR, EXPECTED_FAILURE, UNEXPECTED_PASS, NOT_SEEN):
            failures.append(failure_of_test(test, divergences))

    def is_decision(clause_id: str) -> bool:
        clause = registry.get(clause_id)
        return clause is not None and clause.confidence == DECISION

    claimed = frozenset(meta["adapter"].get("capabilities") or ())

    def counted(clause_id: str) -> bool:
        clause = registry.get(clause_id)
        return clause is None or clause.counted_in(claimed)  # an unknown id stays visible (unknown_clauses)

    for failure in failures:
        # blame stays within the claim: a clause of a capability not claimed is shown as applied, never failed
        outside = [c for c in failure["clauses"] if not counted(c)]
        if outside:
            failure["clauses"] = [c for c in failure["clauses"] if counted(c)]
            failure["also_applied"] = sorted({*failure["also_applied"], *outside})
        # a difference only at clauses the model decided does not fail a certificate unless it claims strict
        failure["decision_only"] = bool(failure["clauses"]) and all(map(is_decision, failure["clauses"]))
        failure["counts"] = failure["status"] in (UNEXPECTED_PASS, EXPECTED_FAILURE, NOT_SEEN) or (
            failure["status"] in (FAILED, ERROR) and (strict or not failure["decision_only"]))
    failures_of: dict[str, list[str]] = {}
    for failure in failures:
        for clause_id in failure["clauses"]:
            failures_of.setdefault(clause_id, []).append(failure["id"])
    clauses = {}
    for clause_id, clause in sorted(registry.clauses.items()):
        found = evidence.get(clause_id, {"scenarios": {}, "tests": {}})
        kinds = {_CLAUSE_OF.get(s) for part in found.values() for s in part.values()} - {None, NOT_CLAIMED}
        status = next((s for s in CLAUSE_STATUSES if s in kinds), NOT_COVERED)
        if clause.outside:
            status = NOT_CERTIFIED
        elif not clause.counted_in(claimed):
            status = NOT_CLAIMED
        elif status == FAILED and clause.confidence == DECISION and not strict:
            status = DECISION_DIFFERS
        clauses[clause_id] = {
            "area": clause.area, "rule": clause.rule, "status": status, "applied": applied.get(clause_id, 0),
            "capabilities": sorted(clause.capabilities), "outside": clause.outside,
            "confidence": clause.confidence, "decision": clause.decision,
            "scenarios": sorted(found["scenarios"]), "tests": sorted(found["tests"]),
            "evidence": [{"kind": kind[:-1], "id": k, "status": v}
                         for kind in ("scenarios", "tests") for k, v in sorted(found[kind].items())],
            "failures": failures_of.get(clause_id, []),
        }
    # clauses cited by evidence but missing from the registry are reported, not dropped
    unknown = sorted(set(evidence) - set(registry.clauses))

    areas: dict[str, Counter] = {}
    for clause in clauses.values():
        areas.setdefault(clause["area"], Counter())[clause["status"]] += 1
    by_status = {status: sum(1 for c in clauses.values() if c["status"] == status) for status in CLAUSE_STATUSES}
    missing = missing_results(meta, records, tests)
    campaigns = [campaign_section(copy, directory, meta["adapter"]) for copy in read_campaigns(directory)]
    expectations = [e for e in meta.get("expectations") or [] if isinstance(e, dict) and "signature" in e]
    failures += campaign_failures(campaigns, meta["adapter"], expectations)
    causes = group_causes(failures, records)
    # the detail in the causes' order, largest first; what does not fail the run (expected, decided) after
    rank = {cause["key"]: number for number, cause in enumerate(causes)}
    failures.sort(key=lambda failure: rank.get(failure.get("cause"), len(rank)))
    return {
        "schema_version": SCHEMA_VERSION,
        "suite": meta["suite"],
        "adapter": meta["adapter"],
        "profile": meta.get("profile", "quick"),
        "seed": meta.get("seed"),
        "command": meta.get("command"),
        "strict": strict,
        "started": meta["started"],
        "finished": meta.get("finished"),
        "complete": not missing["reasons"],
        "missing": missing,
        "verdict": verdict(failures, by_status, len(clauses), missing, strict,
                           partial=not (meta.get("planned") or {}).get("tests", True),
                           expected=sum(1 for item in (*records, *tests) if item["status"] == EXPECTED_FAILURE)
                           + sum(f["kind"] == "campaign" and f["status"] == EXPECTED_FAILURE for f in failures)),
        "summary": {
            **_counts(records, "scenarios"),
            "tests": _counts(tests, "total"),
            "clauses": len(clauses),
            "clauses_by_status": by_status,
            "areas": {area: {"total": sum(c.values()), **{s: c.get(s, 0) for s in CLAUSE_STATUSES},
                             "uncovered": sorted(i for i, cl in clauses.items()
                                                 if cl["area"] == area and cl["status"] == NOT_COVERED)}
                      for area, c in sorted(areas.items())},
        },
        "clauses": clauses,
        "unknown_clauses": unknown,
        "causes": causes,
        "failures": failures,
        "tables": table_coverage(records, tests),
        "scenarios": records,
        "tests": tests,
        "divergences": divergences,
        "campaigns": campaigns,
    }


def judge_signatures(signatures: list[dict], expectations: list[dict]) -> tuple[dict[str, str], list[dict]]:
    """A campaign's signatures judged by an implementation's expectations: the reason of each listed signature
    found (by slug), and the entries naming a signature not found - a campaign is a random search, so those are
    *not seen this run*, never unexpected passes."""
    found = {signature["slug"] for signature in signatures}
    listed = {}
    for entry in expectations:
        if "signature" in entry and entry["signature"] in found and entry["signature"] not in listed:
            listed[entry["signature"]] = str(entry.get("reason", "")) + (
                f" ({entry['issue']})" if entry.get("issue") else "")
    unseen = [entry for entry in expectations if "signature" in entry and entry["signature"] not in found]
    return listed, unseen


def campaign_failures(campaigns: list[dict], adapter: dict, expectations: list[dict] | None = None) -> list[dict]:
    """Each divergence signature of an included campaign that ran on this run's implementation, as a failure
    (a campaign of another adapter is shown, not counted): *expected failure* where the implementation's
    expectations list it, and each listed signature none of those campaigns found is *not seen this run*. They
    blame no clause: the witness scenario shows it."""
    same = {adapter.get("spec"), adapter.get("name")}
    failures = []
    # a campaign of this adapter string that recorded another implementation (another program since) is shown,
    # not counted: its signatures are not this implementation's
    mine = [campaign for campaign in campaigns if campaign["adapter"] in same and not campaign.get("identity_differs")]
    listed, unseen = judge_signatures([s for c in mine for s in c["signatures"]], expectations or [])
    for entry in unseen if mine else []:
        failures.append({
            "kind": "campaign", "id": f"{mine[0]['id']}/{entry['signature']}", "status": NOT_SEEN, "clauses": [],
            "also_applied": [], "sequence": [], "decision_only": False, "counts": True,
            "expected_reason": str(entry.get("reason", "")) + (f" ({entry['issue']})" if entry.get("issue") else ""),
            "message": f"signature {entry['signature']} is listed as expected, and no included campaign of this "
                       "implementation found it (a random search)"})
    for campaign in mine:
        for signature in campaign["signatures"]:
            reason = listed.get(signature["slug"])
            failures.append({
                "kind": "campaign", "id": f"{campaign['id']}/{signature['slug']}",
                "status": FAILED if reason is None else EXPECTED_FAILURE, "clauses": [],
                "op": signature["op"], "options": signature["options"],
                **({} if reason is None else {"expected_reason": reason}),
                "also_applied": [], "sequence": [], "decision_only": False, "counts": True,
                # the same layout as every other difference: the call, each field, where it comes from
                "difference": {"call": {"op": signature["op"], **({"Options": signature["options"].split("+")}
                                                                  if signature["options"] else {})},
                               "problems": [field_problem("Reason", signature["model_reason"], signature["impl_reason"])]
                               + ([f"fields that differ: {signature['fields']}"] if signature.get("fields") else []),
                               "expected_from": THE_MODEL,
                               "where": f"campaign {campaign['id']}, {signature['count']} sequence(s); witness "
                                        f"{signature['witness']['path'] or '(none recorded)'}"},
                "message": f"campaign {campaign['id']}: {signature['count']} sequence(s) diverge at "
                           f"{signature['op']} [{signature['options'] or 'no options'}]"
                           + (f" in {signature['fields']}" if signature.get("fields") else "") + ": model "
                           f"{signature['model_reason']}, implementation {signature['impl_reason']}; witness "
                           f"{signature['witness']['path'] or '(none recorded)'}"})
    return failures


def verdict(failures: list[dict], by_status: dict[str, int], total: int, missing: dict, strict: bool,
            expected: int | None = None, partial: bool = False) -> dict:
    """The run's one verdict (passed, failed or incomplete), its headline and the reasons, from every failure
    (scenarios, tests and campaign signatures, with or without clauses), the clause statuses and what is
    missing. ``expected``: the scenarios, tests and campaign signatures that failed as the implementation's
    expectations file says.

    The headline's ratio is over the clauses the implementation claims (all but those *not claimed*), with a
    percentage that never rounds up to 100% nor down to 0% (:func:`percent`); the clauses not claimed are
    named beside it."""
    counted = [f for f in failures if f["counts"]]
    signatures = sum(1 for f in counted if f["kind"] == "campaign" and f["status"] == FAILED)
    scenarios = sum(1 for f in counted if f["kind"] == "scenario" and f["status"] in (FAILED, ERROR))
    # an error answer (the implementation said it cannot: "not implemented") is named apart from wrong answers
    scenario_errors = sum(1 for f in counted if f["kind"] == "scenario" and f["status"] == ERROR)
    tests = [f for f in counted if f["kind"] == "test" and f["status"] in (FAILED, ERROR)]
    test_errors = sum(1 for f in tests if f["status"] == ERROR)
    unclaused = sum(1 for f in tests if not f["clauses"])
    unexpected = sum(1 for f in counted if f["status"] == UNEXPECTED_PASS)
    # listed by the implementation: still failed. One count: the scenarios and tests that failed as listed.
    known = expected if expected is not None else sum(1 for f in failures if f["status"] == EXPECTED_FAILURE)
    decisions = sum(1 for f in failures if f["decision_only"] and not f["counts"])
    # listed, and a random search did not hit them this run: still listed as failing by the implementation
    unseen = sum(1 for f in failures if f["status"] == NOT_SEEN)
    counts = {"failed_clauses": by_status.get(FAILED, 0), "failed_scenarios": scenarios, "failed_tests": len(tests),
              "failed_tests_without_clause": unclaused, "unexpected_passes": unexpected, "expected_failures": known,
              "not_seen": unseen, "decision_differences": decisions, "campaign_signatures": signatures,
              "error_scenarios": scenario_errors, "error_tests": test_errors}
    reasons = []
    if counts["failed_clauses"]:
        reasons.append(f"{counts['failed_clauses']} clause{'s' * (counts['failed_clauses'] != 1)} failed")
    if scenarios - scenario_errors:
        reasons.append(f"{scenarios - scenario_errors} scenario{'s' * (scenarios - scenario_errors != 1)} failed")
    if scenario_errors:
        reasons.append(f"{scenario_errors} scenario{'s' * (scenario_errors != 1)} answered with an error")
    if len(tests) - test_errors:
        reasons.append(f"{len(tests) - test_errors} test{'s' * (len(tests) - test_errors != 1)} failed"
                       + (f" ({unclaused} citing no clause)" if unclaused else ""))
    if test_errors:
        reasons.append(f"{test_errors} test{'s' * (test_errors != 1)} answered with an error")
    if signatures:
        reasons.append(f"{signatures} campaign divergence signature{'s' * (signatures != 1)}")
    if unexpected:
        reasons.append(f"{unexpected} expected failure{'s' * (unexpected != 1)} passed")
    if known:
        clauses = by_status.get(EXPECTED_FAILURE, 0)
        reasons.append(f"{known} expected failure{'s' * (known != 1)} (listed by the implementation"
                       + (f"; {clauses} clause{'s' * (clauses != 1)}" if clauses else "") + ")")
    if unseen:
        reasons.append(f"{unseen} expected failure{'s' * (unseen != 1)} not seen this run (listed by the "
                       "implementation; a random search that did not hit {})".format("them" if unseen != 1 else "it"))
    status = "incomplete" if missing["reasons"] else "failed" if reasons else "passed"
    if missing["reasons"]:
        reasons = missing["reasons"] + reasons
    passed = by_status.get(PASSED, 0)
    unclaimed = by_status.get(NOT_CLAIMED, 0)
    # the denominator is the claim's clauses (capabilities.yaml), whatever an expectations file says; a claimed
    # clause no check reached is a defect of the suite, named apart and never counted against the implementation
    unreached = by_status.get(NOT_COVERED, 0)
    claimed = total - unclaimed - by_status.get(NOT_CERTIFIED, 0) - unreached
    counts.update(claimed_clauses=claimed, passed_clauses=passed, unreached_clauses=unreached)
    headline = f"{status.upper()}: {passed}/{claimed} claimed clauses passed ({percent(passed, claimed)})"
    if unclaimed:
        headline += f", {unclaimed} not claimed"
    if unreached:
        headline += (f", {unreached} claimed clause{'s' * (unreached != 1)} "
                     + ("this partial run did not check (not counted)" if partial else
                        "no check reached (a defect of the suite, not counted)"))
    if reasons:
        headline += "; " + "; ".join(reasons)
    if decisions:
        headline += (f"; {decisions} difference{'s' * (decisions != 1)} where the model decided (the documents are "
                     "silent; not failed without --strict)")
    return {"status": status, "headline": headline, "reasons": reasons, "counts": counts, "strict": strict}


def percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a percentage that says no more than is true: 100% only when all, 0% only when
    none (314 of 315 is 99.6%, never 100%; 1 of 2,000 is 0.1%, never 0%)."""
    if not whole:
        return "-"
    if part == whole or part == 0:
        return f"{100 * part // whole}%"
    value = 100 * part / whole
    shown = min(max(round(value, 1), 0.1), 99.9)
    return f"{shown:.1f}%"


_COUNT_WORDS = {PASSED: "passed", FAILED: "failed", ERROR: "errors", EXPECTED_FAILURE: "expected failures",
                UNEXPECTED_PASS: "unexpected passes", NOT_SEEN: "not seen this run", NOT_CLAIMED: "not claimed",
                SKIPPED: "skipped", INCONCLUSIVE: "inconclusive"}
_COUNT_ORDER = (PASSED, FAILED, ERROR, EXPECTED_FAILURE, UNEXPECTED_PASS, NOT_SEEN, NOT_CLAIMED, SKIPPED, INCONCLUSIVE)


def count_parts(counts: dict[str, int]) -> str:
    """Scenarios or tests by status, in one order, parts that add up to their total: passed, failed, errors and
    not claimed always, every other status that has a count (``45 passed, 0 failed, 0 errors, 19 expected
    failures, 460 not claimed``). The console, summary.md and the page all print this."""
    return ", ".join(f"{counts.get(status, 0)} {_COUNT_WORDS[status]}" for status in _COUNT_ORDER
                     if counts.get(status, 0) or status in (PASSED, FAILED, ERROR, NOT_CLAIMED))


def count_line(counts: dict[str, int], total: str, what: str) -> str:
    """``What: N run, `` and :func:`count_parts`."""
    return f"{what}: {counts[total]} run, " + count_parts(counts)


def _counts(items: list[dict], total: str) -> dict[str, int]:
    counts = Counter(item["status"] for item in items)
    return {total: len(items), **{status: counts.get(status, 0) for status in EVIDENCE_STATUSES}}


def validate_report(report: dict) -> None:
    """Raise ``jsonschema.ValidationError`` when ``report`` does not match ``schemas/report.json``.

    A quick validator accepts a valid report in a few milliseconds; the pure one judges anything else and writes
    the error (reference/schema.py :func:`~mq_conformance.reference.schema.quick_validator`)."""
    from jsonschema import Draft202012Validator

    from mq_conformance.reference.schema import accepts, quick_validator

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    if not accepts(quick_validator(schema), report):
        Draft202012Validator(schema).validate(report)


def write_reports(directory: Path | OutputFolder, registry: Registry) -> dict[str, Path]:
    """Build the report of a run folder and write ``conformance.json``, ``conformance.html``, ``summary.md`` and
    ``badge.svg`` (each written aside and renamed, through the confined folder: a link placed at one of those names
    is replaced, never followed, and a full disk leaves the earlier file whole); returns their paths by kind."""
    from .badge import badge_for
    from .html import render_report

    report = build_report(directory.path if isinstance(directory, OutputFolder) else directory, registry)
    validate_report(report)
    names = {"json": "conformance.json", "html": "conformance.html", "summary": "summary.md", "badge": "badge.svg"}
    texts = {"json": json.dumps(report, indent=2) + "\n", "html": render_report(report),
             "summary": render_summary(report), "badge": badge_for(report)}
    if isinstance(directory, OutputFolder):
        return {kind: directory.write_text(texts[kind], names[kind]) for kind in names}
    with OutputFolder.open(directory, make=False) as folder:
        return {kind: folder.write_text(texts[kind], names[kind]) for kind in names}


def load_report(path: Path) -> dict[str, Any]:
    """A ``conformance.json`` (or the run folder holding one), checked against ``schemas/report.json``: a damaged
    or crafted report is one :class:`ReportError` naming the file and the field, never a report that ``compare``
    or ``matrix`` trips over."""
    if path.is_dir():
        path = path / "conformance.json"
    try:
        report = _json(path)
    except FileNotFoundError:
        raise ReportError(f"{path}: no such report (run `mqconf report` on its folder first)") from None
    if not isinstance(report, dict) or not isinstance(report.get("summary"), dict):
        raise ReportError(f"{path}: not a conformance report (a JSON object with a summary)")
    from jsonschema import ValidationError

    try:
        validate_report(report)
    except ValidationError as exc:
        raise ReportError(f"{path}: not a conformance report this suite reads (at {exc.json_path}: "
                          f"{for_terminal(exc.message, 160)}); rebuild it with `mqconf report` on its folder") from None
    return report


def failure_line(failure: dict) -> str:
    """One line saying how a failure failed (what ``mqconf compare`` and a short listing show): its difference's
    first differing field, else the first line of its message (a suite error, one line)."""
    difference = failure.get("difference")
    if difference:
        where = f"{difference['where']}: " if difference.get("where") else ""
        return f"{where}{call_text(difference.get('call'))}: " + "; ".join(difference.get("problems") or [])
    text = (failure.get("message") or "").strip().splitlines()
    return text[0].strip() if text else ""


def failure_lines(failure: dict, rule_of: Callable[[str], str | None], escape: Callable[[str], str]) -> list[str]:
    """A failure as an outsider reads it, the same for a scenario, a table test, a state machine and a campaign
    signature, and the same in the console and summary.md (the page shows the same parts): the call, each field
    that differed (expected, got), where the expectation comes from, the clauses it blames, the earlier steps
    and clauses under suspicion, the later differences that are its consequences, and what else was applied."""
    lines: list[str] = []
    if failure["status"] in (EXPECTED_FAILURE, NOT_SEEN):
        lines.append("- listed by the implementation as expected"
                     + (" (a random search that did not hit it this run)" if failure["status"] == NOT_SEEN else "")
                     + ": " + (escape(failure.get("expected_reason") or "") or "(no reason given)"))
    difference = failure.get("difference")
    if failure["status"] == NOT_SEEN:
        pass  # nothing failed this run
    elif difference:
        lines += difference_lines(difference, escape)
    elif failure.get("message"):
        lines.append(f"- {escape(failure_line(failure))}")
    if not failure["clauses"]:
        lines.append("- blames no clause")
    for clause_id in failure["clauses"]:
        rule = rule_of(clause_id)
        lines.append(f"- clause `{clause_id}`" + (f": {rule}" if rule else ""))
    for step in failure.get("suspect_steps") or []:
        lines.append(f"- suspect: {step.get('label') or 'step ' + str(step['index'] + 1)} {step['op']} "
                     f"(line {step['line']}): "
                     + escape("; ".join(step["why"])))
    for clause_id in failure.get("suspects") or []:
        rule = rule_of(clause_id)
        lines.append(f"  - suspect clause `{clause_id}` (not failed, not passed)" + (f": {rule}" if rule else ""))
    for step in failure.get("consequence_steps") or []:
        lines.append(f"- consequence (not counted): {step.get('label') or 'step ' + str(step['index'] + 1)} "
                     f"{step['op']} (line {step['line']}): "
                     + escape("; ".join(step["problems"]))
                     + (" - " + ", ".join(f"`{c}`" for c in step["clauses"]) if step["clauses"] else ""))
    if failure.get("also_applied"):
        lines.append("- also applied (not failed): " + ", ".join(f"`{c}`" for c in failure["also_applied"]))
    return lines


def causes_section(report: dict[str, Any], escape: Callable[[str], str], limit: int | None = None) -> list[str]:
    """The report's first section after its verdict (summary.md, the console): the failures that fail the run
    grouped by cause, largest first (conformance/causes.py); nothing when none."""
    if not report.get("causes"):
        return []
    return ["## Causes", "", "The failures that fail the run, grouped by their first differing call (the operation, "
            "and the options no passing call of it gave; an error answer by the operation and what the implementation "
            "said), largest first. "
            "Each failure's detail follows below, in the same order.", "",
            *cause_lines(report["causes"], escape, limit), ""]


def render_summary(report: dict[str, Any]) -> str:
    """A short Markdown account of a run: the verdict, totals, what is missing, then each failure with the
    clauses it blames."""
    s = report["summary"]
    tests = s["tests"]
    missing = report["missing"]
    lines = [
        f"# Conformance run: {for_markdown(report['adapter']['name'], 200)}",
        "",
        f"**{report['verdict']['headline']}**  ",
        f"How to read this report: {READING} (in the suite's repository).",
        "",
        *causes_section(report, lambda text: for_markdown(text, 300)),
        f"Suite {report['suite']['version']} (commit {report['suite']['commit'][:12]}, fixtures "
        f"{report['suite']['fixtures_hash']}), profile {report['profile']}"
        + (f", seed {report['seed']}" if report.get("seed") is not None else "")
        + (", strict" if report.get("strict") else "") + f", started {report['started']}"
        + ("." if report["complete"] else " - INCOMPLETE: this report holds only what finished."),
        "",
        f"Implementation: {_identity_line(report['adapter'])}.",
        "",
    ] + ([f"Command: `{for_markdown(report['command'], 1000)}`", ""] if report.get("command") else []) + [
        count_line(s, "scenarios", "Scenarios") + ".",
        count_line(tests, "total", "Tests") + ".",
        f"Clauses: {s['clauses']} in all; "
        + ", ".join(f"{n} {k}" for k, n in s["clauses_by_status"].items() if n) + ".",
        "",
    ]
    if not report["complete"]:
        lines += ["## Missing", ""] + [f"- {reason}" for reason in missing["reasons"]]
        for kind in ("scenarios", "tests"):
            if missing[kind]:
                shown = ", ".join(f"`{i}`" for i in missing[kind][:20])
                lines.append(f"- {kind} without a result: {shown}" + (" ..." if len(missing[kind]) > 20 else ""))
        lines.append("")
    for campaign in report.get("campaigns", []):
        cov = campaign["coverage"]
        lines += [f"Campaign {for_markdown(campaign['id'], 200)} ({for_markdown(campaign['adapter'], 200)}): "
                  f"{campaign['sequences']} sequences of "
                  f"{campaign['length']} calls, {campaign['divergent_sequences']} divergent in "
                  f"{len(campaign['signatures'])} signature(s); {cov['clauses_applied']}/{cov['clauses_total']} "
                  f"clauses applied, {cov['table_rows_covered']}/{cov['table_rows_total']} table rows covered."
                  + ("" if not campaign.get("identity_differs") else
                     " It is of another implementation than this run's (shown, not counted): "
                     + for_markdown("; ".join(campaign["identity_differs"]), 1000) + "."), ""]
    if report["failures"]:
        lines += ["## Failures", ""]
    for failure in report["failures"]:
        note = "" if failure.get("counts", True) else " (a difference where the model decided; not failed)"
        lines.append(f"### {failure['status']}: {failure['id']}"
                     + (f": {failure['first_difference']}" if failure.get("first_difference") else "")
                     + (f" ({failure['path']})" if failure.get("path") else "") + note)
        lines += failure_lines(failure, lambda c: (report["clauses"].get(c) or {}).get("rule"),
                               lambda text: for_markdown(text, 1000))
        lines.append("")
    return "\n".join(lines) + "\n"
