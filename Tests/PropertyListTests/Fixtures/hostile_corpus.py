"""The hostile corpus being made: the files every reader must refuse and the edge cases it
must read, registered by make_hostile.py's cases (and hostile_binary.py's), which
make_hostile.py then writes."""

KINDS = {"empty", "truncated", "malformed", "invalidText", "limitExceeded", "cycle", "unsupported"}

hostile = {}  # name -> (bytes, kinds, why)
hostile_ok = {}  # name -> (bytes, why)


def bad(name, data, kinds, why):
    assert name not in hostile, name
    assert kinds and set(kinds) <= KINDS, (name, kinds)
    assert "\n" not in why
    hostile[name] = (bytes(data), list(kinds), why)


def good(name, data, why):
    assert name not in hostile_ok, name
    hostile_ok[name] = (bytes(data), why)
