"""Dependencies point one way: conformance -> adapters -> reference, and the emulator is its own area over the
model (adapters -> emulator -> reference: the ibmmq+model adapter runs IBM's layer over it). The model imports
nothing of the suite's other packages, an adapter never imports conformance (so an adapter, with the call language
and its schemas in reference/, can be taken elsewhere without the harness), and the emulator imports neither the
adapters nor the suite. Checked on the source, every import statement, including
imports inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# package -> the suite's packages it must never import
TOP = "mq_conformance"
SUBPACKAGES = ("reference", "adapters", "emulator", "conformance", "fixtures")
FORBIDDEN = {"reference": ("adapters", "emulator", "conformance"), "adapters": ("conformance",),
             "emulator": ("adapters", "conformance")}


def _imported_packages(path: Path) -> set[tuple[int, str]]:
    """(line, package) of every absolute import in ``path``: the subpackage of ``mq_conformance`` it reaches
    (``reference``, ``adapters``, ``conformance``, ``fixtures``), else the top-level name; relative imports stay
    inside a package."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            module = node.module.split(".")
            names = [module + [alias.name] for alias in node.names] if module == [TOP] else [module]
        else:
            continue
        found.update((node.lineno, parts[1] if parts[0] == TOP and len(parts) > 1 else parts[0]) for parts in names)
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_lower_layer_never_imports_a_higher_one(package):
    broken = [f"{path.relative_to(ROOT)}:{line} imports {name}"
              for path in sorted((ROOT / package).rglob("*.py"))
              for line, name in sorted(_imported_packages(path)) if name in FORBIDDEN[package]]
    assert not broken, "\n".join(broken)


def test_the_layer_check_sees_an_import_inside_a_function(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from mq_conformance.conformance.schema import x\n"
                      "    import mq_conformance.conformance.report\n    from mq_conformance import adapters\n")
    assert _imported_packages(source) == {(2, "conformance"), (3, "conformance"), (4, "adapters")}


def test_nothing_imports_the_subpackages_by_their_old_top_level_names():
    """The suite installs one import name; ``import reference`` would find nothing in an install (or another
    distribution's package of that name, as PyPI's ``fixtures``)."""
    sources = [path for folder in (*SUBPACKAGES, TOP, "tests", "benchmarks") for path in (ROOT / folder).rglob("*.py")]
    broken = [f"{path.relative_to(ROOT)}:{line} imports {name} at the top level"
              for path in sorted(sources) for line, name in sorted(_top_level_imports(path)) if name in SUBPACKAGES]
    assert not broken, "\n".join(broken)


def _top_level_imports(path: Path) -> set[tuple[int, str]]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update((node.lineno, alias.name.split(".")[0]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add((node.lineno, node.module.split(".")[0]))
    return found
