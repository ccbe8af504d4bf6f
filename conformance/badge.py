"""A status badge (SVG, in the familiar two-part shape) for a run: its verdict in a word (PASSED, FAILED or
INCOMPLETE), and the claimed clauses passed, counted as the headline counts them."""

from __future__ import annotations

from html import escape

_CHAR = 6.5  # average glyph width of 11px Verdana, close enough for a badge


def badge(label: str, message: str, colour: str) -> str:
    """A flat two-part badge; both texts are escaped."""
    lw, mw = int(len(label) * _CHAR) + 10, int(len(message) * _CHAR) + 10
    width = lw + mw
    label, message = escape(label), escape(message)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
        f'aria-label="{label}: {message}"><title>{label}: {message}</title>'
        f'<rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{mw}" height="20" fill="{colour}"/>'
        f'<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
        f'<text x="{lw / 2:.1f}" y="14">{label}</text><text x="{lw + mw / 2:.1f}" y="14">{message}</text></g></svg>\n'
    )


def badge_for(report: dict) -> str:
    """The run's verdict: green only when it passed (complete, and nothing failed: no clause, scenario or test,
    with or without a clause); red when something failed; grey and INCOMPLETE when results are missing."""
    verdict = report["verdict"]
    by_status = report["summary"]["clauses_by_status"]
    # the clauses claimed, as the headline counts them (report.verdict)
    total = report["verdict"]["counts"].get("claimed_clauses",
                                            report["summary"]["clauses"] - by_status.get("not claimed", 0))
    passed = by_status.get("passed", 0)
    counts = verdict["counts"]
    if verdict["status"] == "incomplete":
        colour, message = "#9e9e9e", f"INCOMPLETE {passed}/{total}"
    elif verdict["status"] == "failed":
        parts = [f"{counts['failed_clauses']} clauses failed"] if counts["failed_clauses"] else []
        unattributed = counts["failed_scenarios"] + counts["failed_tests"] if not parts else 0
        if unattributed:
            parts.append(f"{unattributed} failed")
        if counts["unexpected_passes"] and not parts:
            parts.append(f"{counts['unexpected_passes']} unexpected passes")
        colour, message = "#c62828", f"FAILED {passed}/{total}" + "".join(f", {part}" for part in parts)
    else:
        colour, message = "#2e7d32", f"PASSED {passed}/{total} clauses"
    return badge(f"MQ conformance: {report['adapter']['name']}", message, colour)
