"""``conformance.html`` and the side-by-side matrix page: one self-contained file each, that opens from disk
with no network (inline CSS and SVG, a few lines of inline script, no external assets).

Every string that comes from a run (adapter names, message data, failure text, even clause ids) is escaped with
:func:`html.escape`; nothing from an implementation is ever markup.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any, Iterable

from mq_conformance.adapters.untrusted import visible

from .difference import call_text, expected_by
from .report import reading_guide

STATUS_COLOURS = {
    "passed": "#2e7d32", "failed": "#c62828", "error": "#c62828", "unexpected pass": "#ef6c00",
    "expected failure": "#7b6f00", "not seen this run": "#7b6f00", "decision differs": "#8e24aa",
    "not claimed": "#607d8b", "not covered": "#9e9e9e", "skipped": "#9e9e9e", "inconclusive": "#9e9e9e",
    "incomplete": "#9e9e9e", "suspect": "#ad1457", "consequence": "#78909c", "not certified": "#bdbdbd",
}
ORDER = ("passed", "failed", "unexpected pass", "expected failure", "decision differs", "suspect", "consequence",
         "inconclusive", "not claimed", "not covered", "not certified")
# What each status means, shown beside the area table (README's report section says the same at more length).
MEANINGS = {
    "passed": "every piece of evidence citing the clause passed",
    "failed": "a scenario step or test that checks the clause got another answer than the documents give",
    "decision differs": "the implementation differs where the model decided and the documents are silent; shown, "
                        "not failed (unless the run is strict)",
    "suspect": "a failing scenario's earlier step applied it and produced what the failing step depends on (a "
               "bound $c, or an identifier the implementation returned otherwise than the model); not passed, "
               "not failed",
    "consequence": "only steps after a scenario's first difference applied it: listed, not failed",
    "inconclusive": "only checks that failed elsewhere (before a step that applied it) met it: neither passed nor "
                    "failed",
    "not claimed": "it belongs to capabilities the implementation does not claim (fixtures/capabilities.yaml)",
    "not covered": "it is claimed and nothing in this run checks it: a defect of the suite (or a partial run), not "
                   "counted",
    "not certified": "a rule of the emulator or of the suite itself, in no certificate",
}

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
.ok{background:#e8f5e9;border:1px solid #2e7d32;padding:.5em 1em} svg.chart{max-width:100%;height:auto}
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
    """``value`` as HTML text: made visible (adapters/untrusted.py :func:`visible`: NUL, controls and lone
    surrogates escaped), then HTML-escaped."""
    return escape(visible(value), quote=True)


def _n(value: Any) -> str:
    """A count as HTML: grouped digits when it is a whole number, else the value escaped (a crafted report's
    "12<script>" is shown, never run)."""
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else _e(value)


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


CHART_WIDTH, CHART_ROW, CHAR_WIDTH = 860, 22, 7.3  # px; CHAR_WIDTH: one character of 12px monospace
COVERED, UNCOVERED, DIVERGED = "#1565c0", "#cfd8dc", "#c62828"


def _clip(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[:max(chars - 1, 1)] + "\u2026"


def bar_chart(chart_id: str, title: str, bars: list[dict[str, Any]], colour: str = COVERED) -> str:
    """A horizontal bar chart as inline SVG, one bar per item of ``bars`` (``label``, ``value``, optional
    ``total`` drawn behind it, ``text`` written after it, ``title`` its tooltip). Every bar carries its label and
    its figures as text, so the chart reads without colour; ``title`` names the whole picture."""
    longest = max((len(bar["label"]) for bar in bars), default=10)
    label_width = min(max(longest, 10) * CHAR_WIDTH + 12, CHART_WIDTH * 0.45)
    chars = int((label_width - 12) / CHAR_WIDTH)
    texts = max((len(bar["text"]) for bar in bars), default=4) * CHAR_WIDTH + 10
    span = CHART_WIDTH - label_width - texts
    most = max((bar.get("total", bar["value"]) for bar in bars), default=0) or 1
    height = CHART_ROW * len(bars) + 6
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{_e(chart_id)}" role="img" '
           f'aria-labelledby="{_e(chart_id)}-title" width="{CHART_WIDTH}" height="{height}" '
           f'viewBox="0 0 {CHART_WIDTH} {height}" font-family="ui-monospace,Menlo,Consolas,monospace" font-size="12">'
           f'<title id="{_e(chart_id)}-title">{_e(title)}</title>']
    for index, bar in enumerate(bars):
        y, x = 3 + index * CHART_ROW, label_width
        out.append(f'<g class="bar"><title>{_e(bar["title"])}</title><text x="{x - 8:.1f}" y="{y + 15}" '
                   f'text-anchor="end">{_e(_clip(bar["label"], chars))}</text>')
        if "total" in bar:
            out.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{span * bar["total"] / most:.1f}" '
                       f'height="{CHART_ROW - 6}" fill="{UNCOVERED}"/>')
        width = span * bar["value"] / most
        if bar["value"]:
            width = max(width, 1.5)  # a count of one stays visible next to one in the thousands
        out.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{width:.1f}" height="{CHART_ROW - 6}" fill="{colour}"/>'
                   f'<text x="{x + span * bar.get("total", bar["value"]) / most + 6:.1f}" y="{y + 15}">'
                   f'{_e(bar["text"])}</text></g>')
    out.append("</svg>")
    return "".join(out)


def _pct(part: int, whole: int) -> str:
    """A share that never rounds up to 100% nor down to 0% (report.percent); "-" for what is not a number."""
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (part, whole)):
        return "-"
    from .report import percent

    return percent(part, whole)


def failure_line(failure: dict) -> str:
    from .report import failure_line as line

    return line(failure)


def count_line(counts: dict, total: str, what: str) -> str:
    from .report import count_line as line

    return line(counts, total, what)


def _page(title: str, body: Iterable[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width\"><title>{_e(title)}</title>"
            f"<style>{CSS}</style><script>{SCRIPT}</script></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def _json(value: Any) -> str:
    return _e(json.dumps(value, indent=1, ensure_ascii=False))


def _bar_counts(counts: dict[str, Any]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if k in STATUS_COLOURS}


def _areas(report: dict) -> dict[str, list[tuple[str, dict]]]:
    grouped: dict[str, list[tuple[str, dict]]] = {}
    for clause_id, clause in report["clauses"].items():
        grouped.setdefault(clause["area"], []).append((clause_id, clause))
    return dict(sorted(grouped.items()))


def render_report(report: dict[str, Any]) -> str:
    """The run's report page: summary, failures, clause matrix by area, table-row coverage."""
    adapter, suite, summary = report["adapter"], report["suite"], report["summary"]
    verdict = report["verdict"]
    out = [f"<h1>Conformance report: {_e(adapter['name'])}</h1>",
           f'<p id="verdict" class="{"ok" if verdict["status"] == "passed" else "warn"}" '
           f'data-verdict="{_e(verdict["status"])}"><b>{_e(verdict["headline"])}</b> '
           f'<a class="reading" href="{_e(reading_guide())}">how to read this report</a></p>',
           render_causes(report)]
    if not report["complete"]:
        missing = report["missing"]
        out.append('<div class="warn" id="incomplete"><p><b>INCOMPLETE</b>: this report holds only what finished; '
                   "it is no certificate.</p><ul>" + "".join(f"<li>{_e(r)}</li>" for r in missing["reasons"]) + "</ul>")
        for kind in ("scenarios", "tests"):
            if missing[kind]:
                out.append(f"<details><summary>{len(missing[kind])} {kind} without a result</summary><ul>"
                           + "".join(f"<li><code>{_e(i)}</code></li>" for i in missing[kind]) + "</ul></details>")
        out.append("</div>")
    out.append('<table class="meta">')
    for label, value in (
        ("adapter", f"{adapter['name']} {adapter['version']}"
                    + "".join(f"; {k} {v}" for k, v in sorted((adapter.get("hello") or {}).items())
                              if k not in ("name", "version"))
                    + (f"; protocol {adapter['protocol']}" if adapter.get("protocol") is not None else "")),
        ("capabilities claimed", ", ".join(adapter["capabilities"]) or "none"),
        ("profile", report["profile"] + (f", seed {report['seed']}" if report.get("seed") is not None else "")
         + (", strict" if report.get("strict") else "")),
        ("suite", f"{suite['version']}, commit {suite['commit']}, fixtures {suite['fixtures_hash']}"),
        ("command", report.get("command") or "not recorded"),
        ("started / finished", f"{report['started']} / {report['finished'] or 'did not finish'}"),
    ):
        out.append(f"<tr><td>{_e(label)}</td><td>{_e(value)}</td></tr>")
    out.append("</table>")

    by_status = summary["clauses_by_status"]
    tests = summary["tests"]
    # the headline's own counts (report.verdict), so that the two never disagree
    passed, claimed = by_status.get("passed", 0), verdict["counts"].get("claimed_clauses", summary["clauses"])
    out += ["<h2 id=\"summary\">Summary</h2>",
            f"<p>{passed} of {claimed} claimed clauses passed ({_pct(passed, claimed)})"
            f"; {summary['clauses']} clauses in all: "
            + ", ".join(f"{n} {_e(k)}" for k, n in by_status.items() if n) + ".</p>",
            f"<p>{stacked_bar(by_status, 600, 18)}</p>",
            f"<p>{_e(count_line(summary, 'scenarios', 'Scenarios'))}. "
            f"{_e(count_line(tests, 'total', 'Tests (tables and state machines)'))}.</p>",
            "<table id=\"areas\"><tr><th>area</th><th class=num>clauses</th><th class=num>passed</th>"
            "<th class=num>failed</th><th class=num>decision differs</th><th class=num>suspect / consequence</th>"
            "<th class=num>not claimed</th>"
            "<th class=num>not covered</th><th class=num>share passed</th><th></th><th>clauses not covered</th></tr>"]
    for area, counts in summary["areas"].items():
        uncovered = counts.get("uncovered", [])
        named = ("<details><summary>" + str(len(uncovered)) + "</summary>"
                 + ", ".join(f'<a href="#c-{_e(c)}"><code>{_e(c)}</code></a>' for c in uncovered) + "</details>"
                 if uncovered else "")
        failed = counts.get("failed", 0) + counts.get("unexpected pass", 0)
        out.append(f"<tr class=\"area\" data-area=\"{_e(area)}\"><td>{_e(area)}</td><td class=num>{counts['total']}</td>"
                   f"<td class=\"num passed\">{counts['passed']}</td><td class=\"num failed\">{failed}</td>"
                   f"<td class=\"num decision\">{counts.get('decision differs', 0)}</td>"
                   f"<td class=\"num suspect\">{counts.get('suspect', 0) + counts.get('consequence', 0)}</td>"
                   f"<td class=\"num not-claimed\">{counts.get('not claimed', 0)}</td>"
                   f"<td class=\"num not-covered\">{counts.get('not covered', 0)}</td>"
                   f"<td class=num>{_pct(counts['passed'], counts['total'])}</td>"
                   f"<td>{stacked_bar(_bar_counts(counts))}</td><td class=uncovered>{named}</td></tr>")
    unclaused = [f for f in report["failures"] if not f["clauses"] and f.get("counts", True)]
    if unclaused:  # the run fails for them too: the table says so where the areas are counted
        out.append(f'<tr class="area" data-area="no clause"><td>failures citing no clause</td><td class=num>-</td>'
                   f'<td class="num passed">-</td><td class="num failed">{len(unclaused)}</td><td class=num>-</td>'
                   f"<td class=num>-</td><td class=num>-</td><td class=num>-</td><td class=num>-</td>"
                   f"<td>{stacked_bar({'failed': len(unclaused)})}</td><td>"
                   + ", ".join(f"<code>{_e(f['id'])}</code>" for f in unclaused[:10])
                   + (" ..." if len(unclaused) > 10 else "") + "</td></tr>")
    out.append("</table>")
    out.append("<details><summary>what the statuses mean</summary><ul>" + "".join(
        f"<li>{status_tag(k)} {_e(v)}</li>" for k, v in MEANINGS.items()) + "</ul></details>")

    out.append(f"<h2 id=\"failures\">Failures ({len(report['failures'])})</h2>")
    if not report["failures"]:
        out.append("<p>None.</p>")
    for failure in report["failures"]:
        out.append(render_failure(failure, report))
    out.append(render_decisions(report))  # after the failures: what the model decided, differing or not

    out.append(render_campaigns(report))

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


def render_causes(report: dict) -> str:
    """The page's first section after the verdict: the failures that fail the run grouped by cause, largest first
    (conformance/causes.py), each with what it accounts for; empty when nothing failed."""
    causes = report.get("causes") or []
    if not causes:
        return ""
    out = [f'<h2 id="causes">Causes ({len(causes)})</h2>',
           "<p>The failures that fail the run, grouped by their first differing call (the operation, and the options "
           "no passing call of it gave; an error answer by the operation and what the implementation said), largest "
           'first. Each failure\'s detail is under <a href="#failures">Failures</a>, in the same order.</p>',
           "<table><tr><th>cause</th><th class=num>scenarios</th><th class=num>tests</th>"
           "<th class=num>campaign signatures</th><th class=num>clauses</th></tr>"]
    for cause in causes:
        clauses = ", ".join(f'<a href="#c-{_e(c)}"><code>{_e(c)}</code></a>' for c in cause["clauses"])
        out.append(f'<tr class="cause"><td><code>{_e(cause["key"])}</code></td>'
                   f"<td class=num>{len(cause['scenarios'])}</td><td class=num>{len(cause['tests'])}</td>"
                   f"<td class=num>{len(cause['signatures'])}</td><td class=num>"
                   + (f"<details><summary>{len(cause['clauses'])}</summary>{clauses}</details>" if clauses else "0")
                   + "</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def render_decisions(report: dict) -> str:
    """The clauses the model decided where the documents are silent, apart: their status and the decision, with
    the differences first."""
    decided = [(i, c) for i, c in report["clauses"].items() if c.get("confidence") == "decision"]
    if not decided:
        return ""
    decided.sort(key=lambda item: (item[1]["status"] not in ("decision differs", "failed"), item[0]))
    differing = sum(1 for _, c in decided if c["status"] in ("decision differs", "failed"))
    mode = ("This run is strict: a difference here fails like any other." if report.get("strict") else
            "A difference here is shown but does not fail the run (run with <code>--strict</code> to make it).")
    out = [f'<h2 id="decisions">Decisions ({len(decided)}, {differing} differing)</h2>',
           f"<p>The model decided these; the documents are silent. {mode}</p>",
           "<table><tr><th>clause</th><th>status</th><th>what the model decided</th></tr>"]
    for clause_id, clause in decided:
        out.append(f'<tr class="decision"><td><a href="#c-{_e(clause_id)}"><code>{_e(clause_id)}</code></a></td>'
                   f"<td>{status_tag(clause['status'])}</td><td>{_e(clause.get('decision') or clause['rule'])}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def render_failure(failure: dict, report: dict) -> str:
    """One failure: what ran, expected vs actual, the clauses it blames in words, those also applied, and the
    minimal call sequence."""
    decision = "" if failure.get("counts", True) else (
        ' <small class="decision">(a difference where the model decided: not failed)</small>')
    out = [f'<div class="failure" data-kind="{_e(failure["kind"])}"><h3>{status_tag(failure["status"])} '
           f"{_e(failure['kind'])} <code>{_e(failure['id'])}</code>"
           + (f": {_e(failure['first_difference'])}" if failure.get("first_difference") else "") + f"{decision}</h3>"]
    if failure.get("path"):
        out.append(f"<p><code>{_e(failure['path'])}</code>" + (f" - {_e(failure['title'])}" if failure.get("title") else "")
                   + "</p>")
    if failure["status"] in ("expected failure", "not seen this run"):
        unseen = " (a random search that did not hit it this run)" if failure["status"] == "not seen this run" else ""
        out.append(f'<p class="expected">Listed by the implementation as expected{unseen}: '
                   f'{_e(failure.get("expected_reason") or "(no reason given)")}</p>')
    divergence = failure.get("divergence") or {}
    difference = failure.get("difference")
    if divergence.get("summary") and not difference:
        out.append(f'<p class="divergence-summary">{_e(divergence["summary"])}</p>')
    if failure["status"] == "not seen this run":
        pass  # nothing failed this run
    elif difference:  # the same parts, in the same words, as summary.md and the console (report.failure_lines)
        where = f" ({_e(difference['where'])})" if difference.get("where") else ""
        out.append(f'<div class="difference"><p>call{where}: <code>{_e(call_text(difference.get("call")))}</code></p>'
                   "<ul>" + "".join(f"<li>{_e(problem)}</li>" for problem in difference.get("problems") or [])
                   + f"</ul><p>{_e(expected_by(difference))}</p></div>")
    elif failure.get("message"):  # a suite error: one line (its traceback is in the run folder's pytest.log)
        out.append(f'<p class="message">{_e(failure_line(failure))}</p>')
    step = failure.get("step")
    if step and set(step["actual"] or {}) - {"error"}:  # an error alone is in the difference already: shown once
        out.append(f'<div class="cols"><div><b>expected</b><pre>{_json(step["expected"])}</pre></div>'
                   f'<div><b>actual</b><pre>{_json(step["actual"])}</pre></div></div>')
    if failure["clauses"]:
        out.append('<p>Blames:</p><ul class="blamed">')
        for clause_id in failure["clauses"]:
            clause = report["clauses"].get(clause_id)
            rule = _e(clause["rule"]) if clause else "(not in fixtures/clauses.yaml)"
            out.append(f'<li><a href="#c-{_e(clause_id)}"><code>{_e(clause_id)}</code></a>: {rule}</li>')
        out.append("</ul>")
    else:
        out.append('<p class="unclaused">This failure blames no clause; it fails the run all the same.</p>')
    if failure.get("suspect_steps"):
        out.append('<p>Suspects (earlier steps that produced what the failing step depends on; their clauses are '
                   'neither passed nor failed):</p><ul class="suspects">'
                   + "".join(f"<li>{_e(s.get('label') or 'step ' + str(s['index'] + 1))} <code>{_e(s['op'])}</code> (line {s['line']}): "
                             f"{_e('; '.join(s['why']))}</li>" for s in failure["suspect_steps"])
                   + "".join(f'<li>suspect clause <a href="#c-{_e(c)}"><code>{_e(c)}</code></a>: '
                             f"{_e((report['clauses'].get(c) or {}).get('rule', ''))}</li>"
                             for c in failure.get("suspects") or []) + "</ul>")
    if failure.get("consequence_steps"):
        out.append('<p>Consequences (later differences after the first; not counted as failures):</p>'
                   '<ul class="consequences">'
                   + "".join(f"<li>{_e(s.get('label') or 'step ' + str(s['index'] + 1))} <code>{_e(s['op'])}</code> (line {s['line']}): "
                             f"{_e('; '.join(s['problems']))}"
                             + "".join(f' <a href="#c-{_e(c)}"><code>{_e(c)}</code></a>' for c in s["clauses"])
                             + "</li>" for s in failure["consequence_steps"]) + "</ul>")
    if failure.get("also_applied"):
        out.append('<p class="also-applied">Also applied at that step (not failed): '
                   + ", ".join(f'<a href="#c-{_e(c)}"><code>{_e(c)}</code></a>' for c in failure["also_applied"])
                   + "</p>")
    if failure.get("sequence"):
        lines = "\n".join("- " + json.dumps(call, ensure_ascii=False) for call in failure["sequence"])
        out.append(f"<details open><summary>minimal call sequence ({len(failure['sequence'])} calls)</summary>"
                   f"<pre>{_e(lines)}</pre></details>")
    if divergence:
        out.append(f"<details open><summary>minimal scenario (<code>{_e(divergence.get('path', divergence['file']))}"
                   f"</code> in the run folder)</summary><pre>{_e(divergence['scenario'])}</pre></details>")
        if divergence.get("commands"):
            out.append("<p>Run it on the model and on the implementation:</p><pre>"
                       + _e("\n".join(divergence["commands"])) + "</pre>")
    out.append("</div>")
    return "\n".join(out)


def render_matrix(reports: list[dict[str, Any]]) -> str:
    """Implementations side by side: share passed per area, then every clause's status per implementation."""
    names = [f"{r['adapter']['name']} {r['adapter']['version']}" for r in reports]
    head = "".join(f"<th>{_e(name)}</th>" for name in names)
    out = ["<h1>Conformance matrix</h1>",
           "<p>" + "; ".join(f"{_e(n)}: run {_e(r['started'])}, profile {_e(r['profile'])}, suite commit "
                            f"{_e(r['suite']['commit'][:12])}, fixtures {_e(r['suite']['fixtures_hash'])}"
                            + ("" if r["complete"] else " (INCOMPLETE)")
                            + f" - {_e(r.get('verdict', {}).get('status', '?'))}" for n, r in zip(names, reports))
           + "</p>",
           f"<h2 id=\"summary\">Share of clauses passed</h2><table><tr><th>area</th>{head}</tr>"]
    areas = sorted({area for r in reports for area in r["summary"]["areas"]})
    for area in ["all", *areas]:
        cells = []
        for r in reports:
            counts = ({"total": r["summary"]["clauses"], **r["summary"]["clauses_by_status"]} if area == "all"
                      else r["summary"]["areas"].get(area, {"total": 0}))
            cells.append(f"<td>{_pct(counts.get('passed', 0), counts['total'])} "
                         f"{stacked_bar(_bar_counts(counts), 160, 10)}</td>")
        out.append(f"<tr class=\"area\"><td>{_e(area)}</td>{''.join(cells)}</tr>")
    out += ["</table>", *render_matrix_campaigns(reports, head), "<h2 id=\"clauses\">Clauses</h2>",
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


def render_matrix_campaigns(reports: list[dict[str, Any]], head: str) -> list[str]:
    """The campaigns each run includes, beside each other: sequences, divergent sequences and signatures,
    clauses applied and table rows reached (a run without a campaign says so)."""
    rows = {"campaign": [], "sequences (calls)": [], "divergent sequences (signatures)": [],
            "clauses applied": [], "table rows reached": []}
    for r in reports:
        campaigns = r.get("campaigns") or []
        if not campaigns:
            for cells in rows.values():
                cells.append("<td>no campaign</td>")
            continue
        rows["campaign"].append("<td>" + "<br>".join(f"<code>{_e(c['id'])}</code> ({_e(c['master'])})"
                                                    for c in campaigns) + "</td>")
        rows["sequences (calls)"].append("<td>" + "<br>".join(f"{_n(c['sequences'])} ({_n(c['steps'])})"
                                                             for c in campaigns) + "</td>")
        rows["divergent sequences (signatures)"].append(
            "<td>" + "<br>".join(f"{_n(c['divergent_sequences'])} ({len(c['signatures'])})" for c in campaigns)
            + "</td>")
        rows["clauses applied"].append("<td>" + "<br>".join(
            f"{_pct(c['coverage']['clauses_applied'], c['coverage']['clauses_total'])} "
            f"({_n(c['coverage']['clauses_applied'])}/{_n(c['coverage']['clauses_total'])})" for c in campaigns)
            + "</td>")
        rows["table rows reached"].append("<td>" + "<br>".join(
            f"{_pct(c['coverage']['table_rows_covered'], c['coverage']['table_rows_total'])} "
            f"({_n(c['coverage']['table_rows_covered'])}/{_n(c['coverage']['table_rows_total'])})" for c in campaigns)
            + "</td>")
    out = [f"<h2 id=\"campaigns\">Campaigns</h2><table><tr><th></th>{head}</tr>"]
    out += [f"<tr><td>{_e(label)}</td>{''.join(cells)}</tr>" for label, cells in rows.items()]
    return out + ["</table>"]


def _signature_label(signature: dict) -> str:
    # the reason codes before the options: a clipped label keeps what tells signatures apart most often
    fields = f" in {signature['fields']}" if signature.get("fields") else ""
    return (f"{signature['op']}{fields}: model {signature['model_reason']}, adapter {signature['impl_reason']} "
            f"[{signature['options'] or 'no options'}]")


def render_campaigns(report: dict[str, Any]) -> str:
    """The "Campaign" section: per campaign included, its headline numbers, a chart of table rows covered per
    table, a chart of divergence signatures by count (or a line saying there were none), each signature's witness
    scenario with the command that runs it, and the most applied clauses."""
    campaigns = report.get("campaigns") or []
    out = ['<h2 id="campaign">Campaign</h2>']
    if not campaigns:
        out.append(f"<p>No campaign in this report. <code>mqconf campaign --adapter {_e(report['adapter']['name'])}"
                   "</code> replays many generated call sequences; the next <code>mqconf run</code> of the same "
                   "adapter includes the latest one (or name one with <code>--campaign PATH</code>).</p>")
    for number, campaign in enumerate(campaigns, 1):
        out.append(render_campaign(campaign, report, f"campaign-{number}"))
    return "\n".join(out)


def render_campaign(campaign: dict[str, Any], report: dict[str, Any], anchor: str) -> str:
    """One campaign of the "Campaign" section (``anchor`` prefixes its element ids)."""
    cov = campaign["coverage"]
    out = [f'<div class="campaign" id="{_e(anchor)}"><h3>Campaign <code>{_e(campaign["id"])}</code></h3>']
    if campaign["adapter"] not in (report["adapter"]["name"], report["adapter"].get("spec")):
        out.append(f'<p class="warn">This campaign ran on <code>{_e(campaign["adapter"])}</code>, not on '
                   f'<code>{_e(report["adapter"]["name"])}</code>, the adapter of this run.</p>')
    elif campaign.get("identity_differs"):
        out.append('<p class="warn">This campaign is of another implementation than this run\'s (shown, not '
                   f'counted): {_e("; ".join(campaign["identity_differs"]))}</p>')
    replayed = (f"the corpus {campaign['corpus']}" if campaign["corpus"] else
                f"{campaign['sequences']} generated sequences of {campaign['length']} calls, seed {campaign['seed']}")
    seconds = f", {campaign['seconds']} s" if campaign["seconds"] is not None else ""
    out.append('<table class="meta">')
    for label, value in (
        ("adapter", campaign["adapter"]),
        ("replayed", f"{replayed}; areas {', '.join(campaign['areas']) or '-'}"),
        ("run", f"{campaign['master']}{seconds}"),
        ("calls replayed", campaign["steps"]),
        ("divergent sequences", f"{campaign['divergent_sequences']} of {campaign['sequences']} in "
                                f"{len(campaign['signatures'])} signature(s)"),
        ("clauses applied", f"{cov['clauses_applied']} of {cov['clauses_total']} "
                            f"({_pct(cov['clauses_applied'], cov['clauses_total'])})"),
        ("table rows covered", f"{cov['table_rows_covered']} of {cov['table_rows_total']} "
                               f"({_pct(cov['table_rows_covered'], cov['table_rows_total'])})"),
        ("summary", campaign["summary"]),
    ):
        out.append(f"<tr><td>{_e(label)}</td><td>{_e(value)}</td></tr>")
    out.append("</table>")

    tables = campaign["tables"]
    out.append("<h4>Table rows covered, per table</h4><p>Dark: rows some replayed call was decided by; light: the "
               "table's other rows.</p>")
    out.append(bar_chart(f"{anchor}-tables", "Table rows covered by the campaign, per table", [
        {"label": table_id, "value": t["covered"], "total": t["rows"], "text": f"{t['covered']}/{t['rows']}",
         "title": f"{table_id}: {t['covered']} of {t['rows']} rows covered"} for table_id, t in tables.items()]))
    uncovered = {table_id: t["uncovered"] for table_id, t in tables.items() if t["uncovered"]}
    if uncovered:
        out.append(f"<details><summary>rows never reached ({sum(map(len, uncovered.values()))})</summary><ul>"
                   + "".join(f"<li><code>{_e(table_id)}</code>: " + ", ".join(f"<code>{_e(r)}</code>" for r in rows)
                             + "</li>" for table_id, rows in uncovered.items()) + "</ul></details>")

    signatures = campaign["signatures"]
    out.append("<h4>Divergences by signature</h4>")
    if not signatures:
        out.append(f'<p class="ok">No divergence in {campaign["sequences"]} sequences ({campaign["steps"]} calls): '
                   "the adapter answered every call as the model did.</p>")
    else:
        out.append("<p>A signature is the first diverging call's op and options, the fields it differs in (each "
                   "MQINQ selector apart) and the reason codes of the model and of the adapter; each has a witness, the shortest sequence showing it, as a scenario file.</p>")
        out.append(bar_chart(f"{anchor}-signatures", "Divergent sequences per signature", [
            {"label": f"#{i} {_signature_label(sig)}", "value": sig["count"], "text": str(sig["count"]),
             "title": f"#{i} {_signature_label(sig)}: {sig['count']} sequence(s)"}
            for i, sig in enumerate(signatures, 1)], colour=DIVERGED))
        out.append('<table class="signatures"><tr><th>#</th><th class=num>sequences</th><th>call</th>'
                   "<th>model / adapter</th><th>witness scenario</th></tr>")
        for i, sig in enumerate(signatures, 1):
            witness = sig["witness"]
            where = (f"<code>{_e(witness['path'])}</code><br>run it: <code>{_e(witness['command'])}</code>"
                     if witness["path"] else "(no witness file recorded)")
            out.append(f'<tr class="signature" id="{_e(anchor)}-sig-{i}"><td>{i}</td><td class=num>{sig["count"]}</td>'
                       f"<td><code>{_e(sig['op'])}</code> [{_e(sig['options'] or 'no options')}]"
                       + (f"<br>in <code>{_e(sig['fields'])}</code>" if sig.get("fields") else "") + "</td>"
                       f"<td>{_e(sig['model_reason'])} / {_e(sig['impl_reason'])}</td>"
                       f"<td>{where}<br><small>sequence {_e(witness['sequence_id'])}, "
                       f"{witness['length']} calls</small></td></tr>")
        out.append("</table>")

    if campaign["top_clauses"]:
        most = campaign["top_clauses"][0]["count"]
        out.append(f"<details><summary>most applied clauses ({len(campaign['top_clauses'])} of "
                   f"{campaign['clauses_counted']})</summary><table><tr><th>clause</th><th class=num>calls</th>"
                   "<th></th></tr>")
        for clause in campaign["top_clauses"]:
            link = (f'<a href="#c-{_e(clause["id"])}"><code>{_e(clause["id"])}</code></a>'
                    if clause["id"] in report["clauses"] else f"<code>{_e(clause['id'])}</code>")
            out.append(f"<tr><td>{link}</td><td class=num>{clause['count']}</td>"
                       f"<td>{count_bar(clause['count'], most)}</td></tr>")
        out.append("</table></details>")
    out.append("</div>")
    return "\n".join(out)
