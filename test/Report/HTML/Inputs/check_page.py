#!/usr/bin/env python3
"""Checks that an LWP HTML report is self-contained and prints its data.

Usage: check_page.py PAGE.html [KEY...]
Fails (exit 1) on any reference the browser would load: src= or href= that
is not a fragment, url(...), @import, a protocol other than the SVG
namespace name. Then decodes the embedded data (zlib + base64) and prints
"page ok", the JSON's top-level keys and, for each KEY (a dotted path),
its value as JSON.
"""
import base64
import json
import re
import sys
import zlib

SVG_NS = "http://www.w3.org/2000/svg"


def main():
    page = open(sys.argv[1], encoding="utf-8").read()
    bad = []
    for m in re.finditer(r'\s(?:src|href)=["\']([^"\']*)', page):
        if not m.group(1).startswith("#") and "${" not in m.group(1):
            bad.append(m.group(0))
    bad += re.findall(r"url\(", page) + re.findall(r"@import", page)
    bad += [u for u in re.findall(r"[a-z][a-z0-9+.-]*://[^\s\"'<>]*", page)
            if u != SVG_NS and not u.startswith("file://")]
    if bad:
        sys.exit("check_page.py: external references: %s" % bad[:5])
    m = re.search(r'<script type="application/octet-stream" id="lwp-data" '
                  r'data-encoding="([^"]*)">([^<]*)</script>', page)
    if not m:
        sys.exit("check_page.py: no embedded data")
    raw = base64.b64decode(m.group(2))
    text = zlib.decompress(raw) if m.group(1) == "zlib+base64" else raw
    data = json.loads(text)
    print("page ok: encoding %s, %d scripts" %
          (m.group(1), page.count("<script")))
    print("keys: " + " ".join(sorted(data)))
    for key in sys.argv[2:]:
        v = data
        for part in key.split("."):
            v = v[int(part)] if isinstance(v, list) else v.get(part)
        print("%s = %s" % (key, json.dumps(v, sort_keys=True)))


if __name__ == "__main__":
    main()
