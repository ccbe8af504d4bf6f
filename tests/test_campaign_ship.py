"""The suite shipped to Spark's executors as one zip (conformance/campaign/ship.py): the zip holds the four
packages with their data files and nothing else, is built the same twice, and the suite runs from it alone, in a
Python that has pyarrow and pyyaml and no checkout: every fixture and schema the campaign reads is read through
importlib.resources. (tests/test_campaign_cluster.py ships it to local-cluster executors that cannot import the
checkout.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from mq_conformance.conformance.campaign import ship
from mq_conformance.conformance.campaign.run import CampaignConfig, Worker, run_campaign
from tests_support import bare_site

ROOT = Path(__file__).resolve().parents[1]
MUTANT = "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE"


def test_the_zip_holds_the_packages_modules_and_data_files_and_nothing_else(tmp_path):
    built = ship.build(tmp_path / "a")
    names = zipfile.ZipFile(built).namelist()
    assert names == sorted(names) == [name for name, _ in ship.members()]
    assert {name.split("/", 1)[0] for name in names} == {ship.TOP, *ship.BUNDLED}
    bundled = [name for name in names if not name.startswith(ship.TOP + "/")]
    assert all(Path(name).suffix in ship.BUNDLED[name.split("/", 1)[0]] for name in bundled)
    names = [name for name in names if name.startswith(ship.TOP + "/")]  # the suite's own files
    assert {name.split("/")[1] for name in names if name.count("/") > 1} == set(ship.PACKAGES)
    assert all(Path(name).suffix in (".py", ".yaml", ".json") for name in names)
    assert not [name for name in names + bundled if "__pycache__" in name or "/." in name]
    source = Path(ship.members()[0][1]).parents[1]
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", ship.TOP,
                             *ship.PACKAGES], cwd=source, capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout:  # a checkout: exactly its files of those kinds git does not ignore
        assert set(names) == {n if n.startswith(ship.TOP + "/") else f"{ship.TOP}/{n}" for n in listed.stdout.split()
                              if Path(n).suffix in (".py", ".yaml", ".json") and (source / n).is_file()}
    for required in ("fixtures/clauses.yaml", "fixtures/capabilities.yaml", "fixtures/comparison.yaml",
                     "fixtures/reason-codes.yaml", "reference/schemas/protocol.json", "reference/tables.py"):
        assert f"{ship.TOP}/{required}" in names


def test_the_zip_is_deterministic_and_named_by_its_content(tmp_path):
    first, second = ship.build(tmp_path / "a"), ship.build(tmp_path / "b")
    assert first.name == second.name and first.read_bytes() == second.read_bytes()
    assert ship.build(tmp_path / "a") == first  # built once, then reused
    assert not [p for p in (tmp_path / "a").iterdir() if p != first]  # nothing left aside


def test_masters_of_this_machine_are_not_shipped_to_by_default():
    assert all(ship.is_local(m) for m in ("local", "local[2]", "local[*]", "local-cluster[2,1,1024]"))
    assert not any(ship.is_local(m) for m in ("spark://host:7077", "yarn", "k8s://https://host:6443"))


RUN_FROM_ZIP = """
import json, sys
from pathlib import Path
zip_path, output = sys.argv[1], sys.argv[2]
sys.path.insert(0, zip_path)
from mq_conformance import conformance, fixtures
from mq_conformance.conformance.campaign.run import CampaignConfig, Worker, run_campaign
assert conformance.__file__.startswith(zip_path), conformance.__file__
rows = {}
for adapter in ("reference", sys.argv[3]):
    worker = Worker(CampaignConfig(adapter=adapter, sequences=6, length=12, seed=7))
    rows[adapter] = worker.rows(range(6))
    worker.close()
config = CampaignConfig(adapter=sys.argv[3], sequences=8, length=10, seed=3, partition_size=4, areas=("groups",))
summary = run_campaign(config, Path(output).as_uri(), campaign_id="z", master="inprocess", show_progress=False)
site = sys.path[-1]  # the folder of pyarrow and pyyaml alone: which of them the suite imported
imported = sorted({m.split(".")[0] for m, module in list(sys.modules.items())
                   if str(getattr(module, "__file__", None) or "").startswith(site)})
print(json.dumps({"rows": rows, "aggregates": summary["aggregates"], "imported": imported,
                  "fixtures": type(fixtures.ROOT).__module__}))
"""


def test_the_suite_runs_from_its_zip_with_only_pyarrow_and_pyyaml_beside_it(tmp_path):
    built = ship.build(tmp_path / "zip")
    # -I -S: no checkout, no PYTHONPATH, no site-packages (so no editable install); only pyarrow and pyyaml added
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = f"import sys; sys.path.append({bare_site(tmp_path / 'site')!r})\n" + RUN_FROM_ZIP
    result = subprocess.run([sys.executable, "-I", "-S", "-c", code, str(built), str(tmp_path / "out"), MUTANT],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    shipped = json.loads(result.stdout)
    assert shipped["fixtures"] == "zipfile"  # the data files were read from the zip
    # nothing but the standard library, the zip and pyarrow and pyyaml is on its path, and it used both
    assert {"yaml", "pyarrow"} <= set(shipped["imported"]) <= {"yaml", "_yaml", "pyarrow"}
    for adapter in ("reference", MUTANT):
        worker = Worker(CampaignConfig(adapter=adapter, sequences=6, length=12, seed=7))
        assert shipped["rows"][adapter] == worker.rows(range(6))
        worker.close()
    # the mutant's area alone, so eight sequences meet it whatever other areas the vocabulary grows
    config = CampaignConfig(adapter=MUTANT, sequences=8, length=10, seed=3, partition_size=4, areas=("groups",))
    here = run_campaign(config, tmp_path / "here", campaign_id="z", master="inprocess", show_progress=False)
    assert shipped["aggregates"] == here["aggregates"] and here["aggregates"]["signatures"]


def test_the_executors_python_is_pyspark_python_else_this_one_here_else_python3_on_a_cluster(monkeypatch):
    from mq_conformance.conformance.campaign.spark import executor_python

    monkeypatch.delenv("PYSPARK_PYTHON", raising=False)
    assert executor_python("local[2]") == executor_python("local-cluster[2,1,1024]") == sys.executable
    assert executor_python("spark://host:7077") == executor_python("yarn") == "python3"
    monkeypatch.setenv("PYSPARK_PYTHON", "/opt/python3.11/bin/python3")
    assert executor_python("yarn") == executor_python("local[2]") == "/opt/python3.11/bin/python3"


def test_ship_on_the_command_line_reaches_the_campaign(monkeypatch, tmp_path):
    from mq_conformance.conformance import cli
    from mq_conformance.conformance.campaign import run

    asked = {}

    def fake_run_campaign(config, output, campaign_id, master, corpus=None, ship_suite=None, identity=None):
        asked["ship"] = ship_suite
        raise run.CampaignError("stopped here")

    monkeypatch.setattr(run, "run_campaign", fake_run_campaign)
    for extra, expected in (([], None), (["--ship"], True)):
        assert cli.main(["campaign", "--master", "local[1]", "--output", str(tmp_path), *extra]) == 2
        assert asked.pop("ship") is expected
