#!/usr/bin/env python3
"""Convert StorageReview's published rows (one JSON object a line, as collected in
the project's reference notes) into dbrig.published/1 files, grouped by source and
platform. Usage: scripts/published_from_rows.py ROWS.jsonl OUTDIR

Only the short quotes the rows carry are copied. Rows without a TPS go to the
file's "incomplete" list with what is missing. Re-running rewrites the files it
owns (the names in GROUPS) and nothing else."""
import json
import os
import sys

SYSBENCH_METHOD = ("sysbench OLTP (oltp_read_write) as on StorageReview's results page: 100 tables x "
                   "10,000,000 rows, 32 threads per instance; TPS summed over instances, mean of the "
                   "instances' average latencies and 99th percentiles")
SQL_METHOD = ("Quest Benchmark Factory TPC-C profile on SQL Server; per VM: scale 1,500 warehouses, "
              "15,000 virtual users with keying and think times (StorageReview's SQL Server protocol; "
              "users and scale are the protocol's, not printed in the row); TPS summed over VMs, mean "
              "of the VMs' average latencies")
OLD_SQL_METHOD = ("older single-drive SQL Server protocol, not VMs: 685 GB database, scale 3,000, "
                  "30,000 virtual users")

# file -> (match(row), header, era)
def sysbench_page(platform_prefix):
    return lambda r: r["source"].startswith("StorageReview Sysbench") and r["test_platform"].startswith(platform_prefix)

GROUPS = [
    ("storagereview-sysbench-bare-metal.json", sysbench_page("Not stated per row"),
     {"title": "Sysbench OLTP benchmark results page: locally attached SSDs, one instance on bare metal",
      "drive": "single drives (one per row)",
      "platform": "bare metal, one sysbench instance; the page names two platforms and not which row ran on "
                  "which: 1st gen Lenovo ThinkServer RD630 (2x Xeon E5-2650, 128 GB, CentOS 6.3) and 2nd gen "
                  "Dell PowerEdge R730 (2x Xeon E5-2690 v3, 256 GB, CentOS 6.6); Percona XtraDB 5.5.30-rel30.1"},
     "bare metal, RD630 or R730 (not stated per row)"),
    ("storagereview-sysbench-r730-cluster.json", sysbench_page("Dell PowerEdge R730 virtualized"),
     {"title": "Sysbench OLTP benchmark results page: SAN arrays behind a 4-node VMware cluster",
      "drive": "SAN arrays (one per row)",
      "platform": "Dell PowerEdge R730 virtualized sysbench 4-node cluster, 2x Xeon E5-2690 v3 and 256 GB per "
                  "node, VMware ESXi vSphere 6.0"},
     "VMware ESXi 6.0, 4-node R730 cluster"),
    ("storagereview-sysbench-vsan-r730xd.json", sysbench_page("(4) Dell R730xd"),
     {"title": "Sysbench OLTP benchmark results page: VMware VSAN (hybrid) on 4 Dell R730xd",
      "drive": "VMware VSAN (ESXi 6.0)",
      "platform": "(4) Dell R730xd, VMware ESXi 6.0 (as the row states it)"},
     "VMware ESXi 6.0 HCI, 4x R730xd"),
    ("storagereview-sysbench-nutanix-nx8150.json", sysbench_page("(4) Nutanix"),
     {"title": "Sysbench OLTP benchmark results page: Nutanix NX-8150 (hybrid)",
      "drive": "Nutanix NX-8150 (ESXi 6.0)",
      "platform": "(4) Nutanix NX-8150, VMware ESXi 6.0 (as the row states it)"},
     "VMware ESXi 6.0 HCI, 4x NX-8150"),
    ("storagereview-dataon-hci-224.json", lambda r: r["source"].startswith("StorageReview review: DataON"),
     {"title": "DataON HCI-224 Azure Stack HCI with Intel Optane + D5-P4326 QLC (French page, machine-translated)",
      "drive": "Intel SSD D5-P4326 (QLC, capacity) + Intel Optane SSD DC P4800X (cache)",
      "platform": None},
     "Azure Stack HCI, 2-node DataON HCI-224"),
    ("storagereview-lsi-9207-8i.json", lambda r: r["source"].startswith("StorageReview LSI"),
     {"title": "LSI SAS 9207-8i review (French page, machine-translated) citing the Toshiba HK3R2 review",
      "drive": "single drives behind an LSI SAS 9207-8i HBA",
      "platform": None},
     "bare metal, older SQL Server protocol"),
]


def drive_details(r):
    parts = [p for p in (r.get("capacity"), r.get("interface_as_printed")) if p]
    return ", ".join(parts)


def label(r):
    if r["vm_count"] is None:
        return "single drive, older protocol"
    n = r["vm_count"]
    if r["workload"] == "sysbench" and n == 1:
        return "1 instance, bare metal"
    return "%d VMs%s" % (n, ", failover to 1 node" if "failover" in (r.get("drives_used") or "") else "")


def common(r, era):
    o = {"drive": r["drive_model"]}
    d = drive_details(r)
    if d:
        o["drive_details"] = d
    o["era"] = era
    o["machine_translated"] = bool(r["machine_translated"])
    if r.get("drives_used"):
        o["drives_used"] = r["drives_used"]
    if r.get("quote"):
        o["quote"] = r["quote"]
    notes = [n for n in (r.get("notes"),) if n]
    if r.get("peak_latency_ms") is not None:
        notes.append("peak latency %g ms" % r["peak_latency_ms"])
    if r.get("tps_column"):
        notes.append("TPS column: " + r["tps_column"])
    if notes:
        o["notes"] = "; ".join(notes)
    return o


def printed_decimals(r):
    """Digits after the point of the average latency as the quoted table row prints it
    ("| 6625 | 80 | 418 |": 0), so Little's law allows the rounding the source used."""
    cols = [c.strip().replace(",", "") for c in (r.get("quote") or "").split("|")]
    nums = [c for c in cols if c.replace(".", "", 1).isdigit()]
    if r["workload"] != "sysbench" or len(nums) < 2:
        return None
    avg = nums[1]
    if abs(float(avg) - r["avg_latency_ms"]) > 1e-9:
        sys.exit("quote %r does not show avg %s" % (r["quote"], r["avg_latency_ms"]))
    return len(avg.split(".")[1]) if "." in avg else 0


def result(r, era):
    o = {"label": label(r)}
    if r["workload"] == "sysbench":
        o.update({"workload": "sysbench", "test": "oltp_read_write", "vm_count": r["vm_count"], "drives": 1,
                  "threads_per_vm": r["threads_per_instance"], "tables": 100, "table_size": 10000000,
                  "database": "Percona XtraDB 5.5.30-rel30.1", "method": SYSBENCH_METHOD})
    else:
        o.update({"workload": "tpcc", "test": "tpcc", "vm_count": r["vm_count"], "drives": 1,
                  "users_per_vm": 15000, "warehouses": 1500, "database": "SQL Server",
                  "method": SQL_METHOD})
    o["tps"] = r["tps"]
    o["avg_latency_ms"] = r["avg_latency_ms"]
    o["p99_latency_ms"] = r["p99_latency_ms"]
    d = printed_decimals(r)
    if d is not None:
        o["avg_latency_decimals"] = d
    o.update(common(r, era))
    return o


def incomplete(r, era):
    o = {"label": label(r), "workload": "tpcc", "test": "tpcc"}
    missing = []
    if r["vm_count"] is not None:
        o["vm_count"] = r["vm_count"]
        o["users_per_vm"] = 15000
        o["method"] = SQL_METHOD + "; " + r["drives_used"]
    else:
        missing.append("VM count (older non-VM protocol)")
        o["method"] = OLD_SQL_METHOD
    if r["tps"] is None:
        missing.insert(0, "TPS")
    if r["p99_latency_ms"] is None:
        missing.append("p99 latency")
    if r["avg_latency_ms"] is not None:
        o["avg_latency_ms"] = r["avg_latency_ms"]
    else:
        missing.append("average latency")
    o["missing"] = ", ".join(missing) + " not published"
    o.update(common(r, era))
    return o


def main():
    rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
    out = sys.argv[2]
    used = 0
    for name, match, head, era in GROUPS:
        mine = [r for r in rows if match(r)]
        used += len(mine)
        first = mine[0]
        src = {"publisher": "StorageReview", "title": head["title"]}
        if first.get("source_url"):
            src["url"] = first["source_url"]
        if first.get("original_url"):
            src["original_url"] = first["original_url"]
        if first.get("copy_date"):
            src["date"] = first["copy_date"]
        doc = {"schema": "dbrig.published/1", "source": src, "drive": {"name": head["drive"]},
               "platform": head["platform"] or first["test_platform"],
               "notes": "converted by scripts/published_from_rows.py from the project's collected rows "
                        "(" + first["source"] + ")",
               "results": [result(r, era) for r in mine if r["tps"] is not None and r["vm_count"] is not None]}
        inc = [incomplete(r, era) for r in mine if r["tps"] is None or r["vm_count"] is None]
        if inc:
            doc["incomplete"] = inc
        tmp = os.path.join(out, name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2, ensure_ascii=False)
            f.write("\n")
        os.replace(tmp, os.path.join(out, name))
    if used != len(rows):
        sys.exit("%d of %d rows matched no group" % (used, len(rows)))


main()
