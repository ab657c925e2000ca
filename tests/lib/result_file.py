"""A dbrig result file as `dbrig report` reads it (docs/result-format.md).

A 1.3 result whose journal beside it holds its intervals names it ("journal")
and leaves them out; load() puts them back from that journal, as the result
would hold them (without their histograms, a cut last line left out), so the
checks that read a result's intervals read the same records either way.
"""
import json


def journal_of(path):
    """The journal beside result `path` by name: x.json -> x.jsonl."""
    return path[:-5] + ".jsonl" if path.endswith(".json") else None


def journal_intervals(path):
    """The interval records of journal `path`, without histograms; a cut last line is left out."""
    ivs = []
    with open(path) as f:
        for line in f:
            if not line.endswith("\n"):
                break
            o = json.loads(line)
            if o.get("type") == "interval":
                o.pop("histogram", None)
                ivs.append(o)
    return ivs


def load(path):
    """The result at `path`; one that names its journal gets the intervals of the journal beside it by
    name, as dbrig report pairs them (a kept attempt, x.partial-2.json, still names the x.jsonl it was
    written beside: its journal moved with it, to x.partial-2.jsonl)."""
    r = json.load(open(path))
    if "intervals" not in r and "journal" in r:
        r["intervals"] = journal_intervals(journal_of(path))
    return r
