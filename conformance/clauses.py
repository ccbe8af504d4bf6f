"""The clause registry: every normative rule with its stable id, read from fixtures/clauses.yaml, with the
capabilities each belongs to (the ``clauses`` block of fixtures/capabilities.yaml): what a certificate counts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mq_conformance.fixtures import CLAUSES, ROOT

from .yamlsource import LineDict, SourceError, load


@dataclass(frozen=True)
class Clause:
    """One rule: where it comes from, what it says (paraphrased), and any decision taken where the documents
    are silent or ambiguous."""

    id: str
    area: str
    document: str
    section: str
    rule: str
    decision: str = ""
    confidence: str = ""
    # what an implementation must claim for a certificate to count it (core among them), from the ``clauses``
    # block of fixtures/capabilities.yaml; empty for a clause in no certificate
    capabilities: frozenset[str] = frozenset()
    # why a clause is in no certificate: ``emulator`` or ``suite`` (capabilities.yaml ``outside``), or
    # ``unassigned`` when that block gives it nothing (tests/test_clause_capabilities.py fails then)
    outside: str = ""

    def counted_in(self, claimed: frozenset[str] | set[str]) -> bool:
        """Whether a certificate of an implementation claiming ``claimed`` counts this clause."""
        return not self.outside and self.capabilities <= set(claimed) | {"core"}


@dataclass(frozen=True)
class Registry:
    """All clauses, keyed by id, and the source documents they cite."""

    clauses: dict[str, Clause]
    documents: dict[str, dict[str, Any]]

    def __contains__(self, clause_id: str) -> bool:
        return clause_id in self.clauses

    def get(self, clause_id: str) -> Clause | None:
        return self.clauses.get(clause_id)

    def counted(self, claimed: frozenset[str] | set[str]) -> list[str]:
        """The ids of the clauses a certificate of a claim of ``claimed`` counts: its denominator."""
        return [clause_id for clause_id, clause in self.clauses.items() if clause.counted_in(claimed)]


UNASSIGNED = "unassigned"
CAPABILITIES = ROOT / "capabilities.yaml"


def clause_assignment(path=CAPABILITIES) -> dict[str, Any]:
    """The ``clauses`` block of fixtures/capabilities.yaml: ``areas`` (area -> capability or outside list),
    ``overrides`` (clause id -> capability or list) and ``outside`` (list name -> clause ids)."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    block = data.get("clauses") or {}
    return {"areas": dict(block.get("areas") or {}), "overrides": dict(block.get("overrides") or {}),
            "outside": {name: list(ids or []) for name, ids in (block.get("outside") or {}).items()}}


def capabilities_of(clause_id: str, area: str, assignment: dict[str, Any]) -> tuple[frozenset[str], str]:
    """A clause's capabilities and, for a clause in no certificate, why (:attr:`Clause.outside`): its own entry
    under ``outside`` or ``overrides``, else its area's."""
    for name, ids in assignment["outside"].items():
        if clause_id in ids:
            return frozenset(), name
    value = assignment["overrides"].get(clause_id, assignment["areas"].get(area))
    if value is None:
        return frozenset(), UNASSIGNED
    if isinstance(value, str) and value in assignment["outside"]:
        return frozenset(), value
    names = [value] if isinstance(value, str) else list(value)
    return frozenset(names) | {"core"}, ""


def load_registry(path: Path = CLAUSES) -> Registry:
    """Read and check the clause file; errors name the file and line."""
    data = load(path)
    if not isinstance(data, LineDict) or not isinstance(data.get("clauses"), list):
        raise SourceError(path, 1, "expected a mapping with 'documents' and a 'clauses' list")
    documents = dict(data.get("documents") or {})
    block = data.get("documents")
    for key, document in documents.items():
        where = block.line_of(key) if isinstance(block, LineDict) else 1
        if not isinstance(document, dict) or not str(document.get("title") or "").strip():
            raise SourceError(path, where, f"document {key} needs a 'title'")
        if not str(document.get("url") or "").startswith("https://"):
            raise SourceError(path, where, f"document {key} needs the public 'url' (https://...) it is read at")
        if "file" in document:
            raise SourceError(path, where, f"document {key} names a file; cite it by title and URL instead")
    clauses: dict[str, Clause] = {}
    assignment = clause_assignment()
    for item in data["clauses"]:
        line = getattr(item, "line", None)
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise SourceError(path, line, "each clause needs an 'id'")
        if item["id"] in clauses:
            raise SourceError(path, line, f"clause {item['id']} is listed twice")
        source = item.get("source") or {}
        if source.get("document") not in documents:
            raise SourceError(path, line, f"clause {item['id']} cites unknown document {source.get('document')!r}")
        if not item.get("rule"):
            raise SourceError(path, line, f"clause {item['id']} has no 'rule' paraphrase")
        area = item.get("area") or item["id"].split(".", 1)[0]
        capabilities, outside = capabilities_of(item["id"], area, assignment)
        clauses[item["id"]] = Clause(
            id=item["id"],
            area=area,
            document=source["document"],
            section=str(source.get("section", "")),
            rule=" ".join(str(item["rule"]).split()),
            decision=" ".join(str(item.get("decision", "")).split()),
            confidence=str(item.get("confidence", "")),
            capabilities=capabilities,
            outside=outside,
        )
    return Registry(clauses, documents)
