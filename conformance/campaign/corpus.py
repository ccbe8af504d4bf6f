"""Corpora of recorded call sequences: JSON lines, Parquet, and scenario files.

A corpus is a list of sequences in the shape :mod:`mq_conformance.conformance.campaign.generate` produces::

    {"id": "...", "area": "...", "calls": [{"op": ..., ...}, ...], "binds": [{"$g": "MD.GroupId"}, ...]}

- JSON lines (``.jsonl``, ``.json``): one sequence per line (``area`` and ``binds`` optional);
- Parquet (a ``.parquet`` file or a folder of them): columns ``id``, ``area``, ``calls`` and ``binds``, the
  last two as JSON text;
- scenario files (``.yaml`` files or folders of them): each scenario is one sequence; its set-up becomes
  define calls, and each ``$name`` an expectation binds becomes a bind, so later calls naming it get the
  identifier the model returned there.

A recording made in front of a real implementation, the shrunk failures of the state machines and the
campaign's own witnesses are all corpora.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mq_conformance.reference.calls import OPS

from ..matching import is_variable

ID_FIELDS = ("MD.MsgId", "MD.CorrelId", "MD.GroupId", "GMO.MsgToken")


class CorpusError(ValueError):
    """A corpus that cannot be read; the message names the file (and line)."""


def _check(sequence: Any, where: str) -> dict[str, Any]:
    if not isinstance(sequence, Mapping) or not isinstance(sequence.get("calls"), list) or not sequence["calls"]:
        raise CorpusError(f"{where}: a sequence is an object with a non-empty list of 'calls'")
    for index, call in enumerate(sequence["calls"]):
        if not isinstance(call, Mapping) or call.get("op") not in OPS:
            raise CorpusError(f"{where}: call {index + 1} needs a known 'op' (one of {', '.join(sorted(OPS))})")
    binds = sequence.get("binds") or []
    if not isinstance(binds, list):
        raise CorpusError(f"{where}: 'binds' must be a list with one mapping per call")
    checked = {"id": str(sequence.get("id", where)), "area": str(sequence.get("area", "corpus")),
               "calls": [dict(c) for c in sequence["calls"]], "binds": [dict(b or {}) for b in binds]}
    if isinstance(sequence.get("target"), str):
        checked["target"] = sequence["target"]  # the table row a generated sequence was steered at
    return checked


def _from_scenarios(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """The sequences of scenario files, loaded as ``mqconf scenario`` and ``mqconf lint`` load them: every bad
    file is reported (ScenarioErrors, one ``file:line: why`` each), not only the first."""
    from ..scenario import load_scenarios

    return [_from_scenario(scenario) for scenario in load_scenarios(paths)]


def _from_scenario(scenario) -> dict[str, Any]:
    calls, binds = [], []
    seen: set[str] = set()
    for step in scenario.steps:
        calls.append({"op": step.call.op, **dict(step.call.args)})
        bind = {}
        for key, value in step.expect.items():
            if not isinstance(value, Mapping):
                continue
            for name, item in value.items():
                if f"{key}.{name}" in ID_FIELDS and is_variable(item) and item not in seen:
                    bind[item] = f"{key}.{name}"
                    seen.add(item)
        binds.append(bind)
    return {"id": scenario.id, "area": "scenario", "calls": _plain(calls), "binds": binds}


def _plain(value: Any) -> Any:
    """YAML's line-tracking containers as plain dicts and lists."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def load_corpus(path: Path) -> list[dict[str, Any]]:
    """Every sequence of a corpus file or folder, in a stable order. CorpusError names the file (and line) that is
    wrong; scenario files that do not load are ScenarioErrors naming every one of them."""
    path = Path(path)
    if not path.exists():
        raise CorpusError(f"{path}: no such file or folder")
    if path.is_dir():
        if any(path.rglob("*.parquet")):
            return _load_parquet(path)
        files = sorted(path.rglob("*.yaml"))
        if not files:
            raise CorpusError(f"{path}: no corpus files (*.parquet, *.yaml) in this folder")
        return _from_scenarios(files)
    if path.suffix in (".yaml", ".yml"):
        return _from_scenarios([path])
    if path.suffix == ".parquet":
        return _load_parquet(path)
    if path.suffix in (".jsonl", ".json", ".ndjson"):
        sequences = []
        from ..infiles import UnsafeFile, read_text

        try:
            text = read_text(path, CORPUS_LIMIT)  # a regular file, its size counted while reading
        except UnsafeFile as exc:
            raise CorpusError(str(exc)) from None
        except UnicodeDecodeError as exc:
            raise CorpusError(f"{path}: not UTF-8 text (byte {exc.start})") from None
        except OSError as exc:
            raise CorpusError(f"{path}: cannot read: {exc.strerror or exc}") from None
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CorpusError(f"{path}:{number}: not JSON ({exc.msg})") from None
            except RecursionError:
                raise CorpusError(f"{path}:{number}: nested too deeply to read") from None
            sequences.append(_check(data, f"{path}:{number}"))
        if not sequences:
            raise CorpusError(f"{path}: no sequences")
        return sequences
    raise CorpusError(f"{path}: a corpus is JSON lines (.jsonl), Parquet (.parquet) or scenario files (.yaml)")


CORPUS_LIMIT = 512 * 1024 * 1024  # bytes of a JSON-lines corpus


def _load_parquet(path: Path) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
        rows = table.select([c for c in ("id", "area", "calls", "binds", "target") if c in table.column_names]
                            ).to_pylist()
    except Exception as exc:  # noqa: BLE001 - pyarrow's many error types end in one message
        raise CorpusError(f"{path}: cannot read as a Parquet corpus ({exc})") from None
    sequences = []
    for number, row in enumerate(rows, start=1):
        try:
            data = {**row, "calls": json.loads(row["calls"]), "binds": json.loads(row["binds"] or "[]")}
        except (TypeError, json.JSONDecodeError) as exc:
            raise CorpusError(f"{path}: row {number}: calls and binds must be JSON text ({exc})") from None
        sequences.append(_check(data, f"{path}: row {number}"))
    return sequences


def save_corpus(sequences: Iterable[Mapping[str, Any]], path: Path) -> Path:
    """Write sequences as JSON lines (``.jsonl``) or Parquet (``.parquet``), by the suffix of ``path``."""
    from ..outfolder import OutputFolder

    path = Path(path)
    checked = [_check(s, f"sequence {n + 1}") for n, s in enumerate(sequences)]
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.table({
            "id": [s["id"] for s in checked], "area": [s["area"] for s in checked],
            "calls": [json.dumps(s["calls"], sort_keys=True) for s in checked],
            "binds": [json.dumps(s["binds"], sort_keys=True) for s in checked],
            "target": pa.array([s.get("target") for s in checked], pa.string()),
        })
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        data = sink.getvalue().to_pybytes()
    else:
        data = "".join(json.dumps(s, sort_keys=True) + "\n" for s in checked).encode("utf-8")
    with OutputFolder.open(path.parent) as folder:  # written aside and renamed; never through a link
        folder.write_bytes(data, path.name)
    return path
