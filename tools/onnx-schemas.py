#!/usr/bin/env python3
"""Writes tools/onnx-schemas.json: every operator schema of the installed
onnx package (Debian's python3-onnx), its domain, the versions at which it
changed, and whether it is deprecated. tools/gen-operators.mjs reads it to
write docs/operators.md; the JSON is checked in so that the docs test needs
no Python. Run: /usr/bin/python3 tools/onnx-schemas.py"""
import json
import os

import onnx
from onnx import defs

ops = {}
for s in defs.get_all_schemas_with_history():
    dom = s.domain or "ai.onnx"
    e = ops.setdefault(dom, {}).setdefault(s.name, {"versions": [], "deprecated": False})
    e["versions"].append(s.since_version)
    if s.since_version == max(e["versions"]):
        e["deprecated"] = bool(s.deprecated)
for d in ops.values():
    for e in d.values():
        e["versions"].sort()
out = {
    "onnx": onnx.__version__,
    "domains": {d: dict(sorted(ops[d].items())) for d in sorted(ops)},
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "onnx-schemas.json")
# one line per op: a diff after an onnx upgrade names the ops that changed
lines = ["{", f' "onnx": {json.dumps(out["onnx"])},', ' "domains": {']
doms = list(out["domains"].items())
for i, (d, v) in enumerate(doms):
    lines.append(f"  {json.dumps(d)}: {{")
    items = list(v.items())
    for j, (name, e) in enumerate(items):
        lines.append(f"   {json.dumps(name)}: {json.dumps(e)}" + ("," if j + 1 < len(items) else ""))
    lines.append("  }" + ("," if i + 1 < len(doms) else ""))
lines += [" }", "}"]
with open(path, "w") as f:
    f.write("\n".join(lines) + "\n")
print(f"wrote {path}: onnx {onnx.__version__}, " + ", ".join(f"{d} {len(v)}" for d, v in out["domains"].items()))
