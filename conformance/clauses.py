"""The clause registry: every normative rule with its stable id, read from fixtures/clauses.yaml."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mq_conformance.fixtures import CLAUSES

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


@dataclass(frozen=True)
class Registry:
    """All clauses, keyed by id, and the source documents they cite."""

    clauses: dict[str, Clause]
    documents: dict[str, dict[str, Any]]

    def __contains__(self, clause_id: str) -> bool:
        return clause_id in self.clauses

    def get(self, clause_id: str) -> Clause | None:
        return self.clauses.get(clause_id)


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
        clauses[item["id"]] = Clause(
            id=item["id"],
            area=item.get("area") or item["id"].split(".", 1)[0],
            document=source["document"],
            section=str(source.get("section", "")),
            rule=" ".join(str(item["rule"]).split()),
            decision=" ".join(str(item.get("decision", "")).split()),
            confidence=str(item.get("confidence", "")),
        )
    return Registry(clauses, documents)
