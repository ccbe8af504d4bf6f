"""A status badge (SVG, in the familiar two-part shape) for a run: clauses passed out of all clauses."""

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
    """Green when no claimed clause failed or passed unexpectedly; red otherwise; grey for an interrupted run."""
    by_status = report["summary"]["clauses_by_status"]
    total = report["summary"]["clauses"]
    passed = by_status.get("passed", 0)
    broken = by_status.get("failed", 0) + by_status.get("unexpected pass", 0)
    if not report["complete"]:
        colour, message = "#9e9e9e", f"{passed}/{total} (interrupted)"
    else:
        colour, message = ("#c62828" if broken else "#2e7d32"), f"{passed}/{total} clauses"
    return badge(f"MQ conformance: {report['adapter']['name']}", message, colour)
