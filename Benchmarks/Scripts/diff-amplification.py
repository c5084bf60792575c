#!/usr/bin/env python3
"""Writes #52's `patchbay diff` case: a folder whose manifests declare
TYPES types, each bound in `primary` alone, and the injectors `primary`,
`secondary` and INJECTORS custom ones, so that a request for each type from
each injector falls back to `primary`. There is no catalog.json: the check
is the syntax-and-shape one, as in the issue.

  staging.json     every type bound to `old-<n>`, with a parameter
  production.json  the same types bound to `new-<n>`: every type differs
  mirror.json      staging.json again: a diff of identical sides

At the defaults (1,000 types, 1,000 custom injectors) each file is about
93 KB, and a diff that counted each type once per injector would have
1,000,000 differences.

    python3 Benchmarks/Scripts/diff-amplification.py /tmp/diff1000
    /usr/bin/time -v patchbay diff /tmp/diff1000 --from staging --to production --format json
    /usr/bin/time -v patchbay diff /tmp/diff1000 --from staging --to mirror

usage: diff-amplification.py DIR [TYPES [INJECTORS]]"""
import sys
from pathlib import Path

if len(sys.argv) < 2:
    sys.exit(__doc__)
folder = Path(sys.argv[1])
types = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
injectors = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
folder.mkdir(parents=True, exist_ok=True)


def manifest(environment, factory):
    names = ["primary", "secondary"] + ["c-%04d" % i for i in range(injectors)]
    bindings = ",\n".join(
        '    { "protocol": "T%04d", "factory": "%s-%04d", "parameters": { "value": %d } }'
        % (n, factory, n, n) for n in range(types))
    return ('{\n  "format": 1,\n  "environment": "%s",\n  "injectors": [%s],\n  "bindings": [\n%s\n  ]\n}\n'
            % (environment, ", ".join('"%s"' % name for name in names), bindings))


(folder / "staging.json").write_text(manifest("staging", "old"))
(folder / "production.json").write_text(manifest("production", "new"))
(folder / "mirror.json").write_text(manifest("mirror", "old"))
