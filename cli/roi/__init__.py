"""Reading `.polydeukes/roi.log` for people: `pdks stats` and `pdks log export` (cold path).

Nothing here is imported by `pdks covenant check`. The log is only ever opened read-only.

* `read` — which files, the selection (time window, labels, events), streaming the rows;
* `summary` — the aggregates `pdks stats` shows (and `--json` prints);
* `terminal` / `report` — the terminal table and the self-contained HTML report;
* `export` — every row as JSON lines or CSV for a team's log pipeline;
* `command` — the two commands' flag handling and messages.
"""
