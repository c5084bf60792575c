#!/usr/bin/env python3
"""Writes the hostile dependency graphs of Tests/PatchbayTests/HostileGraphs.swift
(the same bytes): a folder with catalog.json and app.json, for measuring
`patchbay check` and `patchbay explain` on them by hand.

    python3 Benchmarks/Scripts/hostile-graphs.py knot 900 /tmp/knot900
    python3 Benchmarks/Scripts/hostile-graphs.py chain 900 /tmp/chain900
    python3 Benchmarks/Scripts/hostile-graphs.py dag 900 /tmp/dag900

knot N: factory i needs T(i+1) and every earlier T (one strongly connected
component of N bindings and about N^2/2 needs); chain N: the same without
the back edges, factory i needs T(i+1) only; dag N: the back edges turned
forward, factory i needs every later T (as many needs as the knot, in a
catalog of the same size, and no cycle).
"""
import os
import sys


def type_name(index):
    return "T%05d" % index


def write(folder, count, needs):
    types, factories, bindings = [], [], []
    for index in range(count):
        name = type_name(index)
        types.append('{"name":"%s","qualified":"M.%s"}' % (name, name))
        needed = ",".join('{"kind":"direct","type":"M.%s"}' % type_name(n) for n in needs(index))
        factories.append('{"name":"f%s","provides":["M.%s"],"productType":"M.%s",'
                         '"productIsClass":false,"needs":[%s]}' % (name, name, name, needed))
        bindings.append('{"protocol":"%s","factory":"f%s"}' % (name, name))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "catalog.json"), "w") as out:
        out.write('{"version":2,"types":[' + ",\n".join(types) + '],"factories":[\n'
                  + ",\n".join(factories) + "\n]}\n")
    with open(os.path.join(folder, "app.json"), "w") as out:
        out.write('{"format":1,"bindings":[\n' + ",\n".join(bindings) + "\n]}\n")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("knot", "chain", "dag"):
        sys.exit(__doc__)
    shape, count, folder = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    nxt = lambda i: [i + 1] if i + 1 < count else []
    if shape == "knot":
        write(folder, count, lambda i: nxt(i) + list(range(i)))
    elif shape == "dag":
        write(folder, count, lambda i: list(range(i + 1, count)))
    else:
        write(folder, count, nxt)


main()
