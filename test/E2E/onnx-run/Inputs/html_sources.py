# Prints the source files an lwp-report HTML page embeds: "== NAME" and the
# file's text, for each (the page's data: zlib-compressed JSON in base64).
import base64
import json
import re
import sys
import zlib

page = open(sys.argv[1]).read()
blob = re.search(r'<script type="application/octet-stream"[^>]*>([^<]*)<',
                 page).group(1)
data = json.loads(zlib.decompress(base64.b64decode(blob.strip())))
for name, text in sorted(data["sources"].items()):
    print("== " + name)
    print(text, end="")
