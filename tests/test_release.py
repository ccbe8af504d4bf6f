"""The release check: the wheel installs one top-level name, ``mq_conformance``, and an install of it without extras,
in a fresh virtual environment outside the repository, certifies from an unrelated folder with the whole suite
(scenarios and the certification tests) exactly as the clone does - the example server copied elsewhere (it finds
the constants through ``mqconf constants --json``) and the served model (``mqconf serve --stdio``) - with no
PySpark installed. pip's cache makes the build and the install quick after the first time (the pins of
constraints.txt)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from mq_conformance.conformance import cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
pytestmark = pytest.mark.xdist_group("release")  # one wheel, one environment: every test here on one worker


def _sources(target: Path) -> Path:
    """The repository's files (tracked, or new and not ignored) copied to ``target``: the build writes beside
    its sources, and nothing may be written into the checkout."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True, timeout=60).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("release")
    sources = _sources(base / "src")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"),
                           str(sources)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    (built,) = (base / "dist").glob("mq_conformance-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment, outside the repository, with the wheel installed without extras; its bin/."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-c",
                           str(ROOT / "constraints.txt"), str(wheel)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    return venv / "bin"


def _env(bin_folder: Path) -> dict[str, str]:
    """An activated environment: its bin/ first on PATH, no PYTHONPATH, nothing of the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MQCONF_CONSTANTS")}
    return {**env, "PATH": f"{bin_folder}{os.pathsep}{env.get('PATH', '')}", "VIRTUAL_ENV": str(bin_folder.parent)}


def _certify_installed(bin_folder: Path, folder: Path, adapter: str, *options: str) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([str(bin_folder / "mqconf"), "run", "--no-campaign", "--adapter", adapter, "--output",
                           "run", *options], cwd=folder, env=_env(bin_folder), capture_output=True, text=True,
                          timeout=900)
    assert done.returncode in (0, 1) and (folder / "run" / "conformance.json").exists(), done.stdout + done.stderr
    return json.loads((folder / "run" / "conformance.json").read_text())


def _certify_clone(tmp_path: Path, adapter: str, *options: str) -> dict:
    assert cli.main(["run", "--no-campaign", "--adapter", adapter, "--output", str(tmp_path / "clone"),
                     *options]) in (0, 1)
    return json.loads((tmp_path / "clone" / "conformance.json").read_text())


def _same_result(installed: dict, clone: dict) -> None:
    """Verdict and counts equal: scenarios by status, tests by status, clauses by status; and the tests ran."""
    assert installed["verdict"]["status"] == clone["verdict"]["status"]
    assert installed["verdict"]["headline"] == clone["verdict"]["headline"]
    for key in ("scenarios", "passed", "failed", "tests", "clauses_by_status"):
        assert installed["summary"][key] == clone["summary"][key], key
    assert installed["summary"]["tests"]["total"] > 100
    assert sorted(t["id"] for t in installed["tests"]) == sorted(t["id"] for t in clone["tests"])


def test_the_wheel_installs_one_top_level_name(wheel):
    names = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {name for name in names if not name.endswith(".dist-info")} == {"mq_conformance"}, names
    assert any(name.startswith("mq_conformance/conformance/certification/test_") for name in
               zipfile.ZipFile(wheel).namelist())


def test_an_install_without_extras_has_no_pyspark_pyarrow_or_ibmmq(installed):
    probe = "import importlib.util as u; print([m for m in ('pyspark', 'pyarrow', 'ibmmq') if u.find_spec(m)])"
    done = subprocess.run([str(installed / "python"), "-c", probe], capture_output=True, text=True, timeout=60,
                          env=_env(installed), cwd=installed.parent, check=True)
    assert done.stdout.strip() == "[]"


def test_the_example_server_copied_elsewhere_certifies_from_an_install_as_from_the_clone(installed, tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js (`node` on PATH) to run the example server")
    elsewhere = tmp_path / "my-server"
    elsewhere.mkdir()
    for name in ("server.js", "server-expected.yaml"):
        shutil.copy(EXAMPLES / name, elsewhere / name)
    report = _certify_installed(installed, tmp_path / "work", f"jsonlines:{node} {elsewhere / 'server.js'}",
                                "--expectations", str(elsewhere / "server-expected.yaml"))
    clone = _certify_clone(tmp_path, f"jsonlines:{node} {EXAMPLES / 'server.js'}", "--expectations",
                           str(EXAMPLES / "server-expected.yaml"))
    _same_result(report, clone)  # its verdict lists the failures its expectations file names


def test_the_served_model_certifies_from_an_install_as_from_the_clone(installed, tmp_path):
    report = _certify_installed(installed, tmp_path / "work", f"jsonlines:{installed / 'mqconf'} serve --stdio")
    served = Path(sys.executable).parent / "mqconf"
    clone = _certify_clone(tmp_path, f"jsonlines:{served} serve --stdio")
    _same_result(report, clone)
    assert report["verdict"]["status"] == "passed"


def test_the_installed_commands_find_the_installed_scenarios_and_constants(installed, tmp_path):
    run = lambda *args: subprocess.run([str(installed / "mqconf"), *args], cwd=tmp_path, env=_env(installed),
                                       capture_output=True, text=True, timeout=300)
    folder = Path(run("scenarios", "--path").stdout.strip())
    assert folder.is_dir() and installed.parent in folder.parents and not folder.is_relative_to(ROOT)
    constants = json.loads(run("constants", "--json").stdout)
    assert constants == json.loads((ROOT / "fixtures" / "constants.json").read_text())
    done = run("scenario", "--adapter", "reference")
    assert done.returncode == 0 and " 0 failed" in done.stdout, done.stdout + done.stderr
    campaign = run("campaign", "--sequences", "2")
    assert campaign.returncode == 2 and "install mq-conformance[spark]" in campaign.stderr, campaign.stderr
    assert len(campaign.stderr.splitlines()) == 1
    emulated = run("scenario", str(folder / "put"), "--adapter", "ibmmq+model")
    assert emulated.returncode == 2 and "install mq-conformance[ibmmq]" in emulated.stderr, emulated.stderr
    assert len(emulated.stderr.splitlines()) == 1
