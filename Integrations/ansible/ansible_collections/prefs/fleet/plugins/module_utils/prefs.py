# Copyright (c) the prefs authors
"""What the prefs.fleet modules share: finding and running the prefs binary, and the values
they hand it, always as prefs' typed JSON (never as text a shell or defaults would parse).

Typed JSON is plain JSON where JSON is exact (a string, true/false, an integer, a real
written with a fraction or an exponent, an array, an object) and one tagged member for the
rest: {"$date": "2011-03-14T15:09:26Z"}, {"$data": "BASE64"}, {"$real": "nan"|"inf"|"-inf"},
{"$uid": 7}, and {"$dict": {...}} around a dictionary whose only key is one of those tags.
`prefs read --typed` prints it and `prefs write KEY -json VALUE` takes it back.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import json
import math
import re

TAGS = ("$date", "$data", "$real", "$uid", "$dict")
INT_MIN = -(2 ** 63)
UINT_MAX = 2 ** 64 - 1
GLOBAL_DOMAINS = ("NSGlobalDomain", "-g", "-globalDomain")

# The options every module takes to reach prefs.
COMMON_ARGS = dict(
    executable=dict(type="path"),
    layout=dict(type="str", choices=["xdg", "macos", "gnustep"]),
)


class ValueError_(Exception):
    """A value the module cannot hand to prefs without changing it."""


def find_prefs(module):
    """The prefs binary: the executable option, else prefs on PATH, /usr/bin, /usr/local/bin."""
    given = module.params.get("executable")
    if given:
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


def run(module, arguments):
    """Runs prefs with a list of words (no shell, nothing expanded): (rc, stdout, stderr)."""
    return module.run_command(arguments, expand_user_and_vars=False, environ_update={"LC_ALL": "C.UTF-8"})


def domain_word(domain):
    """A domain as the native verbs take it: the global domain is its file's name."""
    return ".GlobalPreferences" if domain in GLOBAL_DOMAINS else domain


def key_path(key):
    """(the KEY word, whether it is a key path): a string is one key, as it is (dots and all:
    migrated keys such as sound.enabled are one key); a list is a key path of keys and array
    indices, written as prefs' --key-path reads it (a dot inside a key escaped)."""
    if isinstance(key, bool):
        raise ValueError_("key: %s is a YAML boolean, not a key (quote it: '%s')" % (key, "off" if not key else "on"))
    if isinstance(key, (list, tuple)):
        if not key:
            raise ValueError_("key: an empty list names no value")
        parts = []
        for n, component in enumerate(key):
            if isinstance(component, bool) or not isinstance(component, (str, int)):
                raise ValueError_("key: each element is a key (a string) or an array index (an integer)")
            text = str(component)
            if text == "":
                raise ValueError_("key: an empty key cannot be in a key path")
            if text.endswith("\\") and n + 1 < len(key):
                raise ValueError_("key: a key ending in a backslash can only be the last of a key path")
            parts.append(text.replace(".", "\\."))
        if len(parts) == 1:
            return str(key[0]), False
        return ".".join(parts), True
    if key is None or str(key) == "":
        raise ValueError_("key: give a key")
    return str(key), False


def type_name(value):
    """The type of a typed JSON value, as prefs names it."""
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


TYPES = {
    "bool": "bool", "boolean": "bool",
    "int": "integer", "integer": "integer",
    "float": "real", "real": "real", "double": "real",
    "string": "string", "str": "string",
    "date": "date", "data": "data",
    "array": "array", "list": "array",
    "dict": "dictionary", "dictionary": "dictionary",
}


def typed(value, type_=None, where="value"):
    """`value` from a playbook as typed JSON, of `type_` (one of TYPES; None: as the YAML
    value is typed: a bool, an int, a float, a string, a list, a mapping, a datetime or date;
    inside containers a {"$date": …} or {"$data": …} mapping says a date or data)."""
    kind = TYPES.get(type_) if type_ else None
    if type_ and kind is None:
        raise ValueError_("%s: unknown type %s" % (where, type_))
    if kind is None:
        return _inferred(value, where)
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("yes", "true", "1", "no", "false", "0"):
            return value.lower() in ("yes", "true", "1")
        if isinstance(value, int) and value in (0, 1):
            return value == 1
        raise ValueError_("%s: %r is not a bool (true, false, yes, no, 1, 0)" % (where, value))
    if kind == "integer":
        if isinstance(value, str) and re.match(r"^\s*[-+]?[0-9]+\s*$", value):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError_("%s: %r is not an integer" % (where, value))
        return _integer(value, where)
    if kind == "real":
        if _tag(value) == "$real":
            return value
        if isinstance(value, bool):
            raise ValueError_("%s: %r is not a number" % (where, value))
        if isinstance(value, (int, float)):
            return _real(float(value))
        if isinstance(value, str):
            try:
                return _real(float(value))
            except ValueError:
                pass
        raise ValueError_("%s: %r is not a number" % (where, value))
    if kind == "string":
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return repr(value) if isinstance(value, float) else str(value)
        raise ValueError_("%s: %r is not a string (quote it in YAML)" % (where, value))
    if kind == "date":
        return _date(value, where)
    if kind == "data":
        return _data(value, where)
    if kind == "array":
        if not isinstance(value, list):
            raise ValueError_("%s: %r is not a list" % (where, value))
        return [_inferred(x, "%s[%d]" % (where, n)) for n, x in enumerate(value)]
    if not isinstance(value, dict):
        raise ValueError_("%s: %r is not a mapping" % (where, value))
    return _dictionary(value, where)


def _tag(value):
    if isinstance(value, dict) and len(value) == 1:
        tag = next(iter(value))
        if tag in TAGS:
            return tag
    return None


def _integer(value, where):
    if value < INT_MIN or value > UINT_MAX:
        raise ValueError_("%s: %d does not fit in 64 bits, as a property list's integers do" % (where, value))
    return value


def _real(value):
    if math.isnan(value):
        return {"$real": "nan"}
    if math.isinf(value):
        return {"$real": "inf" if value > 0 else "-inf"}
    return value


def _date(value, where):
    if _tag(value) == "$date":
        value = value["$date"]
        if not isinstance(value, str):
            return {"$date": value}
    if isinstance(value, str):
        # A YAML timestamp reaches a module as Python's ISO text (2011-03-14T15:09:26+00:00):
        # read it here; other text (GNUstep's 2011-03-14 15:09:26 +0000) is prefs' to read.
        text = value.strip()
        try:
            value = datetime.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
        except ValueError:
            return {"$date": text}
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        text = value.strftime("%Y-%m-%dT%H:%M:%S")
        if value.microsecond:
            text += (".%06d" % value.microsecond).rstrip("0")
        return {"$date": text + "Z"}
    if isinstance(value, datetime.date):
        return {"$date": value.strftime("%Y-%m-%dT00:00:00Z")}
    raise ValueError_("%s: %r is not a date (2011-03-14T15:09:26Z)" % (where, value))


def _data(value, where):
    if _tag(value) == "$data":
        return value
    if isinstance(value, (bytes, bytearray)):
        return {"$data": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, str):
        text = "".join(value.split())
        try:
            base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError_("%s: data is given as base64, and this is not base64" % where)
        return {"$data": text}
    raise ValueError_("%s: %r is not data (base64 text)" % (where, value))


def _dictionary(value, where):
    result = _entries(value, where)
    if len(result) == 1 and next(iter(result)) in TAGS:
        return {"$dict": result}
    return result


def _entries(value, where):
    if not isinstance(value, dict):
        raise ValueError_("%s: %r is not a mapping" % (where, value))
    result = {}
    for k, v in value.items():
        if not isinstance(k, str):
            raise ValueError_("%s: the key %r is not a string (quote it in YAML)" % (where, k))
        result[k] = _inferred(v, "%s.%s" % (where, k))
    return result


def _inferred(value, where):
    if value is None:
        raise ValueError_("%s: null has no property-list value (remove the key with state: absent)" % where)
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, int):
        return _integer(value, where)
    if isinstance(value, float):
        return _real(value)
    if isinstance(value, (datetime.datetime, datetime.date)):
        return _date(value, where)
    if isinstance(value, (bytes, bytearray)):
        return _data(value, where)
    if isinstance(value, (list, tuple)):
        return [_inferred(x, "%s[%d]" % (where, n)) for n, x in enumerate(value)]
    if isinstance(value, dict):
        tag = _tag(value)
        if tag is not None:
            # A tagged value as prefs prints it: handed on for prefs to read.
            return value if tag != "$dict" else {"$dict": _entries(value["$dict"], where)}
        return _dictionary(value, where)
    raise ValueError_("%s: %r has no property-list value" % (where, value))


def dumps(value):
    """Typed JSON text of a value made by typed() (never NaN: those are tagged)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True)


def json_lines(text):
    """The objects prefs printed one a line (write, delete and diff --typed)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def diff_of(changes, header):
    """Ansible's diff of a change: the defaults line that makes the state before (its revert),
    and the one that makes the state after; empty where the key is absent."""
    before, after = [], []
    for change in changes:
        if change.get("old") is not None:
            before.append(change["revert"])
        if change.get("change") == "set":
            after.append(change["command"])
    return dict(
        before="".join(line + "\n" for line in before),
        after="".join(line + "\n" for line in after),
        before_header=header, after_header=header,
    )


def article(name):
    """A type's name with its article (an integer, a string)."""
    return ("an " if name[:1] in "aeiou" else "a ") + name
