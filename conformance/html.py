"""``conformance.html`` and the side-by-side matrix page: one self-contained file each, that opens from disk
with no network (inline CSS and SVG, a few lines of inline script, no external assets).

Every string that comes from a run (adapter names, message data, failure text, even clause ids) is escaped with
:func:`html.escape`; nothing from an implementation is ever markup.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any, Iterable

STATUS_COLOURS = {
    "passed": "#2e7d32", "failed": "#c62828", "error": "#c62828", "unexpected pass": "#ef6c00",
    "expected failure": "#7b6f00", "not claimed": "#607d8b", "not covered": "#9e9e9e", "skipped": "#9e9e9e",
}
ORDER = ("passed", "failed", "unexpected pass", "expected failure", "not claimed", "not covered")

CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:1200px;padding:1em 2em;
color:#222}
h1{font-size:1.5em;margin-bottom:.2em} h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;width:100%;margin:.5em 0} th,td{border-bottom:1px solid #eee;padding:3px 6px;
text-align:left;vertical-align:top} th{background:#f5f5f5}
.st{display:inline-block;padding:0 6px;border-radius:3px;color:#fff;font-size:.85em;white-space:nowrap}
.meta td:first-child{color:#666;width:12em} code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
pre{background:#f7f7f7;border:1px solid #e4e4e4;padding:.5em;overflow-x:auto;white-space:pre-wrap;word-break:break-word}
.warn{background:#fff3e0;border:1px solid #ef6c00;padding:.5em 1em} .zero{background:#fff8e1}
.failure{border:1px solid #e0b4b4;border-radius:4px;padding:.2em 1em;margin:1em 0}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:1em} .num{text-align:right;font-variant-numeric:tabular-nums}
details summary{cursor:pointer} #filter{padding:4px;width:20em}
"""

SCRIPT = """
(function(){
  var errors=[];
  window.addEventListener('error',function(e){errors.push(String(e.message));
    document.documentElement.setAttribute('data-script-errors',errors.join(' | '));});
  window.addEventListener('DOMContentLoaded',function(){
    var box=document.getElementById('filter');
    if(box){box.addEventListener('input',function(){
      var q=box.value.toLowerCase();
      var rows=document.querySelectorAll('tr.clause');
      for(var i=0;i<rows.length;i++){rows[i].style.display=rows[i].textContent.toLowerCase().indexOf(q)<0?'none':'';}
    });}
    document.documentElement.setAttribute('data-rendered','ok');
  });
})();
"""


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def status_tag(status: str) -> str:
    colour = STATUS_COLOURS.get(status, "#555")
    return f'<span class="st" style="background:{colour}">{_e(status)}</span>'


def stacked_bar(counts: dict[str, int], width: int = 300, height: int = 14) -> str:
    """An inline SVG bar, one segment per status, with a tooltip per segment."""
    total = sum(counts.values()) or 1
    x, parts = 0.0, []
    for status in ORDER:
        n = counts.get(status, 0)
        if not n:
            continue
        w = width * n / total
        parts.append(f'<rect x="{x:.1f}" y="0" width="{w:.1f}" height="{height}" '
                     f'fill="{STATUS_COLOURS[status]}"><title>{_e(status)}: {n}</title></rect>')
        x += w
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">'
            f'<rect width="{width}" height="{height}" fill="#eee"/>{"".join(parts)}</svg>')


def count_bar(n: int, most: int, width: int = 160) -> str:
    w = 0 if not most else max(1.0 if n else 0.0, width * n / most)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="10"><rect width="{width}" height="10" '
            f'fill="#eee"/><rect width="{w:.1f}" height="10" fill="#1565c0"/></svg>')


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def _page(title: str, body: Iterable[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width\"><title>{_e(title)}</title>"
            f"<style>{CSS}</style><script>{SCRIPT}</script></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def _json(value: Any) -> str:
    return _e(json.dumps(value, indent=1, ensure_ascii=False))


def _areas(report: dict) -> dict[str, list[tuple[str, dict]]]:
    grouped: dict[str, list[tuple[str, dict]]] = {}
    for clause_id, clause in report["clauses"].items():
        grouped.setdefault(clause["area"], []).append((clause_id, clause))
    return dict(sorted(grouped.items()))


def render_report(report: dict[str, Any]) -> str:
    """The run's report page: summary, failures, clause matrix by area, table-row coverage."""
    adapter, suite, summary = report["adapter"], report["suite"], report["summary"]
    out = [f"<h1>Conformance report: {_e(adapter['name'])}</h1>"]
    if not report["complete"]:
        out.append('<p class="warn" id="interrupted">This run was interrupted: the report holds only what finished '
                   'before it stopped.</p>')
    out.append('<table class="meta">')
    for label, value in (
        ("adapter", f"{adapter['name']} {adapter['version']}"),
        ("capabilities claimed", ", ".join(adapter["capabilities"]) or "none"),
        ("profile", report["profile"]),
        ("suite", f"{suite['version']}, commit {suite['commit']}, fixtures {suite['fixtures_hash']}"),
        ("started / finished", f"{report['started']} / {report['finished'] or 'did not finish'}"),
    ):
        out.append(f"<tr><td>{_e(label)}</td><td>{_e(value)}</td></tr>")
    out.append("</table>")

    by_status = summary["clauses_by_status"]
    tests = summary["tests"]
    out += ["<h2 id=\"summary\">Summary</h2>",
            f"<p>{by_status.get('passed', 0)} of {summary['clauses']} clauses passed "
            f"({_pct(by_status.get('passed', 0), summary['clauses'])}). "
            + ", ".join(f"{n} {_e(k)}" for k, n in by_status.items() if n) + ".</p>",
            f"<p>{stacked_bar(by_status, 600, 18)}</p>",
            f"<p>Scenarios: {summary['scenarios']} run, {summary['passed']} passed, {summary['failed']} failed, "
            f"{summary['error']} errors, {summary['not claimed']} not claimed. Tests (tables and state machines): "
            f"{tests['total']} run, {tests['passed']} passed, {tests['failed'] + tests['error']} failed, "
            f"{tests['not claimed']} not claimed.</p>",
            "<table id=\"areas\"><tr><th>area</th><th class=num>clauses</th><th class=num>passed</th>"
            "<th class=num>share passed</th><th></th></tr>"]
    for area, counts in summary["areas"].items():
        out.append(f"<tr class=\"area\"><td>{_e(area)}</td><td class=num>{counts['total']}</td>"
                   f"<td class=num>{counts['passed']}</td><td class=num>{_pct(counts['passed'], counts['total'])}</td>"
                   f"<td>{stacked_bar({k: v for k, v in counts.items() if k != 'total'})}</td></tr>")
    out.append("</table>")

    out.append(f"<h2 id=\"failures\">Failures ({len(report['failures'])})</h2>")
    if not report["failures"]:
        out.append("<p>None.</p>")
    for failure in report["failures"]:
        out.append(render_failure(failure, report))

    out += ["<h2 id=\"clauses\">Clause matrix</h2>",
            '<p><input id="filter" type="search" placeholder="filter clauses (id, status, words)"></p>']
    for area, items in _areas(report).items():
        out.append(f"<h3>{_e(area)}</h3><table><tr><th>clause</th><th>status</th><th>rule</th>"
                   "<th class=num>scenarios</th><th class=num>tests</th><th class=num>applied</th></tr>")
        for clause_id, clause in items:
            out.append(f'<tr class="clause" data-status="{_e(clause["status"])}" id="c-{_e(clause_id)}">'
                       f"<td><code>{_e(clause_id)}</code></td><td>{status_tag(clause['status'])}</td>"
                       f"<td>{_e(clause['rule'])}</td><td class=num>{len(clause['scenarios'])}</td>"
                       f"<td class=num>{len(clause['tests'])}</td><td class=num>{clause['applied']}</td></tr>")
        out.append("</table>")
    if report.get("unknown_clauses"):
        out.append("<p class=warn>Evidence cites clauses not in fixtures/clauses.yaml: "
                   + ", ".join(f"<code>{_e(c)}</code>" for c in report["unknown_clauses"]) + "</p>")

    out.append("<h2 id=\"tables\">Table-row coverage</h2><p>For every row of <code>fixtures/tables/</code>: how many "
               "scenario steps the model decided by that row in this run, and how many tests pin it. Rows this run "
               "never exercised are highlighted.</p>")
    for table_id, table in report["tables"].items():
        most = max((row["steps"] for row in table["rows"]), default=0)
        unexercised = sum(1 for row in table["rows"] if not row["steps"] and not row["tests"])
        out.append(f"<h3>{_e(table['title'])} <small>(<code>{_e(table_id)}</code>, {len(table['rows'])} rows, "
                   f"{unexercised} not exercised)</small></h3><table><tr><th>row</th><th class=num>steps</th><th></th>"
                   "<th class=num>tests</th></tr>")
        for row in table["rows"]:
            zero = ' class="row zero"' if not row["steps"] and not row["tests"] else ' class="row"'
            out.append(f"<tr{zero}><td><code>{_e(row['id'])}</code></td><td class=num>{row['steps']}</td>"
                       f"<td>{count_bar(row['steps'], most)}</td><td class=num>{row['tests']}</td></tr>")
        out.append("</table>")
    return _page(f"Conformance: {adapter['name']}", out)


def render_failure(failure: dict, report: dict) -> str:
    """One failure: what ran, expected vs actual, the clauses in words, and the minimal call sequence."""
    out = [f'<div class="failure" data-kind="{_e(failure["kind"])}"><h3>{status_tag(failure["status"])} '
           f"{_e(failure['kind'])} <code>{_e(failure['id'])}</code></h3>"]
    if failure.get("path"):
        out.append(f"<p><code>{_e(failure['path'])}</code>" + (f" - {_e(failure['title'])}" if failure.get("title") else "")
                   + "</p>")
    step = failure.get("step")
    if step:
        out.append(f"<p>Step {step['index'] + 1} (<code>{_e(step['op'])}</code>, line {step['line']}): "
                   + _e("; ".join(step["problems"])) + "</p>")
        out.append(f'<div class="cols"><div><b>expected</b><pre>{_json(step["expected"])}</pre></div>'
                   f'<div><b>actual</b><pre>{_json(step["actual"])}</pre></div></div>')
    elif failure.get("message"):
        out.append(f"<details><summary>failure text</summary><pre>{_e(failure['message'])}</pre></details>")
    if failure["clauses"]:
        out.append("<ul>")
        for clause_id in failure["clauses"]:
            clause = report["clauses"].get(clause_id)
            rule = _e(clause["rule"]) if clause else "(not in fixtures/clauses.yaml)"
            out.append(f'<li><a href="#c-{_e(clause_id)}"><code>{_e(clause_id)}</code></a>: {rule}</li>')
        out.append("</ul>")
    if failure.get("sequence"):
        lines = "\n".join("- " + json.dumps(call, ensure_ascii=False) for call in failure["sequence"])
        out.append(f"<details open><summary>minimal call sequence ({len(failure['sequence'])} calls)</summary>"
                   f"<pre>{_e(lines)}</pre></details>")
    if failure.get("divergence"):
        out.append(f"<details open><summary>minimal scenario ({_e(failure['divergence']['file'])})</summary>"
                   f"<pre>{_e(failure['divergence']['scenario'])}</pre></details>")
    out.append("</div>")
    return "\n".join(out)


def render_matrix(reports: list[dict[str, Any]]) -> str:
    """Implementations side by side: share passed per area, then every clause's status per implementation."""
    names = [f"{r['adapter']['name']} {r['adapter']['version']}" for r in reports]
    head = "".join(f"<th>{_e(name)}</th>" for name in names)
    out = ["<h1>Conformance matrix</h1>",
           "<p>" + "; ".join(f"{_e(n)}: run {_e(r['started'])}, profile {_e(r['profile'])}, suite commit "
                            f"{_e(r['suite']['commit'][:12])}, fixtures {_e(r['suite']['fixtures_hash'])}"
                            + ("" if r["complete"] else " (interrupted)") for n, r in zip(names, reports)) + "</p>",
           f"<h2 id=\"summary\">Share of clauses passed</h2><table><tr><th>area</th>{head}</tr>"]
    areas = sorted({area for r in reports for area in r["summary"]["areas"]})
    for area in ["all", *areas]:
        cells = []
        for r in reports:
            counts = ({"total": r["summary"]["clauses"], **r["summary"]["clauses_by_status"]} if area == "all"
                      else r["summary"]["areas"].get(area, {"total": 0}))
            cells.append(f"<td>{_pct(counts.get('passed', 0), counts['total'])} "
                         f"{stacked_bar({k: v for k, v in counts.items() if k != 'total'}, 160, 10)}</td>")
        out.append(f"<tr class=\"area\"><td>{_e(area)}</td>{''.join(cells)}</tr>")
    out += ["</table>", "<h2 id=\"clauses\">Clauses</h2>",
            '<p><input id="filter" type="search" placeholder="filter clauses (id, status, words)"></p>',
            f"<table><tr><th>clause</th>{head}</tr>"]
    clause_ids = sorted({c for r in reports for c in r["clauses"]},
                        key=lambda c: (next(r["clauses"][c]["area"] for r in reports if c in r["clauses"]), c))
    for clause_id in clause_ids:
        statuses = [r["clauses"].get(clause_id, {}).get("status", "not covered") for r in reports]
        differs = ' style="background:#fffde7"' if len(set(statuses)) > 1 else ""
        out.append(f'<tr class="clause"{differs}><td><code>{_e(clause_id)}</code></td>'
                   + "".join(f"<td>{status_tag(s)}</td>" for s in statuses) + "</tr>")
    out.append("</table>")
    return _page("Conformance matrix: " + ", ".join(names), out)
