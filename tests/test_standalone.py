"""The repository stands alone: every source is cited by title and public URL, no file in it names a path outside
it, and the facts tests check are data inside it (fixtures/facts.yaml), so nothing skips in a fresh clone."""

from __future__ import annotations

from pathlib import Path

import pytest

from mq_conformance.conformance.clauses import load_registry
from mq_conformance.conformance.yamlsource import SourceError

ROOT = Path(__file__).resolve().parents[1]
# Spelt in pieces so that this file does not name them itself.
OUTSIDE = ["../" + "shared", "shared/" + "mq-facts", "shared/" + "seeds", "shared/" + "DESIGN", "/work/" + "shared"]
TEXT = {".py", ".yaml", ".yml", ".json", ".md", ".txt", ".toml", ".cfg", ".js", ".html", ".svg"}
SKIP = {".git", ".venv", "reports", "__pycache__", "node_modules", ".hypothesis", ".pytest_cache"}


def _files():
    for path in ROOT.rglob("*"):
        if any(part in SKIP for part in path.relative_to(ROOT).parts):
            continue
        if path.is_file() and (path.suffix in TEXT or path.name in {"Makefile", "constraints.txt"}):
            yield path


def test_no_file_in_the_repository_names_a_path_outside_it():
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}"
             for path in _files()
             for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if any(outside in line for outside in OUTSIDE)]
    assert found == []


def test_every_source_document_is_cited_by_title_and_public_url():
    registry = load_registry()
    assert registry.documents
    for key, document in registry.documents.items():
        assert document["title"].strip() and document["url"].startswith("https://"), key
        assert "file" not in document, key


@pytest.mark.parametrize(("document", "message"), [
    ("    title: A page\n    file: shared/x.txt\n", "needs the public 'url'"),
    ("    title: A page\n    url: https://example.com/x\n    file: x.txt\n", "names a file; cite it by title and URL"),
    ("    url: https://example.com/x\n", "needs a 'title'"),
])
def test_a_document_without_title_and_url_is_one_error_naming_the_line(tmp_path, document, message):
    clauses = tmp_path / "clauses.yaml"
    clauses.write_text("documents:\n  page:\n" + document + "clauses:\n  - id: a.b\n    source: {document: page}\n"
                       "    rule: A rule.\n")
    with pytest.raises(SourceError, match=message) as raised:
        load_registry(clauses)
    assert "clauses.yaml:2" in str(raised.value)
