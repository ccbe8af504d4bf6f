"""The suite as one zip for Spark's executors, so a cluster needs nothing installed but Python with pyarrow and
pyyaml.

The campaign's Spark session adds this zip with ``SparkContext.addPyFile`` (conformance/campaign/spark.py
``session``): Spark copies it to every executor and puts it on the Python workers' ``sys.path``, where the suite's
packages import from it (zipimport) and read their data files through importlib.resources.

The zip holds the suite's one import package, ``mq_conformance``, with its four subpackages (``reference``,
``adapters``, ``conformance``, ``fixtures``) as this process
imports them (the installed suite, or the checkout it runs from): their ``.py`` modules and their ``.yaml`` and
``.json`` data files, nothing else (no ``__pycache__``, no hidden or stray files). It is deterministic (members
sorted, fixed dates and modes), so its content digest names it: it is built once per version of the suite and
reused from the cache folder (``MQCONF_SHIP_CACHE``, default ``<temp>/mqconf-ship``).

The zip also holds the pure-Python libraries the model imports that a bare cluster would lack (:data:`BUNDLED`:
lark, which parses selectors, the campaign drawing them since it speaks selection), taken from this process's
installation.

What the executors import from it, beyond the standard library: pyarrow and pyyaml for every adapter the suite
has in process (``reference``, ``mutant:...``); the JSON-lines adapter adds jsonschema (the protocol's schema), and
the ibmmq adapters IBM's ``ibmmq`` package (tests/test_campaign_ship.py pins the first).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import tempfile
import zipfile
from pathlib import Path

from .store import CampaignError

TOP = "mq_conformance"
PACKAGES = ("reference", "emulator", "adapters", "conformance", "fixtures")  # the ibmmq+model adapter runs over emulator
SUFFIXES = (".py", ".yaml", ".json")
BUNDLED = {"lark": (".py", ".lark")}  # pure-Python libraries shipped inside the zip, with their files' suffixes
_DATE = (1980, 1, 1, 0, 0, 0)


def members() -> list[tuple[str, Path]]:
    """Every file the zip holds, as (name in the zip, file on disk), sorted by name: the one import package's
    ``__init__.py`` and each subpackage's files under ``mq_conformance/<subpackage>/``."""
    top = importlib.import_module(TOP)
    found = [(f"{TOP}/__init__.py", Path(top.__file__).resolve())]
    for name in PACKAGES:
        module = importlib.import_module(f"{TOP}.{name}")
        root = Path(module.__file__).resolve().parent
        if not root.is_dir():
            raise CampaignError(f"package {TOP}.{name} is imported from {root}, not a folder: ship that archive "
                                "instead")
        for path in root.rglob("*"):
            relative = path.relative_to(root)
            if any(part.startswith(".") or part == "__pycache__" for part in relative.parts):
                continue
            if path.suffix in SUFFIXES and path.is_file():
                found.append((f"{TOP}/{name}/{relative.as_posix()}", path))
    for library, suffixes in BUNDLED.items():
        root = Path(importlib.import_module(library).__file__).resolve().parent
        for path in root.rglob("*"):
            relative = path.relative_to(root)
            if any(part.startswith((".", "__")) and part != "__init__.py" for part in relative.parts):
                continue  # no __pycache__, no __pyinstaller hook
            if path.suffix in suffixes and path.is_file():
                found.append((f"{library}/{relative.as_posix()}", path))
    return sorted(found)


def cache_folder() -> Path:
    """Where built zips are kept (``MQCONF_SHIP_CACHE``, default ``<temp>/mqconf-ship``)."""
    return Path(os.environ.get("MQCONF_SHIP_CACHE") or Path(tempfile.gettempdir()) / "mqconf-ship")


def build(folder: Path | None = None) -> Path:
    """The suite's zip (see the module's docstring), built if this version of the suite has none in ``folder``
    (default :func:`cache_folder`); returns its path, named by the digest of its content."""
    contents = [(name, path.read_bytes()) for name, path in members()]
    digest = hashlib.sha256()
    for name, data in contents:
        digest.update(name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    folder = Path(folder or cache_folder())
    target = folder / f"mqconf-suite-{digest.hexdigest()[:16]}.zip"
    if target.is_file():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    aside = folder / f".{target.name}.{os.getpid()}.tmp"
    with zipfile.ZipFile(aside, "w") as archive:
        for name, data in contents:
            info = zipfile.ZipInfo(name, date_time=_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data, compresslevel=9)
    os.replace(aside, target)  # several campaigns building at once each move a complete, identical file
    return target


def add(spark_context) -> Path:
    """Ship the suite's zip (:func:`build`) to the executors of ``spark_context`` (``addPyFile``); returns its
    path. The suite's packages must be imported here first (they are: :func:`members` imports them), so the copy
    addPyFile also puts on this process's ``sys.path`` changes nothing in the driver."""
    shipped = build()
    spark_context.addPyFile(str(shipped))
    return shipped


def is_local(master: str) -> bool:
    """Whether ``master`` runs the executors on this machine with this interpreter's packages (``local``,
    ``local[N]``, ``local-cluster[...]``): the suite then need not be shipped unless asked."""
    return master == "local" or master.startswith(("local[", "local-cluster["))


def main() -> None:
    """``python -m mq_conformance.conformance.campaign.ship``: build the zip and print its path (to ship it by hand, for
    example with ``spark-submit --py-files``)."""
    print(build())


if __name__ == "__main__":
    main()
