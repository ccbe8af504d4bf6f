"""A pytest plugin for tests/test_clause_capabilities.py: the certification tests' clause and capability marks,
as collected (``MQCONF_REACH`` names the JSON file to write), without running them."""

import json
import os


def pytest_collection_finish(session):
    marks = [{"id": item.nodeid,
              "clauses": [c for mark in item.iter_markers("clause") for c in mark.args],
              "capabilities": sorted({c for mark in item.iter_markers("capability") for c in mark.args})}
             for item in session.items]
    with open(os.environ["MQCONF_REACH"], "w", encoding="utf-8") as out:
        json.dump(marks, out)
