"""`pdks stats --html`: one self-contained file a lead can attach to a retrospective.

Inline CSS and inline SVG only: no script, no font, no image, nothing fetched. Every chart
element carries its numbers as `data-*` attributes and a `<title>` tooltip, so the report can
be checked by an HTML parser and read without hovering.
"""

from __future__ import annotations

import time
from html import escape

from polydeukes.cli.roi.summary import (
    EVENT_ORDER, Count, Report, headline, plural, selection_text,
)
from polydeukes.cli.roi.terminal import resample

COLORS = {
    "passed": "#3a8a4a", "advised": "#d99a1c", "blocked": "#c8372d", "witnessed": "#7b3fa0",
    "skipped": "#8795a1", "unattributed": "#2f78b7",
}
MAX_BARS = 90  # stacked bars shown; more buckets are summed in runs (the caption says so)
CHART_W, CHART_H = 880, 240
LEFT, BOTTOM, TOP = 48, 28, 10

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2327;
margin:24px auto;max-width:960px;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;
padding-bottom:4px}.muted{color:#5f6b73}.cards{display:flex;flex-wrap:wrap;gap:10px;margin:16px 0}
.card{border:1px solid #dde2e5;border-radius:6px;padding:8px 14px;min-width:92px}
.card b{display:block;font-size:20px}table{border-collapse:collapse;width:100%}
table{font-size:13px}th,td{padding:3px 6px;border-bottom:1px solid #eceff1;text-align:right;
white-space:nowrap}th{background:#f5f7f8;font-weight:600;white-space:normal}
.cut{display:inline-block;max-width:190px;overflow:hidden;text-overflow:ellipsis;
vertical-align:bottom}.cut.wide{max-width:330px}
.scroll{overflow-x:auto}td.name,th.name{text-align:left}.legend span{display:inline-block;margin-right:14px}
.legend i{display:inline-block;width:11px;height:11px;margin-right:5px;vertical-align:-1px}
svg text{font:11px system-ui,sans-serif;fill:#5f6b73}ul.names{columns:3;margin:6px 0}
footer{margin-top:32px;font-size:12px}
"""


def _cut(text: str, css: str = "cut") -> str:
    """A name that may be long, cut with an ellipsis on screen; whole in its tooltip."""
    return f'<span class="{css}" title="{escape(text)}">{escape(text)}</span>'


def _names(counts: list[Count]) -> str:
    return _cut(", ".join(f"{c.name} {c.count:,}" for c in counts), "cut wide")


def render_html(report: Report, *, generator: str, now: float | None = None) -> str:
    made = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now if now is not None else time.time()))
    title = "pdks stats — " + ", ".join(report.logs)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta name="generator" content="{escape(generator)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="muted">{escape(_facts(report))} · generated {made}</p>',
    ]
    if report.rows == 0:
        parts.append("<p>" + ("no rows in this selection" if selection_text(report)
                              else "no telemetry collected") + "</p>")
    else:
        parts += _cards(report)
        parts += _stacked(report)
        parts += _stacked(report, ATTENTION, "attention-per-bucket")
        parts += _label_table(report)
        parts += _skips(report)
        parts += _witness(report)
        parts += _most_blocked(report)
    parts += _rules(report)
    parts.append('<footer class="muted">How to read each figure: docs/telemetry.md in the '
                 "polydeukes repository. Every count is a row of the log: one judgment by one "
                 "label on one call.</footer>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _facts(report: Report) -> str:
    return " · ".join(headline(report) + selection_text(report))


def _cards(report: Report) -> list[str]:
    totals = {event: sum(report.events[event]) for event in EVENT_ORDER}
    cards = [f'<div class="card" data-card="rows"><b>{report.rows:,}</b>rows</div>']
    cards += [f'<div class="card" data-card="{event}" style="border-left:4px solid '
              f'{COLORS[event]}"><b>{totals[event]:,}</b>{event}</div>' for event in EVENT_ORDER]
    return ['<div class="cards">', *cards, "</div>"]


# The second chart leaves out passed, skipped and unattributed rows: on a healthy log they
# dwarf the few rows that stopped or warned, which are the ones a retrospective is about.
ATTENTION = ("advised", "blocked", "witnessed")


def _stacked(report: Report, events: tuple[str, ...] = EVENT_ORDER,
             chart_id: str = "events-per-bucket") -> list[str]:
    """Rows per bucket, stacked by event, one bar per bucket (or per run of buckets)."""
    sums = {event: resample(report.events[event], MAX_BARS)[0] for event in events}
    k = resample(report.series, MAX_BARS)[1]
    starts = report.buckets[::k]
    count = len(starts)
    totals = [sum(sums[event][i] for event in events) for i in range(count)]
    peak = max(totals, default=0) or 1
    plot_w, plot_h = CHART_W - LEFT - 8, CHART_H - BOTTOM - TOP
    step = plot_w / max(count, 1)
    width = max(step * 0.8, 1.0)
    unit = f"1 {report.bucket}" if k == 1 else f"{k} {report.bucket}s"
    svg = [f'<svg id="{chart_id}" role="img" width="{CHART_W}" height="{CHART_H}" '
           f'viewBox="0 0 {CHART_W} {CHART_H}" data-bucket="{report.bucket}" data-per-bar="{k}" '
           f'data-peak="{peak}"><title>Rows per {unit}, stacked by event</title>']
    for fraction in (0, 0.5, 1):  # gridlines with their values
        y = TOP + plot_h * (1 - fraction)
        svg.append(f'<line x1="{LEFT}" x2="{CHART_W - 8}" y1="{y:.1f}" y2="{y:.1f}" '
                   'stroke="#e3e7ea"/>')
        svg.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
                   f"{round(peak * fraction):,}</text>")
    for i, start in enumerate(starts):
        x = LEFT + i * step + (step - width) / 2
        y = TOP + plot_h
        for event in events:
            n = sums[event][i]
            if not n:
                continue
            h = plot_h * n / peak
            y -= h
            svg.append(f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" '
                       f'height="{h:.1f}" fill="{COLORS[event]}" data-chart="{chart_id}" '
                       f'data-bucket="{start}" data-event="{event}" data-count="{n}">'
                       f"<title>{start}: {n:,} {event}</title></rect>")
    for i in sorted({0, count // 2, count - 1}) if count else ():
        # The first and last dates align with their bar's edge so they stay inside the chart.
        anchor, x = ("start", LEFT + i * step) if i == 0 else (
            ("end", LEFT + (i + 1) * step) if i == count - 1 else ("middle", LEFT + (i + .5) * step))
        svg.append(f'<text class="tick" x="{x:.1f}" y="{CHART_H - 8}" '
                   f'text-anchor="{anchor}">{starts[i]}</text>')
    svg.append("</svg>")
    legend = "".join(f'<span><i style="background:{COLORS[e]}"></i>{e}</span>'
                     for e in events)
    if events == EVENT_ORDER:
        title, note = f"Rows per {report.bucket}, by event", f"One bar = {unit}; the scale is rows."
    else:
        title = f"{', '.join(events[:-1]).capitalize()} and {events[-1]} per {report.bucket}"
        note = (f"The rows that warned, stopped or were let through, on their own scale; "
                f"one bar = {unit}.")
    return [f"<h2>{title}</h2>", f'<p class="muted">{note}</p>',
            *svg, f'<div class="legend">{legend}</div>']


def _spark(values: list[int], label: str) -> str:
    sums, _ = resample(values, 60)
    peak = max(sums, default=0) or 1
    w, h = 90, 22
    step = w / max(len(sums) - 1, 1)
    points = " ".join(f"{i * step:.1f},{h - 2 - (h - 4) * v / peak:.1f}"
                      for i, v in enumerate(sums))
    return (f'<svg class="spark" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            f'data-label="{escape(label)}" data-values="{",".join(map(str, sums))}">'
            f'<polyline points="{points}" fill="none" stroke="#2f78b7" stroke-width="1.5"/>'
            f"<title>{escape(label)}: peak {max(sums, default=0):,} rows per bar</title></svg>")


def _hbar(value: int, peak: int, color: str, name: str) -> str:
    w = 80
    length = 0 if not peak else max(w * value / peak, 1 if value else 0)
    return (f'<svg class="hbar" width="{w}" height="12" viewBox="0 0 {w} 12" '
            f'data-name="{escape(name)}" data-value="{value}"><rect width="{length:.1f}" '
            f'height="12" fill="{color}"><title>{value:,}</title></rect></svg>')


def _label_table(report: Report) -> list[str]:
    peak = max(s.blocked for s in report.labels)
    head = "".join(f"<th>{event}</th>" for event in EVENT_ORDER)
    rows = [f"<h2>Per label</h2>",
            '<p class="muted">Sorted by blocked rows. Share: the label\'s part of all rows '
            "shown. The sparkline is its rows over the whole span.</p>",
            f'<div class="scroll"><table id="labels"><tr><th class="name">label</th>{head}<th>total</th>'
            "<th>share</th><th>blocked</th><th>over time</th></tr>"]
    for s in report.labels:
        cells = "".join(f'<td data-event="{event}">{getattr(s, event):,}</td>'
                        for event in EVENT_ORDER)
        rows.append(f'<tr data-label="{escape(s.label)}"><td class="name">{_cut(s.label)}</td>'
                    f'{cells}<td data-total="{s.total}">{s.total:,}</td><td>{s.share:.1f}%</td>'
                    f"<td>{_hbar(s.blocked, peak, COLORS['blocked'], s.label)}</td>"
                    f"<td>{_spark(s.series, s.label)}</td></tr>")
    rows.append("</table></div>")
    return rows


def _skips(report: Report) -> list[str]:
    out = ["<h2>Skips by reason</h2>"]
    if not report.skip_reasons:
        return out + ["<p>none</p>"]
    peak = max(r.count for r in report.skip_reasons)
    out.append('<table id="skips"><tr><th class="name">reason</th><th>rows</th><th></th>'
               '<th class="name">labels</th></tr>')
    for r in report.skip_reasons:
        name = r.reason or "(no reason)"
        out.append(f'<tr data-reason="{escape(r.reason)}"><td class="name">{_cut(name)}</td>'
                   f"<td>{r.count:,}</td><td>{_hbar(r.count, peak, COLORS['skipped'], name)}</td>"
                   f'<td class="name">{_names(r.labels)}</td></tr>')
    return out + ["</table>"]


def _witness(report: Report) -> list[str]:
    if not report.witnessed:
        return ["<h2>Witness valve</h2>", '<p id="witness" data-opened="0">never opened</p>']
    return ["<h2>Witness valve</h2>",
            f'<p id="witness" data-opened="{report.witnessed}">opened '
            f"{plural(report.witnessed, 'time')}: {_names(report.witnessed_by)}</p>"]


def _most_blocked(report: Report) -> list[str]:
    out = ["<h2>Most blocked subjects</h2>"]
    if not report.most_blocked:
        return out + ["<p>none</p>"]
    peak = report.most_blocked[0].count
    out.append('<table id="most-blocked"><tr><th class="name">subject</th><th>blocked</th>'
               '<th></th><th class="name">by</th></tr>')
    for s in report.most_blocked:
        out.append(f'<tr data-subject="{escape(s.subject)}"><td class="name">'
                   f"{_cut(s.subject)}</td><td>{s.count:,}</td>"
                   f"<td>{_hbar(s.count, peak, COLORS['blocked'], s.subject)}</td>"
                   f'<td class="name">{_names(s.labels)}</td></tr>')
    return out + ["</table>"]


def _rules(report: Report) -> list[str]:
    out = ["<h2>Dead rules</h2>"]
    if report.rules is None:
        return out + [f'<p id="dead-rules" class="muted">not shown — '
                      f"{escape(report.config_note or 'no config')}</p>"]
    rules = report.rules
    if rules.dead:
        out.append(f'<p class="muted">{len(rules.dead)} of {plural(rules.disciplines, "discipline")}'
                   f" in {escape(rules.config)} wrote no row in this selection.</p>")
        out.append('<ul id="dead-rules" class="names">'
                   + "".join(f"<li>{escape(d)}</li>" for d in rules.dead) + "</ul>")
    else:
        out.append(f'<p id="dead-rules">none: every discipline in {escape(rules.config)} '
                   "wrote a row</p>")
    if rules.drafts:
        out.append("<h2>Drafts</h2><p class=\"muted\">Prose only, never judged, no rows by "
                   "design.</p>")
        out.append('<ul id="drafts" class="names">'
                   + "".join(f"<li>{escape(d)}</li>" for d in rules.drafts) + "</ul>")
    return out
