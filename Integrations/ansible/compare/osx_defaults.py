#!/usr/bin/env python3
"""prefs.fleet.defaults beside community.general.osx_defaults, on the same cases, measured.

    python3 -m venv /tmp/full && /tmp/full/bin/pip install ansible   # ansible-core + community.general
    Integrations/ansible/compare/osx_defaults.py /tmp/full PREFS_BINARY

osx_defaults wraps macOS `defaults`; here its `path` option points at prefs under the name
`defaults`, whose output is macOS defaults' own (prefs' defaults personality), so that it runs
on Linux. Each case sets a value twice (the second run must report no change), then python's
plistlib reads what the file holds; check mode and diff mode are run on a change. Prints one
table row per case and module, and the mean time of a task. Not part of CI (it needs the
`ansible` package, the whole community collection); BENCHMARKS-style numbers for the issue.
"""

import json
import os
import plistlib
import subprocess
import sys
import tempfile
import time

venv, prefs = sys.argv[1], os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
work = tempfile.mkdtemp()
bindir = os.path.join(work, "bin")
os.makedirs(bindir)
os.symlink(prefs, os.path.join(bindir, "defaults"))
os.symlink(prefs, os.path.join(bindir, "prefs"))
config = os.path.join(work, "config")
os.makedirs(config)
env = dict(os.environ, XDG_CONFIG_HOME=config, PATH=bindir + ":" + os.environ["PATH"],
           ANSIBLE_COLLECTIONS_PATH=os.path.join(here, ".."), ANSIBLE_LOAD_CALLBACK_PLUGINS="1",
           ANSIBLE_STDOUT_CALLBACK="json", ANSIBLE_LOCALHOST_WARNING="false",
           ANSIBLE_INVENTORY_UNPARSED_WARNING="false", ANSIBLE_PYTHON_INTERPRETER=sys.executable)
timings = {"osx": [], "prefs": []}


def task(module, args, check=False, diff=False):
    words = [os.path.join(venv, "bin", "ansible"), "localhost", "-c", "local", "-m", module, "-a", json.dumps(args)]
    if check:
        words.append("--check")
    if diff:
        words.append("--diff")
    start = time.monotonic()
    out = subprocess.run(words, env=env, capture_output=True, text=True).stdout
    elapsed = time.monotonic() - start
    try:
        result = json.loads(out)["plays"][0]["tasks"][0]["hosts"]["localhost"]
    except (ValueError, KeyError, IndexError):
        result = {"failed": True, "msg": out[-300:]}
    return result, elapsed


def stored(domain, key):
    path = os.path.join(config, domain + ".plist")
    try:
        with open(path, "rb") as f:
            value = plistlib.load(f).get(key, "<absent>")
    except FileNotFoundError:
        return "<no file>"
    return repr(value)


MODULES = {
    "osx": ("community.general.osx_defaults", {"path": bindir}),
    "prefs": ("prefs.fleet.defaults", {}),
}
CASES = [
    ("bool", {"type": "bool", "value": True}),
    ("int beyond 32 bits", {"type": "int", "value": 8589934593}),
    ("negative int", {"type": "int", "value": -5}),
    ("float 0.1", {"type": "float", "value": 0.1}),
    ("float 3.0", {"type": "float", "value": 3.0}),
    ("string", {"type": "string", "value": "it's \"quoted\""}),
    ("date", {"type": "date", "value": "2011-03-14 15:09:26 +0000"}),
    ("array of strings", {"type": "array", "value": ["en", "nl"]}),
    ("array, order changed", {"type": "array", "value": ["nl", "en"]}),
    ("array of integers", {"type": "array", "value": [1, 2]}),
    ("array, comma and quote", {"type": "array", "value": ["a,b", "x\"y"]}),
    ("dict", {"type": "dict", "value": {"keyCode": 2, "modifiers": 768}}),
    ("data", {"type": "data", "value": "yv4="}),
]


def row(*cells):
    print("| " + " | ".join(str(c) for c in cells) + " |")


row("case", "module", "1st changed", "2nd changed", "stored (plistlib)", "error")
row(*["---"] * 6)
for n, (name, args) in enumerate(CASES):
    for label, (module, extra) in MODULES.items():
        domain = "com.example.%s%d" % (label, n)
        a = dict(domain=domain, key="k", **args, **extra)
        if name == "array, order changed":
            task(module, dict(a, value=["en", "nl"]))
        first, t1 = task(module, a)
        second, t2 = task(module, a)
        timings[label] += [t1, t2]
        error = first.get("msg", "") if first.get("failed") else ""
        row(name, label, first.get("changed"), second.get("changed"), stored(domain, "k"),
            error.replace("|", "/")[:90])

# array_add twice, check mode, diff mode, a type mismatch.
for label, (module, extra) in MODULES.items():
    domain = "com.example.%s-more" % label
    base = dict(domain=domain, **extra)
    task(module, dict(base, key="langs", type="array", value=["en"]))
    r1, _ = task(module, dict(base, key="langs", type="array", value=["fr"], array_add=True))
    r2, _ = task(module, dict(base, key="langs", type="array", value=["fr"], array_add=True))
    row("array_add twice", label, r1.get("changed"), r2.get("changed"), stored(domain, "langs"), "")
    task(module, dict(base, key="n", type="int", value=1))
    before = open(os.path.join(config, domain + ".plist"), "rb").read()
    c, _ = task(module, dict(base, key="n", type="int", value=2), check=True)
    after = open(os.path.join(config, domain + ".plist"), "rb").read()
    row("check mode", label, c.get("changed"), "-", "file unchanged: %s" % (before == after), c.get("msg", "")[:60])
    d, _ = task(module, dict(base, key="n", type="int", value=3), diff=True)
    row("diff mode", label, d.get("changed"), "-", json.dumps(d.get("diff", "none"))[:90], "")
    m, _ = task(module, dict(base, key="n", type="string", value="three"))
    row("string over int", label, m.get("changed"), "-", stored(domain, "n"), m.get("msg", "")[:90])

for label, values in timings.items():
    print("%s: %d tasks, mean %.2f s a task" % (label, len(values), sum(values) / len(values)))
