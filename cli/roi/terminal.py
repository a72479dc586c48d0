"""`pdks stats` in the terminal: 80 columns, plain text unless asked for colour.

The caller decides colour (stdout is a terminal and NO_COLOR is unset); the text is the same
either way, colour only wraps parts of it, so piped output is exactly the plain layout.
"""

from __future__ import annotations

import math
import unicodedata

from polydeukes.cli.roi.summary import Count, Report, headline, plural, selection_text

WIDTH = 80
LABEL_WIDTH = 20
SPARK_WIDTH = 48
BAR_WIDTH = 8
EIGHTHS = " ▏▎▍▌▋▊▉█"
SPARKS = "▁▂▃▄▅▆▇█"
EMPTY_BUCKET = "·"
DOT = " · "
COLUMNS = (("pass", "passed"), ("adv", "advised"), ("blk", "blocked"), ("wit", "witnessed"),
           ("skip", "skipped"), ("unat", "unattributed"))

_BOLD, _RED, _YELLOW, _MAGENTA, _CYAN, _DIM, _RESET = (
    "\x1b[1m", "\x1b[31m", "\x1b[33m", "\x1b[35m", "\x1b[36m", "\x1b[2m", "\x1b[0m")


class _Paint:
    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, style: str, text: str) -> str:
        return f"{style}{text}{_RESET}" if self.color and text.strip() else text


def cell_width(text: str) -> int:
    """Terminal columns: East Asian wide and fullwidth characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _prefix(text: str, width: int) -> str:
    kept, used = [], 0
    for char in text:
        used += cell_width(char)
        if used > width:
            break
        kept.append(char)
    return "".join(kept)


def fit(text: str, width: int, *, middle: bool = False) -> str:
    """`text` cut to `width` columns with an ellipsis, then padded to exactly `width`.

    `middle` keeps both ends (a path keeps its file name: `src/ap…/page.tsx`).
    """
    if cell_width(text) > width:
        if middle:
            tail = _prefix(text[::-1], (width - 1) // 2)[::-1]
            text = _prefix(text, width - 1 - cell_width(tail)) + "…" + tail
        else:
            text = _prefix(text, width - 1) + "…"
    return text + " " * (width - cell_width(text))


def number(n: int, width: int) -> str:
    """Right-aligned; too many digits for the column become 123k / 1.2M / 12M."""
    text = str(n)
    if len(text) > width:
        for value, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
            if n >= value:
                scaled = n / value
                text = f"{scaled:.1f}{suffix}" if scaled < 10 else f"{scaled:.0f}{suffix}"
                break
    return text.rjust(width)


def bar(value: int, peak: int, width: int = BAR_WIDTH) -> str:
    """A horizontal bar in eighths of a cell; any non-zero value shows at least one eighth."""
    if value <= 0 or peak <= 0:
        return ""
    eighths = max(1, round(value / peak * width * 8))
    full, part = divmod(eighths, 8)
    return "█" * full + (EIGHTHS[part] if part else "")


def resample(values: list[int], width: int) -> tuple[list[int], int]:
    """Sum runs of k consecutive buckets so that at most `width` remain; returns (sums, k)."""
    k = max(1, math.ceil(len(values) / width))
    return [sum(values[i:i + k]) for i in range(0, len(values), k)], k


def sparkline(values: list[int]) -> str:
    peak = max(values, default=0)
    if peak == 0:
        return EMPTY_BUCKET * len(values)
    return "".join(EMPTY_BUCKET if v == 0 else SPARKS[math.ceil(v / peak * 8) - 1]
                   for v in values)


def _counts_text(counts: list[Count]) -> str:
    return DOT.join(f"{c.name} {c.count:,}" for c in counts)


def render(report: Report, *, color: bool = False) -> str:
    paint = _Paint(color)
    out = [paint(_BOLD, f"pdks stats — {', '.join(report.logs) or 'no log'}")]
    out.append(DOT.join(headline(report)))
    selection = selection_text(report)
    if selection:
        out.append("selection: " + DOT.join(selection))
    if report.rows == 0:
        nothing = "no rows in this selection" if selection else "no telemetry collected"
        out += ["", nothing]
        out += _rules(report, paint)
        return "\n".join(out) + "\n"

    out += ["", *_table(report, paint)]
    out += ["", *_sparklines(report, paint)]
    out += _rules(report, paint)
    out += ["", *_skips(report, paint)]
    out += ["", *_witness(report, paint)]
    out += ["", *_most_blocked(report, paint)]
    return "\n".join(out) + "\n"


def _table(report: Report, paint: _Paint) -> list[str]:
    header = fit("label", LABEL_WIDTH) + "".join(f" {short:>5}" for short, _ in COLUMNS)
    header += f" {'total':>6} {'share':>5}  blocked"
    lines = [paint(_BOLD, header)]
    peak = max(s.blocked for s in report.labels)
    styles = {"advised": _YELLOW, "blocked": _RED, "witnessed": _MAGENTA}
    for stats in report.labels:
        cells = []
        for _, event in COLUMNS:
            value = getattr(stats, event)
            text = f" {number(value, 5)}"
            cells.append(paint(styles[event], text) if value and event in styles else text)
        share = ("100%" if stats.share >= 100 else f"{stats.share:.1f}%" if stats.share >= 0.1
                 else "<0.1%")
        lines.append((fit(stats.label, LABEL_WIDTH) + "".join(cells)
                      + f" {number(stats.total, 6)} {share:>5}  "
                      + paint(_RED, bar(stats.blocked, peak))).rstrip())
    legend = [f"{short} {event}" for short, event in COLUMNS]
    lines.append(paint(_DIM, DOT.join(legend[:5])))
    lines.append(paint(_DIM, DOT.join([legend[5], "share: part of all rows shown",
                                       "bar: blocked rows"])))
    return lines


def _sparklines(report: Report, paint: _Paint) -> list[str]:
    k = resample(report.series, SPARK_WIDTH)[1]
    unit = f"1 {report.bucket}" if k == 1 else f"{k} {report.bucket}s"
    lines = [paint(_BOLD, f"Rows per {report.bucket}") + f"{DOT}one character = {unit}"]
    for name, values in (("(all rows)", report.series),
                         *((s.label, s.series) for s in report.labels)):
        sums, _ = resample(values, SPARK_WIDTH)
        peak = f"  peak {max(sums):,}"
        lines.append(fit(name, LABEL_WIDTH) + " " + paint(_CYAN, sparkline(sums)) + peak)
    return lines


def _rules(report: Report, paint: _Paint) -> list[str]:
    if report.rules is None:
        import textwrap

        note = f"Rules: not shown — {report.config_note or 'no config'}"
        lines = textwrap.wrap(note, WIDTH, subsequent_indent="  ", break_on_hyphens=False)
        return ["", paint(_BOLD, "Rules") + lines[0][len("Rules"):], *lines[1:]]
    rules = report.rules
    lines = [""]
    title = paint(_BOLD, "Dead rules")
    if rules.dead:
        lines.append(f"{title}: {len(rules.dead)} of {plural(rules.disciplines, 'discipline')} "
                     f"in {rules.config} wrote no row")
        lines += _wrapped(rules.dead)
    else:
        lines.append(f"{title}: none — every discipline in {rules.config} wrote a row")
    if rules.drafts:
        lines.append(paint(_BOLD, "Drafts") + f": {len(rules.drafts)} (prose only, never judged, "
                     "no rows by design)")
        lines += _wrapped(rules.drafts)
    return lines


def _wrapped(names: list[str], indent: str = "  ") -> list[str]:
    lines, current = [], indent
    for name in names:
        piece = name if current == indent else DOT + name
        if cell_width(current + piece) > WIDTH and current != indent:
            lines.append(current)
            current, piece = indent, name
        current += piece
    lines.append(fit(current, WIDTH).rstrip())
    return lines


def _skips(report: Report, paint: _Paint) -> list[str]:
    if not report.skip_reasons:
        return [paint(_BOLD, "Skips by reason") + ": none"]
    lines = [paint(_BOLD, "Skips by reason")]
    for reason in report.skip_reasons:
        head = f"  {fit(reason.reason or '(no reason)', 16)}{number(reason.count, 8)}  "
        lines.append(head + fit(_counts_text(reason.labels), WIDTH - len(head)).rstrip())
    return lines


def _witness(report: Report, paint: _Paint) -> list[str]:
    title = paint(_BOLD, "Witness valve")
    if not report.witnessed:
        return [f"{title}: never opened"]
    head = f"{title}: opened {plural(report.witnessed, 'time')} — "
    plain = f"Witness valve: opened {plural(report.witnessed, 'time')} — "
    return [head + fit(_counts_text(report.witnessed_by), WIDTH - len(plain)).rstrip()]


def _most_blocked(report: Report, paint: _Paint) -> list[str]:
    if not report.most_blocked:
        return [paint(_BOLD, "Most blocked subjects") + ": none"]
    lines = [paint(_BOLD, f"Most blocked subjects (top {len(report.most_blocked)})")]
    for subject in report.most_blocked:
        head = f"{number(subject.count, 7)}  {fit(subject.subject, 36, middle=True)}  "
        lines.append(paint(_RED, head[:7]) + head[7:]
                     + fit(_counts_text(subject.labels), WIDTH - cell_width(head)).rstrip())
    return lines
