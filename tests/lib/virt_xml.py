#!/usr/bin/env python3
"""Every XML document in a `dbrig provision --dry-run` output, validated with
libvirt's own schemas (virt-xml-validate, Debian libvirt-clients).

  virt_xml.py DRY-RUN-OUTPUT [MIN-DOMAINS]

Prints how many domains, pools and volumes validated; exit 1 when one does
not, when virt-xml-validate is missing, or when fewer than MIN-DOMAINS
domains were printed.
"""
import os
import re
import subprocess
import sys
import tempfile

SCHEMA = {"domain": "domain", "pool": "storagepool", "volume": "storagevol"}


def main(a):
    text = open(a[1]).read()
    docs = re.findall(r"^(<(domain|pool|volume)\b.*?^</\2>)$", text, re.S | re.M)
    n, bad = {}, 0
    with tempfile.TemporaryDirectory() as d:
        for k, (xml, kind) in enumerate(docs):
            f = os.path.join(d, "%d-%s.xml" % (k, kind))
            open(f, "w").write(xml + "\n")
            try:
                r = subprocess.run(["virt-xml-validate", f, SCHEMA[kind]], capture_output=True, text=True)
            except FileNotFoundError:
                sys.exit("virt_xml: virt-xml-validate is not installed (libvirt-clients)")
            if r.returncode:
                bad += 1
                print("virt_xml: FAIL: %s #%d: %s" % (kind, k + 1, (r.stderr or r.stdout).strip()[:500]), file=sys.stderr)
            n[kind] = n.get(kind, 0) + 1
    print("virt_xml: %s validated by virt-xml-validate" % ", ".join("%d %s" % (v, k) for k, v in sorted(n.items())))
    if len(a) > 2 and n.get("domain", 0) < int(a[2]):
        print("virt_xml: FAIL: %d domains, expected %s" % (n.get("domain", 0), a[2]), file=sys.stderr)
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
