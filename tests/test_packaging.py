"""The packaging is declared, so that building or installing the suite prints no setuptools warning (issue 35,
item 6: ``make conformance`` printed 29 "Package ... is absent from the packages configuration" warnings, 1,158
lines, before its verdict): every folder setuptools would take for a package - an importable name holding
modules or package data - is listed in pyproject.toml's ``packages``."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = (".py", ".yaml", ".json", ".c", ".h", ".ini")


def test_every_folder_of_modules_or_data_is_a_declared_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    declared = set(config["packages"])
    missing = []
    for package, folder in config["package-dir"].items():
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT / folder)
            if not path.is_dir() or "__pycache__" in relative.parts:
                continue
            if not all(part.isidentifier() for part in relative.parts):
                continue  # no import name (browse-mark, protocol-1): setuptools takes it for data of its parent
            if any(f.suffix in DATA for f in path.iterdir() if f.is_file()):
                name = ".".join([package, *relative.parts])
                if name not in declared:
                    missing.append(name)
    assert not missing, ("add to [tool.setuptools] packages in pyproject.toml (setuptools warns for each): "
                         + ", ".join(f'"{name}"' for name in missing))
