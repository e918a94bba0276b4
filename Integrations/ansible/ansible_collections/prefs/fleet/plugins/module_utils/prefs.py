# Copyright (c) the prefs authors
"""What the prefs.fleet modules share: finding and running the prefs binary, handing it values
as the playbook gave them (with their type, when one is named), and reading what it prints.

The modules type nothing themselves: each value goes to `prefs write --values -` as JSON, as
the playbook gave it, beside its `type`, and prefs types it by the command line's one set of
rules (`prefs write --help`). What prefs prints back is typed JSON: plain JSON where JSON is
exact and one tagged member for the rest: {"$date": "2011-03-14T15:09:26Z"},
{"$data": "BASE64"}, {"$real": "nan"|"inf"|"-inf"}, {"$uid": 7}, and {"$dict": {...}} around
a dictionary whose only key is one of those tags.
"""

from __future__ import annotations

import json
import os

TAGS = ("$date", "$data", "$real", "$uid", "$dict")
GLOBAL_DOMAINS = ("NSGlobalDomain", "-g", "-globalDomain")

# The options every module takes to reach prefs.
COMMON_ARGS = dict(
    executable=dict(type="path"),
    layout=dict(type="str", choices=["xdg", "macos", "gnustep"]),
)


def find_prefs(module):
    """The prefs binary: the executable option, else prefs on PATH, /usr/bin, /usr/local/bin.
    A path that is not an executable file fails the task saying so (not a Python error)."""
    given = module.params.get("executable")
    if given:
        if os.path.isdir(given) or not os.path.isfile(given):
            module.fail_json(
                msg="executable: %s %s; give the path of the prefs binary (or leave executable out "
                "to use prefs on PATH, /usr/bin or /usr/local/bin)"
                % (given, "is a folder" if os.path.isdir(given) else "does not exist"))
        if not os.access(given, os.X_OK):
            module.fail_json(
                msg="executable: %s is not executable by this user (uid %d)" % (given, os.geteuid()))
        return given
    return module.get_bin_path("prefs", required=True, opt_dirs=["/usr/bin", "/usr/local/bin"])


def base_command(module, host=None):
    """prefs and the options before its verb: the layout, the host's ByHost domains."""
    command = [find_prefs(module)]
    if module.params.get("layout"):
        command += ["--layout", module.params["layout"]]
    if host == "currentHost":
        command += ["--current-host"]
    elif host:
        command += ["--host", host]
    return command


def run(module, arguments, data=None):
    """Runs prefs with a list of words (no shell, nothing expanded), `data` on its standard
    input: (rc, stdout, stderr)."""
    return module.run_command(
        arguments, data=data, binary_data=data is not None, expand_user_and_vars=False,
        environ_update={"LC_ALL": "C.UTF-8"})


def domain_word(domain):
    """A domain as the native verbs take it: the global domain is its file's name."""
    return ".GlobalPreferences" if domain in GLOBAL_DOMAINS else domain


def key_components(key):
    """The key as prefs' values file takes it: a string is one key (dots and all), a list a
    key path (keys and array indices); None when there is none."""
    if isinstance(key, (list, tuple)):
        return list(key)
    return key


def key_path_text(components):
    """A key path as `prefs read --key-path` reads it: components joined by dots, a dot
    inside a key escaped (`\\.`). Used to name a place, never to type a value."""
    return ".".join(str(c).replace(".", "\\.") for c in components)


def type_name(value):
    """The type of a typed JSON value prefs printed, as prefs names it."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "real"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict) and len(value) == 1:
        tag = next(iter(value))
        if tag in TAGS:
            return {"$date": "date", "$data": "data", "$real": "real", "$uid": "uid", "$dict": "dictionary"}[tag]
    return "dictionary"


class NoJSON(Exception):
    """A value JSON cannot carry (a float NaN or infinity)."""


def dumps(value):
    """Compact JSON text of a value, as given. JSON has no NaN or infinity: such a float is
    refused here (give type float and the word nan or inf, which prefs reads)."""
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except ValueError:
        raise NoJSON("a real that is NaN or infinite has no JSON: give type: float and the word nan, inf or -inf")


def json_lines(text):
    """The objects prefs printed one a line (write, delete and diff --typed)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def at_path(value, components):
    """The typed JSON value at `components` inside `value` (None where there is none)."""
    for component in components:
        if isinstance(value, dict):
            value = value.get("$dict", value) if len(value) == 1 and "$dict" in value else value
            if type_name(value) != "dictionary" or not isinstance(component, str):
                return None
            value = value.get(component)
        elif isinstance(value, list):
            try:
                index = int(component)
            except (TypeError, ValueError):
                return None
            value = value[index] if 0 <= index < len(value) else None
        else:
            return None
        if value is None:
            return None
    return value


def leaves(path, value):
    """One line a leaf: `key.path = typed JSON`, the path as prefs' key paths spell it (a dot
    inside a key escaped), each array element and dictionary entry a line of its own; a
    scalar, a tagged value or an empty container is a leaf. Lossless: the lines give the
    value back."""
    if isinstance(value, dict) and len(value) == 1 and "$dict" in value:
        value = value["$dict"]
        if not value:
            return ["%s = {}" % key_path_text(path)]
        return [line for k in sorted(value) for line in leaves(path + [k], value[k])]
    if isinstance(value, dict) and type_name(value) == "dictionary" and value:
        return [line for k in sorted(value) for line in leaves(path + [k], value[k])]
    if isinstance(value, list) and value:
        return [line for n, v in enumerate(value) for line in leaves(path + [n], v)]
    return ["%s = %s" % (key_path_text(path), dumps(value))]


def diff_of(changes, header):
    """Ansible's diff of changes prefs printed (one object a top-level key): each key's value
    before and after, one line a leaf (see leaves()), so that a reviewer compares leaves, not
    whole containers; nothing for a key that was absent before, or is after."""
    before, after = [], []
    for change in changes:
        if change.get("old") is not None:
            before += leaves([change["key"]], change["old"])
        if change.get("new") is not None:
            after += leaves([change["key"]], change["new"])
    return dict(
        before="".join(line + "\n" for line in before),
        after="".join(line + "\n" for line in after),
        before_header=header, after_header=header,
    )


def article(name):
    """A type's name with its article (an integer, a string)."""
    return ("an " if name[:1] in "aeiou" else "a ") + name
