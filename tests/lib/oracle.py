#!/usr/bin/env python3
"""Independent checks of what dbrig measured (Python standard library only).

Nothing here calls dbrig or reuses its code: the histogram geometry, the
nearest-rank percentile and the published-method figures are computed again
from their definitions (src/stats/hist.h's contract, docs/result-format.md,
docs/reading-reports.md), so a bug in the code under test cannot hide in
the check.

  oracle.py result FILE.json [--journal FILE.jsonl] [--no-little WHY] [--think-model]
      every phase: histogram buckets sum to the transactions, min/max/sum lie
      in the buckets, every stored percentile (phase, type, interval) equals the
      nearest rank recomputed from the buckets, TPS = transactions / seconds,
      and Little's law: in a closed loop threads / TPS = average latency (5%,
      plus avg/seconds: each phase boundary cuts the transactions in flight;
      plus 50 ms/seconds in a run's first phase: the loops' wake-up at the start;
      when TPS is low for the latencies, plus 0.4 x the CPU pressure, PSI; when
      high, in a sample after a precondition, max/seconds: its first transactions);
      TPC-C with think times: no terminal is faster than its schedule (exact:
      the keying before each submit plus the response, summed over the run,
      fit in terminals x the run's seconds; terminals = TPS x mean cycle, a
      speed, only with --think-model, as bench/tpcc-delays.sh runs it); --rate:
      no more transactions than can have arrived (Poisson with mean rate x seconds: P(X >= transactions) below 1e-7 fails). Intervals add
      up to the phase (in-flight ones at the deadline at most one per
      connection). With --journal, the journal holds the same interval records.
  oracle.py journal FILE.jsonl [--killed] [--cut-ok]
      every line whole JSON, the header first, intervals increasing, each
      interval's percentiles inside its histogram's bucket; --killed: no end
      line; --cut-ok: a cut last line is allowed (a full disk), as report does.
  oracle.py groups RESULTS_DIR REPORT-GROUPS.CSV
      the published-method figures of every group (sum of TPS, mean of the
      instances' averages, mean of their p99s, pooled p99 from merged buckets,
      tpmC), recomputed from the result files and journals, against the CSV.
  oracle.py summary CAMPAIGN_DIR
      the campaign's summary.txt (TPS sum, mean of averages, mean of p99s per
      run group x drive) against its result files and its report's CSV.
  oracle.py campaign CAMPAIGN_DIR
      `result` (with its journal) for every result of the campaign, then `summary`.

Prints one line per finding and "oracle: ok ..." at the end; exit 1 on any finding.
"""
import csv
import json
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tails import poisson_sf  # noqa: E402
from result_file import load as load_result  # noqa: E402

# Format 1.1 (telemetry, driver CPU) only adds fields: the oracle reads 1 and 1.1 alike.
RESULT_SCHEMAS = ("dbrig.result/1", "dbrig.result/1.1", "dbrig.result/1.2", "dbrig.result/1.3")
JOURNAL_SCHEMAS = ("dbrig.journal/1", "dbrig.journal/1.1", "dbrig.journal/1.2")

ERR = []


def bad(where, msg):
    ERR.append("%s: %s" % (where, msg))


# --- the loglin-ns-7 layout, from its contract in src/stats/hist.h ---------
# values 0..255 have their own bucket; above, each range [128*2^k, 256*2^k),
# k >= 1, is split into 128 buckets of width 2^k.
NBUCKETS = 256 + 36 * 128


def bucket_bounds(i):
    if i < 256:
        return i, i
    k = i // 128 - 1
    lo = (i - 128 * k) << k
    return lo, lo + (1 << k) - 1


def bucket_of(v):
    if v < 256:
        return v
    k = v.bit_length() - 8
    return 128 * k + (v >> k)


def rank_of(p, n):
    """Nearest rank: ceil(p/100 * n), exact (99.9 is 999/10, not a binary double)."""
    r = math.ceil(Fraction(str(p)) * n / 100)
    return min(max(r, 1), n)


def bucket_at_rank(counts, rank):
    seen = 0
    for i, c in counts:
        seen += c
        if seen >= rank:
            return i
    return counts[-1][0]


def value_at(counts, p, lo_clamp=None, hi_clamp=None):
    """The percentile as the contract states it: bucket midpoint clamped to [min, max]."""
    n = sum(c for _, c in counts)
    i = bucket_at_rank(counts, rank_of(p, n))
    lo, hi = bucket_bounds(i)
    v = lo + (hi - lo) // 2
    if lo_clamp is not None:
        v = max(v, lo_clamp)
    if hi_clamp is not None:
        v = min(v, hi_clamp)
    return v


def ms3(ns):
    return round(ns / 1e6, 3)


def close(a, b, rel=0.0, ab=0.0011):
    return abs(a - b) <= ab + rel * max(abs(a), abs(b))


def pkey(p):
    return "%d" % p if float(p) == int(p) else repr(float(p))


# --- one result ----------------------------------------------------------

SPEC_KEYING = {"new_order": 18, "payment": 3, "order_status": 2, "delivery": 2, "stock_level": 2}
SPEC_THINK = {"new_order": 12, "payment": 12, "order_status": 10, "delivery": 5, "stock_level": 5}


def check_counts(where, counts, total):
    idx = [i for i, _ in counts]
    if idx != sorted(set(idx)):
        bad(where, "bucket indexes not strictly increasing")
    if any(c <= 0 for _, c in counts) or any(not 0 <= i < NBUCKETS for i in idx):
        bad(where, "a bucket index or count out of range")
    if sum(c for _, c in counts) != total:
        bad(where, "buckets hold %d values, expected %d" % (sum(c for _, c in counts), total))


def cpu_pressure():
    """The share of the last 10-60 s in which some runnable task waited for a
    CPU (Linux PSI, /proc/pressure/cpu "some"); 0 where the kernel has none."""
    try:
        f = dict(kv.split("=") for kv in open("/proc/pressure/cpu").readline().split()[1:])
        return max(float(f["avg10"]), float(f["avg60"])) / 100
    except (OSError, KeyError, ValueError):
        return 0.0


# A client starved of CPU leaves gaps between a connection's transactions that
# no latency holds, so TPS is low for its latencies: on one side only (never
# more in flight than the connections), Little's law allows STARVED x the CPU
# pressure more (0 on an idle machine; 85% pressure measured +10..+17% here).
STARVED = 0.4
# --think-model: hold think-time TPC-C runs to terminals / mean cycle (10%): a
# speed (the client's timers and CPU), for bench/ only, never a test.
THINK_MODEL = False


def starved_tol(tol, dev):
    return tol + STARVED * cpu_pressure() if dev > 0 else tol


def little(where, r, ph, s, no_little):
    """Little's law, with the population the load keeps in the system."""
    if no_little or s["transactions"] < 50 or s["tps"] <= 0:
        return None
    p = r["workload"]["params"]
    avg = s["latency_ms"]["avg"]
    if r["workload"]["kind"] == "tpcc":
        t = s["types"]
        factor = p.get("delay_factor", 0)
        # Terminals: the rate and the latency up to the deadline, from the
        # phase's intervals. After it no terminal submits and only those in
        # flight finish (the phase's tail, up to a response time long); the
        # terminals still queued or thinking then are in the phase's seconds
        # but in no transaction, so the phase's own figures drift by
        # tail / seconds when responses are slow.
        ivs = [i for i in r["intervals"] if i["phase"] == ph]
        secs = sum(i["seconds"] for i in ivs)
        n_iv = sum(i["transactions"] for i in ivs)
        tps, wavg = s["tps"], avg
        if secs > 0 and n_iv and all("avg_ms" in i for i in ivs):
            tps = n_iv / secs
            wavg = sum(i["avg_ms"] * i["transactions"] for i in ivs) / n_iv
        if factor == 0:
            # Every terminal always waits or runs; each Delivery it queued is
            # one more transaction in the system while it waits and runs.
            d = t.get("delivery", {"count": 0, "avg_ms": 0})
            n = p["terminals"] + d["count"] / s["seconds"] * d["avg_ms"] / 1000
            pred = n / tps * 1000
            dev = (pred - wavg) / wavg
            # The whole phase's figures hold the tail the intervals leave out
            # (a stall just before the deadline: terminals queued behind it
            # are in no transaction); either view holding the law will do.
            pdev = (n / s["tps"] * 1000 - avg) / avg
            if abs(pdev) < abs(dev):
                pred, dev = n / s["tps"] * 1000, pdev
        else:
            # Think-time terminals: each cycle is keying + think + the wait for
            # the response (Delivery's response is immediate: it is queued).
            cards = dict((k, dict(v)) for k, v in t.items() if k != "new_order_rollback")
            rb = t.get("new_order_rollback", {"count": 0, "avg_ms": 0})
            no = cards["new_order"]
            if no["count"] + rb["count"]:
                no["avg_ms"] = (no["avg_ms"] * no["count"] + rb["avg_ms"] * rb["count"]) / (no["count"] + rb["count"])
            no["count"] += rb["count"]
            n_all = sum(v["count"] for v in cards.values())
            cycle = sum(v["count"] / n_all * ((SPEC_KEYING[k] + SPEC_THINK[k]) * factor +
                                              (0 if k == "delivery" else v["avg_ms"] / 1000))
                        for k, v in cards.items())
            # Terminals start at random points of their first cycle: only a
            # phase after that start-up (a sample after a precondition, or a
            # phase of 20 cycles and more) is in steady state.
            if (ph == "precondition" or r["phases"].get("precondition") is None) and s["seconds"] < 20 * cycle:
                return None
            if not THINK_MODEL:
                return None
            pred, tol = p["terminals"] / cycle, 0.10 + avg / (s["seconds"] * 1000)
            dev = (pred - tps) / tps
            if abs(dev) > starved_tol(tol, dev):
                bad(where, "Little's law with think times: terminals %d / mean cycle %.4f s = %.2f TPS, measured %.2f (%+.1f%%)"
                    % (p["terminals"], cycle, pred, tps, 100 * dev))
            return dev
    elif p.get("rate", 0) > 0:
        # --rate (open loop): the number in the system is not fixed (arrivals
        # queue while the connections are busy, and their wait is in the
        # latency), so no N to hold the law to; but no more transactions can
        # complete than arrived, in a run's first phase (a later one may drain
        # what queued before it). Arrivals are Poisson with mean rate x
        # seconds: the check fails when P(X >= transactions) is below 1e-7, so
        # a correct build fails it with a chance below 1e-7 per phase (4 sigma,
        # as it was, is a one-sided tail of 4e-5 to 9e-5 at these means, too
        # much over the results of a campaign).
        rate, n = p["rate"], s["transactions"]
        lam = rate * s["seconds"]
        if (ph == "precondition" or r["phases"].get("precondition") is None) and n > lam and \
                poisson_sf(n, lam) < 1e-7:
            bad(where, "--rate=%s: %d transactions in %.3f s, more than can have arrived (Poisson mean %.0f, "
                "P(X >= %d) = %.1e)" % (rate, n, s["seconds"], lam, n, poisson_sf(n, lam)))
        return None
    else:
        pred = s["threads"] / s["tps"] * 1000
        dev = (pred - avg) / avg
    # 5%, plus what the phase's two boundaries can move: each cuts at most the
    # transaction every connection or terminal has in flight (about half an
    # average latency each, counted in the phase where it completes).
    tol = 0.05 + avg / (s["seconds"] * 1000)
    # The first phase also holds the loop threads' wake-up after the start gate
    # (the clock starts when every connection is up, as sysbench's): allow 50 ms.
    if ph == "precondition" or r["phases"].get("precondition") is None:
        tol += 0.05 / max(s["seconds"], 0.001)
    # A phase after another also holds the whole latency of the transactions
    # in flight at its start (the part before it too): at most one per
    # connection, each at most the phase's max, so the latency sum can exceed
    # N x seconds by N x max at most (more in flight than N, i.e. dev < 0).
    if dev < 0 and ph == "sample" and r["phases"].get("precondition") is not None:
        tol = max(tol, 0.05 + s["latency_ms"]["max"] / (s["seconds"] * 1000))
    tol = starved_tol(tol, dev)
    if abs(dev) > tol:
        bad(where, "Little's law: N / TPS = %.4f ms, average latency %.4f ms (%+.2f%%, more than %.1f%%; CPU pressure %.0f%%)"
            % (pred, avg, 100 * dev, 100 * tol, 100 * cpu_pressure()))
    return dev


def check_phase(where, r, ph, s, no_little):
    h = s["histogram"]
    lat = s["latency_ms"]
    n = s["transactions"]
    if h.get("layout") != "loglin-ns-7":
        bad(where, "histogram layout %r" % h.get("layout"))
        return None
    counts = h["counts"]
    check_counts(where + ".histogram", counts, n)
    if h["total"] != n:
        bad(where, "histogram.total %d != transactions %d" % (h["total"], n))
    if h["overflow"]:
        bad(where, "%d latencies overflowed the histogram" % h["overflow"])
    # seconds are stored to 3 decimals, TPS from the unrounded seconds
    if not close(s["tps"], n / s["seconds"] if s["seconds"] else 0, rel=0.0006 / max(s["seconds"], 0.001)):
        bad(where, "tps %.3f != transactions %d / seconds %.3f" % (s["tps"], n, s["seconds"]))
    q = s["queries"]
    if q["total"] != q["read"] + q["write"] + q["other"]:
        bad(where, "queries.total %d != read + write + other" % q["total"])
    if n == 0:
        return None
    lo_b, hi_b = bucket_bounds(counts[0][0])[0], bucket_bounds(counts[-1][0])[1]
    if not (lo_b <= h["min_ns"] <= bucket_bounds(counts[0][0])[1]):
        bad(where, "min_ns %d outside the first bucket" % h["min_ns"])
    if not (bucket_bounds(counts[-1][0])[0] <= h["max_ns"] <= hi_b):
        bad(where, "max_ns %d outside the last bucket" % h["max_ns"])
    smin = sum(c * bucket_bounds(i)[0] for i, c in counts)
    smax = sum(c * bucket_bounds(i)[1] for i, c in counts)
    if not (smin * (1 - 1e-9) <= h["sum_ns"] <= smax * (1 + 1e-9)):
        bad(where, "sum_ns %.0f outside what its buckets allow [%d, %d]" % (h["sum_ns"], smin, smax))
    for k, v in (("min", h["min_ns"]), ("max", h["max_ns"]), ("sum", h["sum_ns"]), ("avg", h["sum_ns"] / n)):
        if not close(lat[k], ms3(v), rel=1e-9):
            bad(where, "latency_ms.%s %s != %s from the histogram" % (k, lat[k], ms3(v)))
    want = [pkey(p) for p in r["percentiles"]]
    if sorted(lat["percentiles"]) != sorted(want):
        bad(where, "percentile keys %s, asked for %s" % (sorted(lat["percentiles"]), sorted(want)))
    for p in r["percentiles"]:
        v = lat["percentiles"].get(pkey(p))
        exp = ms3(value_at(counts, p, h["min_ns"], h["max_ns"]))
        if v is None or not close(v, exp):
            bad(where, "p%s = %s, the buckets give %s" % (pkey(p), v, exp))
    types = s.get("types", {})
    if sum(t["count"] for t in types.values()) != n:
        bad(where, "type counts add up to %d, not %d" % (sum(t["count"] for t in types.values()), n))
    if len(types) == 1:
        (name, t), = types.items()
        for k, p in (("p90_ms", 90), ("p99_ms", 99)):
            exp = ms3(value_at(counts, p, h["min_ns"], h["max_ns"]))
            if not close(t[k], exp):
                bad(where, "types.%s.%s = %s, the buckets give %s" % (name, k, t[k], exp))
        if not close(t["avg_ms"], lat["avg"]) or not close(t["max_ms"], lat["max"]):
            bad(where, "types.%s avg/max differ from the phase's" % name)
    elif types:
        mean = sum(t["count"] * t["avg_ms"] for t in types.values()) / n
        if not close(mean, lat["avg"], rel=1e-4):
            bad(where, "count-weighted mean of the type averages %.4f != average %.4f" % (mean, lat["avg"]))
        if not close(max(t["max_ms"] for t in types.values()), lat["max"]):
            bad(where, "largest type max != phase max")
        for name, t in types.items():
            if t["count"] and not (t["p90_ms"] <= t["p99_ms"] + 0.001 and t["p99_ms"] <= t["max_ms"] + 0.001):
                bad(where, "types.%s: p90 <= p99 <= max does not hold" % name)
    f = s["fairness"]
    if abs(f["events_avg"] * s["threads"] - n) > s["threads"] + 0.01 * s["threads"]:
        bad(where, "fairness events_avg x threads = %.1f, transactions %d" % (f["events_avg"] * s["threads"], n))
    return little(where, r, ph, s, no_little)


def check_interval_hist(where, iv, pcts):
    counts = iv["histogram"]["counts"]
    check_counts(where + ".histogram", counts, iv["transactions"])
    if not iv["transactions"]:
        return
    for p in pcts:
        v = iv["lat_ms"].get(pkey(p))
        lo, hi = bucket_bounds(bucket_at_rank(counts, rank_of(p, iv["transactions"])))
        if v is None or not (ms3(lo) - 0.0011 <= v <= ms3(hi) + 0.0011):
            bad(where, "p%s = %s, its rank lies in bucket [%.3f, %.3f] ms" % (pkey(p), v, lo / 1e6, hi / 1e6))
    n = iv["transactions"]
    a = sum(c * bucket_bounds(i)[0] for i, c in counts) / n / 1e6
    b = sum(c * bucket_bounds(i)[1] for i, c in counts) / n / 1e6
    if "avg_ms" in iv and not (a - 0.0011 <= iv["avg_ms"] <= b + 0.0011):
        bad(where, "avg_ms %s outside what its buckets allow [%.3f, %.3f]" % (iv["avg_ms"], a, b))


def read_journal(path, killed=False, allow_cut=False):
    """allow_cut: a cut last line is ignored, as `dbrig report` does (a full disk)."""
    where = os.path.basename(path)
    raw = open(path, "rb").read().decode()
    lines = raw.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines and allow_cut:
        lines.pop()
    elif lines:
        bad(where, "the last line is cut (no newline)")
    recs = []
    for k, l in enumerate(lines, 1):
        try:
            recs.append(json.loads(l))
        except ValueError:
            bad(where, "line %d is not whole JSON" % k)
            return None, [], None
    if not recs or recs[0].get("type") != "header" or recs[0].get("schema") not in JOURNAL_SCHEMAS:
        bad(where, "line 1 is not a dbrig.journal/1 or /1.1 header")
        return None, [], None
    ivs = [x for x in recs[1:] if x.get("type") == "interval"]
    ends = [x for x in recs[1:] if x.get("type") == "end"]
    if len(ivs) + len(ends) != len(recs) - 1 or len(ends) > 1 or (ends and recs[-1] is not ends[0]):
        bad(where, "lines other than intervals, or an end line not last")
    if killed and ends:
        bad(where, "a killed run's journal has an end line")
    ts = [x["t"] for x in ivs]
    if ts != sorted(ts) or len(set(ts)) != len(ts):
        bad(where, "interval times not increasing: %s" % ts)
    pcts = recs[0]["percentiles"]
    for k, iv in enumerate(ivs):
        check_interval_hist("%s interval %d" % (where, k + 1), iv, pcts)
    return recs[0], ivs, ends[0] if ends else None


def schedule_bound(where, r):
    """A think-time TPC-C run: each terminal keys every transaction before it
    submits it (the spec's constant keying x the delay factor) and then waits
    for its response (Delivery's is immediate: it is queued), one after
    another, from the run's start to its last completion. So, exactly, over
    every transaction that completed in the run: sum(keying) + sum(responses
    but Delivery's) <= terminals x (the run's seconds + the longest response:
    the tail after the deadline); 1 ms a terminal for rounding. Independent of
    the machine's speed: a slow client only makes the left side smaller."""
    p = r["workload"]["params"]
    factor = p.get("delay_factor", 0)
    if not factor or r["status"] == "failed":
        return
    phases = [s for s in (r["phases"].get("precondition"), r["phases"].get("sample")) if s]
    busy, secs, longest, n = 0.0, 0.0, 0.0, 0
    for s in phases:
        secs += s["seconds"]
        for k, t in s["types"].items():
            if not t["count"]:
                continue
            card = "new_order" if k == "new_order_rollback" else k
            busy += t["count"] * SPEC_KEYING[card] * factor
            if card != "delivery":
                busy += t["count"] * t["avg_ms"] / 1000
                longest = max(longest, t["max_ms"] / 1000)
            n += t["count"]
    most = p["terminals"] * (secs + longest + 0.001)
    if n and busy > most:
        bad(where, "think-time schedule: %d transactions need %.3f terminal-seconds of keying and response, "
            "more than %d terminals x (%.3f s + the longest response %.3f s) = %.3f" %
            (n, busy, p["terminals"], secs, longest, most))


def check_result(path, journal=None, no_little=None):
    where = os.path.basename(path)
    try:
        r = load_result(path)
    except (ValueError, OSError) as e:
        bad(where, "its intervals: %s" % e)
        return
    if r.get("schema") not in RESULT_SCHEMAS:
        bad(where, "schema %r" % r.get("schema"))
        return
    devs = []
    schedule_bound(where, r)
    for ph in ("precondition", "sample"):
        s = r["phases"].get(ph)
        if s is None:
            continue
        nl = no_little or (r["status"] == "failed" and "the run failed")
        d = check_phase("%s %s" % (where, ph), r, ph, s, nl)
        if d is not None:
            devs.append("%s %+.2f%%" % (ph, 100 * d))
        ivs = [i for i in r["intervals"] if i["phase"] == ph]
        for k, iv in enumerate(ivs):
            if iv["seconds"] > 0 and not close(iv["tps"], iv["transactions"] / iv["seconds"],
                                               rel=0.0006 / max(iv["seconds"], 0.001)):
                bad(where, "%s interval %d: tps %s != %d transactions / %s s" % (ph, k + 1, iv["tps"], iv["transactions"],
                                                                                 iv["seconds"]))
        tx = sum(i["transactions"] for i in ivs)
        conns = r["workload"]["params"].get("connections", s["threads"])
        if not tx <= s["transactions"] <= tx + conns:
            bad(where, "%s: intervals hold %d transactions, the phase %d (at most %d in flight at its end)"
                % (ph, tx, s["transactions"], conns))
        # (transactions in flight at the end may retry many times: no bound above)
        for key, iv_key in (("ignored", "errors"), ("reconnects", "reconnects")):
            got = sum(i[iv_key] for i in ivs)
            if not got <= s["errors"][key]:
                bad(where, "%s: intervals hold %d %s, the phase %d" % (ph, got, iv_key, s["errors"][key]))
    if journal:
        hdr, jivs, end = read_journal(journal)
        # 1.3: a result with a journal beside it leaves its intervals there and names it (checked
        # above against their phases), so the comparison below holds by construction then.
        if "journal" in r and r["journal"] != os.path.basename(journal):
            bad(where, "\"journal\": %r, but its journal is %s" % (r["journal"], os.path.basename(journal)))
        if hdr is not None:
            stripped = [dict((k, v) for k, v in iv.items() if k != "histogram") for iv in jivs]
            # Results written before telemetry files carry each interval's host/drive "telemetry"
            # a campaign added after the run (docs/result-format.md); the driver's own records must be the journal's.
            own = [dict((k, v) for k, v in iv.items() if k != "telemetry") for iv in r["intervals"]]
            if stripped != own:
                bad(where, "the journal's %d intervals differ from the result's %d" % (len(stripped), len(r["intervals"])))
            if end is None or end["status"] != r["status"]:
                bad(where, "journal end line %s, result status %s" % (end, r["status"]))
            for ph in ("precondition", "sample"):
                s = r["phases"].get(ph)
                if s is None:
                    continue
                merged = {}
                for iv in jivs:
                    if iv["phase"] == ph:
                        for i, c in iv["histogram"]["counts"]:
                            merged[i] = merged.get(i, 0) + c
                phase_b = dict((i, c) for i, c in s["histogram"]["counts"])
                if any(merged.get(i, 0) > phase_b.get(i, 0) for i in merged):
                    bad(where, "%s: the journal's interval histograms hold more than the phase's" % ph)
    print("oracle: %s: %s, Little %s%s" % (where, r["status"], ", ".join(devs) or "n/a",
                                         " (CPU pressure %.0f%%)" % (100 * cpu_pressure()) if devs else ""))


# --- published-method figures ------------------------------------------------

def run_figures(path):
    """(figures of the sample phase, run record) from a result, or a journal alone."""
    if path.endswith(".json"):
        r = json.load(open(path))
        s = r["phases"].get("sample")
        if not s:
            return None, r
        # an instance's own p99: the stored one, else from its own histogram
        p = s["latency_ms"]["percentiles"].get("99")
        h = s.get("histogram")
        if p is None and h and h["total"]:
            p = value_at(h["counts"], 99, h["min_ns"], h["max_ns"]) / 1e6
        t = s.get("types", {})
        no = t.get("new_order", {}).get("count") if r["workload"]["kind"] == "tpcc" else None
        return dict(tps=s["tps"], avg=s["latency_ms"]["avg"], p99=p, counts=h["counts"] if h else None,
                    lo=h["min_ns"] if h else None, hi=h["max_ns"] if h else None,
                    tx=s["transactions"], seconds=s["seconds"], new_order=no,
                    threads=s["threads"]), r
    hdr, ivs, _ = read_journal(path, allow_cut=True)
    ivs = [i for i in ivs if i["phase"] == "sample"]
    if hdr is None or not ivs:
        return None, hdr
    tx = sum(i["transactions"] for i in ivs)
    sec = sum(i["seconds"] for i in ivs)
    merged = {}
    for iv in ivs:
        for i, c in iv["histogram"]["counts"]:
            merged[i] = merged.get(i, 0) + c
    counts = sorted(merged.items())
    # As docs/reading-reports.md says: a journal run's latencies come from its buckets.
    mid = lambda i: bucket_bounds(i)[0] + (bucket_bounds(i)[1] - bucket_bounds(i)[0]) // 2
    avg = sum(mid(i) * c for i, c in counts) / tx / 1e6 if tx else 0
    p99 = value_at(counts, 99) / 1e6 if tx else None
    return dict(tps=tx / sec if sec else 0, avg=avg, p99=p99, counts=counts, tx=tx, seconds=sec,
                lo=bucket_bounds(counts[0][0])[0] if counts else None, hi=bucket_bounds(counts[-1][0])[1] if counts else None,
                new_order=None, threads=ivs[-1]["threads"]), hdr


def groups(results_dir, groups_csv):
    runs = {}
    for dp, _, fs in os.walk(results_dir):
        for f in sorted(fs):
            if f.startswith("."):
                continue  # not a run: e.g. a campaign's .telemetry-rep<k>.jsonl (dbrig report skips them too)
            p = os.path.join(dp, f)
            # a campaign's cut-off attempts are kept apart, never results
            # nor a campaign's telemetry of a run (<instance>.telemetry.json, beside its result)
            if ".partial-" in f or f == "state.json" or f.endswith(".telemetry.json") or os.path.basename(dp) == "report":
                continue
            if f.endswith(".json"):
                runs[p[:-5]] = p
            elif f.endswith(".jsonl") and p[:-6] not in runs:
                runs.setdefault(p[:-6], p)
    by = {}
    for base, p in sorted(runs.items()):
        if p.endswith(".jsonl") and os.path.exists(base + ".json"):
            p = base + ".json"
        if p.endswith(".json") and json.load(open(p)).get("schema") not in RESULT_SCHEMAS:
            continue
        fig, r = run_figures(p)
        if r is None or fig is None:
            continue
        w, run = r["workload"], r["run"]
        key = (run["campaign"], run["run_group"], w["kind"], w["test"], run["vm_count"],
               json.dumps(w["params"], sort_keys=True))
        by.setdefault(key, []).append((run["drive"], run["repetition"], fig))
    want = {}
    for key, members in by.items():
        drives = sorted(set(d for d, _, _ in members))
        for d in drives:
            want[(key[0], key[1], d, "no", key[5])] = [m for m in members if m[0] == d]
        reps = set(m[1] for m in members)
        # A group spread over drives that each hold fewer instances than its VM
        # count ran together: it also gets an "all drives" total.
        if len(drives) > 1 and all(len([m for m in members if m[0] == d and m[1] == rep]) < key[4]
                                   for d in drives for rep in reps):
            want[(key[0], key[1], "(all)", "yes", key[5])] = members
    rows = list(csv.DictReader(open(groups_csv)))
    if len(rows) != len(want):
        bad("groups", "%d rows in %s, %d groups in the results" % (len(rows), os.path.basename(groups_csv), len(want)))
    for key, members in want.items():
        cand = [x for x in rows if x["campaign"] == key[0] and x["run_group"] == key[1] and
                x["all_drives"] == key[3] and (key[3] == "yes" or x["drive"] == key[2]) and
                x["threads_sum"] != "" and int(x["threads_sum"]) == sum(m[2]["threads"] for m in members)]
        label = "%s/%s/%s" % key[:3]
        if len(cand) != 1:
            bad(label, "%d matching rows in the groups CSV" % len(cand))
            continue
        row = cand[0]
        reps = sorted(set(m[1] for m in members))
        per = []
        for rep in reps:
            fs = [m[2] for m in members if m[1] == rep]
            p99s = [f["p99"] for f in fs if f["p99"] is not None]
            # the pooled p99 of the instances that ran together: their merged buckets
            merged = {}
            for f in fs:
                for i, c in f["counts"] or []:
                    merged[i] = merged.get(i, 0) + c
            pooled = None
            if merged and all(f["counts"] is not None for f in fs):
                pooled = value_at(sorted(merged.items()), 99, min(f["lo"] for f in fs), max(f["hi"] for f in fs)) / 1e6
            per.append(dict(tps=sum(f["tps"] for f in fs), avg=sum(f["avg"] for f in fs) / len(fs),
                            p99=sum(p99s) / len(p99s) if p99s else None, pooled=pooled,
                            tpmc=sum(f["new_order"] / (f["seconds"] / 60) for f in fs)
                            if all(f["new_order"] is not None for f in fs) else None))
        exp = {
            "tps_sum": sum(x["tps"] for x in per) / len(per),
            "tps_sum_rep_min": min(x["tps"] for x in per),
            "tps_sum_rep_max": max(x["tps"] for x in per),
            "avg_latency_ms_mean_of_instances": sum(x["avg"] for x in per) / len(per),
            "transactions": sum(m[2]["tx"] for m in members),
        }
        if all(x["p99"] is not None for x in per):
            exp["p99_ms_mean_of_instance_p99s"] = sum(x["p99"] for x in per) / len(per)
        if all(x["tpmc"] is not None for x in per) and key[2] != "(all)" and members[0][2]["new_order"] is not None:
            exp["tpmc"] = sum(x["tpmc"] for x in per) / len(per)
        # a pooled p99 only when every instance carried its histogram; mean over repetitions
        if all(x["pooled"] is not None for x in per):
            exp["p99_ms_pooled"] = sum(x["pooled"] for x in per) / len(per)
        # no instance p99 / not every histogram: no figure at all (not 0)
        for col in ("p99_ms_mean_of_instance_p99s", "p99_ms_pooled"):
            if col not in exp and row.get(col, "") != "":
                bad(label, "%s = %s, but no instance had one" % (col, row[col]))
        for col, v in exp.items():
            got = row.get(col, "")
            ok = got != "" and close(float(got), v, rel=2e-4, ab=0.0015)
            if not ok:
                bad(label, "%s = %s, recomputed from the results %.4f" % (col, got or "(empty)", v))
    print("oracle: %d groups of %s recomputed from %d results" % (len(want), os.path.basename(groups_csv), len(runs)))


def summary(d):
    """summary.txt of a campaign: its rows against the result files."""
    st = json.load(open(os.path.join(d, "state.json")))
    res = {}
    for dp, _, fs in os.walk(d):
        if os.path.basename(dp) == "report":
            continue
        for f in fs:
            if f.endswith(".json") and f != "state.json" and ".partial-" not in f and not f.endswith(".telemetry.json"):
                r = json.load(open(os.path.join(dp, f)))
                res.setdefault(r["run"]["run_group"], []).append(r)
    lines = open(os.path.join(d, "summary.txt")).read().splitlines()
    head = lines[0]
    cols = [head.index(x) for x in ("drive", "instances")]
    n = 0
    for line in lines[1:]:
        if line.startswith("TPS: "):
            continue
        name, drive = line[:cols[0]].strip(), line[cols[0]:cols[1]].strip()
        rest = line[cols[1]:].split()
        rs = res.get(name, [])
        if drive != "(all drives)":
            rs = [r for r in rs if r["run"]["drive"] == drive]
        if not rs:
            bad("summary.txt", "row %r %r has no results" % (name, drive))
            continue
        reps = set(r["run"]["repetition"] for r in rs)
        s = [r["phases"]["sample"] for r in rs]
        p99 = [x["latency_ms"]["percentiles"]["99"] for x in s if "99" in x["latency_ms"]["percentiles"]]
        exp = [sum(x["tps"] for x in s) / len(reps), sum(x["latency_ms"]["avg"] for x in s) / len(s),
               sum(p99) / len(p99) if p99 else None]
        got = [float(rest[1]), float(rest[2]), None if rest[3] == "-" else float(rest[3])]
        for what, g, e in zip(("TPS (sum)", "avg lat ms", "avg p99 ms"), got, exp):
            if (g is None) != (e is None) or (e is not None and not close(g, e, ab=0.0051)):
                bad("summary.txt", "%s / %s: %s %s, recomputed %s" % (name, drive, what, g, e))
        n += 1
    if n == 0:
        bad("summary.txt", "no rows")
    rep = os.path.join(d, "report", "report-groups.csv")
    if not os.path.exists(rep):
        bad("summary.txt", "no report/report-groups.csv beside it")
    else:
        groups(d, rep)
    if any(r["status"] != "done" for r in st["runs"]):
        bad("state.json", "runs not done: %s" % [r["id"] for r in st["runs"] if r["status"] != "done"])
    print("oracle: summary.txt: %d rows recomputed" % n)


def campaign(d):
    """Every result of a campaign folder (not its cut-off attempts), then its summary."""
    for dp, dirs, fs in os.walk(d):
        dirs[:] = sorted(x for x in dirs if x != "report")
        for f in sorted(fs):
            p = os.path.join(dp, f)
            if not f.endswith(".json") or f == "state.json" or ".partial-" in f or f.endswith(".telemetry.json"):
                continue
            check_result(p, p + "l" if os.path.exists(p + "l") else None)
    summary(d)


def main(argv):
    global THINK_MODEL
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd = argv[1]
    if cmd == "result":
        path, j, nl = argv[2], None, None
        a = argv[3:]
        while a:
            if a[0] == "--journal":
                j, a = a[1], a[2:]
            elif a[0] == "--no-little":
                nl, a = a[1], a[2:]
            elif a[0] == "--think-model":
                THINK_MODEL, a = True, a[1:]
            else:
                sys.exit("oracle.py: unknown argument %s" % a[0])
        check_result(path, j, nl)
    elif cmd == "journal":
        hdr, ivs, end = read_journal(argv[2], killed="--killed" in argv[3:], allow_cut="--cut-ok" in argv[3:])
        print("oracle: %s: %d intervals%s" % (os.path.basename(argv[2]), len(ivs), ", ended" if end else ""))
    elif cmd == "groups":
        groups(argv[2], argv[3])
    elif cmd == "summary":
        summary(argv[2])
    elif cmd == "campaign":
        campaign(argv[2])
    else:
        sys.exit(__doc__)
    for e in ERR:
        print("oracle: FAIL: " + e, file=sys.stderr)
    return 1 if ERR else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
