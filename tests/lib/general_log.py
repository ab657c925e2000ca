#!/usr/bin/env python3
"""The values of sysbench statements, read from MariaDB's general log
(log_output=TABLE: `thread_id, command_type, argument` rows, tab-separated),
for two runs of oltp_read_write: Debian's sysbench and dbrig. Python standard
library only.

  general_log.py SYSBENCH.tsv DBRIG.tsv RANGE_SIZE TABLES TABLE_SIZE

For each run: every transaction has the same statements in the same order
(and the same as the other tool's); every BETWEEN covers RANGE_SIZE ids;
every id and range start is in 1..TABLE_SIZE; the point selects of one
transaction use one table; the DELETE and the INSERT use the same table and
the same id; the INSERT's k, c and pad are in sysbench's ranges and
templates; each statement group picks its table uniformly (every table holds
25-75% of the picks, with 2 tables); and the ids follow the same
distribution as sysbench's (the share of point-select ids in the middle 1%
of the table within 10 points of sysbench's: 'special' puts ~75% there).
"""
import re
import sys

KINDS = [
    ("point", re.compile(r"SELECT c FROM sbtest(\d+) WHERE id=(\d+)$")),
    ("simple", re.compile(r"SELECT c FROM sbtest(\d+) WHERE id BETWEEN (\d+) AND (\d+)$")),
    ("sum", re.compile(r"SELECT SUM\(k\) FROM sbtest(\d+) WHERE id BETWEEN (\d+) AND (\d+)$")),
    ("order", re.compile(r"SELECT c FROM sbtest(\d+) WHERE id BETWEEN (\d+) AND (\d+) ORDER BY c$")),
    ("distinct", re.compile(r"SELECT DISTINCT c FROM sbtest(\d+) WHERE id BETWEEN (\d+) AND (\d+) ORDER BY c$")),
    ("index_update", re.compile(r"UPDATE sbtest(\d+) SET k=k\+1 WHERE id=(\d+)$")),
    ("non_index_update", re.compile(r"UPDATE sbtest(\d+) SET c='([^']*)' WHERE id=(\d+)$")),
    ("delete", re.compile(r"DELETE FROM sbtest(\d+) WHERE id=(\d+)$")),
    ("insert", re.compile(r"INSERT INTO sbtest(\d+) \(id, k, c, pad\) VALUES \((\d+), (\d+), '([^']*)', '([^']*)'\)$")),
]
C_TMPL = re.compile(r"^([0-9]{11}-){9}[0-9]{11}$")
PAD_TMPL = re.compile(r"^([0-9]{11}-){4}[0-9]{11}$")


def transactions(path):
    """The Execute statements between BEGIN and COMMIT of the workload's connections."""
    txs, cur = [], {}
    for line in open(path, errors="replace"):
        parts = line.rstrip("\n").split("\t", 2)
        if len(parts) != 3 or parts[1] not in ("Execute", "Query"):
            continue
        th, arg = parts[0], parts[2]
        if arg == "BEGIN":
            cur[th] = []
        elif arg == "COMMIT" and th in cur:
            txs.append(cur.pop(th))
        elif th in cur:
            for kind, rx in KINDS:
                m = rx.match(arg)
                if m:
                    cur[th].append((kind, m.groups()))
                    break
            else:
                cur[th].append(("?", (arg[:80],)))
    return txs


def check(name, txs, rsize, tables, tsize, err):
    def bad(msg):
        err.append("%s: %s" % (name, msg))
    if len(txs) < 100:
        bad("only %d transactions in the log" % len(txs))
        return None
    shapes = set(tuple(k for k, _ in t) for t in txs)
    if len(shapes) != 1:
        bad("%d different statement sequences" % len(shapes))
    picks = {}
    mid = [0, 0]
    lo_mid, hi_mid = tsize // 2 - tsize // 200, tsize // 2 + tsize // 200
    for t in txs:
        seen_group = {}
        last_del = None
        for kind, g in t:
            if kind == "?":
                bad("unknown statement %s" % g[0])
                continue
            tbl = int(g[0])
            if not 1 <= tbl <= tables:
                bad("%s on sbtest%d" % (kind, tbl))
            # one table per statement group and transaction
            grp = "delete_insert" if kind in ("delete", "insert") else kind
            if seen_group.setdefault(grp, tbl) != tbl:
                bad("the %s group of one transaction uses sbtest%d and sbtest%d" % (grp, seen_group[grp], tbl))
            if kind in ("simple", "sum", "order", "distinct"):
                a, b = int(g[1]), int(g[2])
                if b - a + 1 != rsize:
                    bad("%s range %d..%d is %d ids, not --range-size=%d" % (kind, a, b, b - a + 1, rsize))
                if not 1 <= a <= tsize:
                    bad("%s range starts at %d" % (kind, a))
            ident = {"point": 1, "index_update": 1, "non_index_update": 2, "delete": 1, "insert": 1}.get(kind)
            if ident is not None and not 1 <= int(g[ident]) <= tsize:
                bad("%s id %s outside 1..%d" % (kind, g[ident], tsize))
            if kind == "point":
                mid[0] += lo_mid <= int(g[1]) <= hi_mid
                mid[1] += 1
            if kind == "non_index_update" and not C_TMPL.match(g[1]):
                bad("UPDATE SET c=%r is not sysbench's template" % g[1][:40])
            if kind == "delete":
                last_del = (tbl, int(g[1]))
            if kind == "insert":
                if last_del != (tbl, int(g[1])):
                    bad("INSERT into sbtest%d id %s after DELETE %s" % (tbl, g[1], last_del))
                if not 1 <= int(g[2]) <= tsize or not C_TMPL.match(g[3]) or not PAD_TMPL.match(g[4]):
                    bad("INSERT values k=%s c=%r pad=%r" % (g[2], g[3][:20], g[4][:20]))
        for grp, tbl in seen_group.items():
            picks.setdefault(grp, [0] * (tables + 1))[tbl] += 1
    for grp, n in picks.items():
        tot = sum(n)
        for tbl in range(1, tables + 1):
            share = n[tbl] / tot
            if not 0.5 / tables <= share <= 1.5 / tables:
                bad("the %s group picked sbtest%d in %.0f%% of %d transactions" % (grp, tbl, 100 * share, tot))
    return shapes, mid[0] / mid[1] if mid[1] else 0


def main(a):
    if len(a) != 6:
        sys.exit(__doc__)
    rsize, tables, tsize = int(a[3]), int(a[4]), int(a[5])
    err = []
    got = {}
    for name, path in (("sysbench", a[1]), ("dbrig", a[2])):
        txs = transactions(path)
        r = check(name, txs, rsize, tables, tsize, err)
        if r:
            got[name] = r
            print("general_log: %s: %d transactions, %.1f%% of point-select ids in the middle 1%%"
                  % (name, len(txs), 100 * r[1]))
    if len(got) == 2:
        if got["sysbench"][0] != got["dbrig"][0]:
            err.append("the statement sequences differ: sysbench %s, dbrig %s" % (got["sysbench"][0], got["dbrig"][0]))
        if abs(got["sysbench"][1] - got["dbrig"][1]) > 0.10:
            err.append("ids in the middle 1%%: sysbench %.1f%%, dbrig %.1f%%" % (100 * got["sysbench"][1], 100 * got["dbrig"][1]))
    for e in err[:20]:
        print("general_log: FAIL: " + e, file=sys.stderr)
    if len(err) > 20:
        print("general_log: FAIL: ... %d more" % (len(err) - 20), file=sys.stderr)
    return 1 if err else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
