#!/usr/bin/env python3
"""Writes the two cases of #44's measurements, each a folder with the example's
catalog.json and an app.json:

  amplify DIR   `${X}` 10,000 times in one parameter (a 40 KB file); run the
                check with X set to 100 KB of text:
                    X=$(python3 -c "print('x'*100000)") /usr/bin/time -v patchbay check DIR/app.json
  keys DIR      one binding with 1,000,000 unknown parameter keys (a 13.9 MB file)

Run from the repository root (the catalog is Manifests/catalog.json)."""
import shutil
import sys
from pathlib import Path

kind, folder = sys.argv[1], Path(sys.argv[2])
folder.mkdir(parents=True, exist_ok=True)
shutil.copy("Manifests/catalog.json", folder / "catalog.json")
if kind == "amplify":
    parameters = '"host": "%s", "port": 587' % ("${X}" * 10_000)
elif kind == "keys":
    parameters = '"host": "h", "port": 587, ' + ", ".join('"u%d": 1' % i for i in range(1_000_000))
else:
    sys.exit("usage: hostile-amplification.py amplify|keys DIR")
(folder / "app.json").write_text(
    '{ "format": 1, "bindings": [ { "protocol": "Mailer", "factory": "smtp-mailer", '
    '"parameters": { %s } } ] }\n' % parameters)
