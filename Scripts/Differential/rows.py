"""The differences between prefs and each dialect's own reader that Docs/compatibility.md's table
"Where prefs deliberately differs from a reference" allows, one row each (its id is written in
the table, `[differential: ID]`). differential.py counts every input by the row that explains
it; an accept/refuse difference no row explains fails the run, and so does any value that
differs. A row names the class it allows, the dialects (readers) it is about, and what the
input and the two answers look like."""
import collections
import json
import re
import unicodedata

Case = collections.namedtuple(
    "Case", "data kind dialect prefs reference prefs_ok reference_ok gnustep_ok")

# "tools": prefs' tools that name no dialect (`lint`, `convert`, `read`: `plist-probe
# --lenient`), whose reader is CoreFoundation's (issue 46).
CF = ("apple", "corelibs", "tools")
GS = ("gnustep",)
BOTH = CF + GS
REJECTS = "prefs-rejects-reference-accepts"
ACCEPTS = "prefs-accepts-reference-rejects"


class Row:
    def __init__(self, id, cls, dialects, prefs=None, reference=None, data=None, test=None):
        self.id, self.cls, self.dialects = id, cls, dialects
        self.prefs = re.compile(prefs) if prefs else None
        self.reference = re.compile(reference) if reference else None
        self.data = data
        self.test = test

    def matches(self, cls, case):
        if cls != self.cls or case.dialect not in self.dialects:
            return False
        if self.prefs and not self.prefs.search(case.prefs):
            return False
        if self.reference and not self.reference.search(case.reference):
            return False
        if self.test and not self.test(case):
            return False
        return self.data is None or self.data(case.data)


KEY = re.compile(r's"((?:[^"\\]|\\.)*)"=')


def keys(answer):
    """The dictionary keys of a canonical answer, decoded."""
    found = []
    for text in KEY.findall(answer):
        try:
            found.append(json.loads('"' + text + '"'))
        except ValueError:
            found.append(text)
    return found


def twins_merged(case):
    """prefs keeps two keys that differ only in Unicode normalization where the reference has
    fewer keys: corelibs' Foundation merges them (its Swift dictionaries compare keys by
    canonical equivalence); Apple's CoreFoundation and GNUstep compare NSString keys literally
    and keep both, as prefs does."""
    mine = keys(case.prefs)
    folded = [unicodedata.normalize("NFC", k) for k in mine]
    return len(set(folded)) < len(folded) and len(keys(case.reference)) < len(mine)


def gnustep_text(data):
    """GNUstep's own text format (typed values `<*…>`, base64 `<[…]>`), in UTF-8 or UTF-16."""
    text = data.replace(b"\x00", b"")
    return b"<*" in text or b"<[" in text


def starts_like_binary(data):
    return data[:6] == b"bplist"[:min(6, len(data))] and len(data) > 0


ROWS = [
    # Refused by prefs, read by the reference.
    Row("truncated-binary", REJECTS, BOTH,
        prefs=r"binary property list (is truncated|uses binary plist version)|"
              r"malformed binary property list at byte offset [0-7]: not a bplist00 header",
        data=starts_like_binary),
    Row("nonstring-key", REJECTS, BOTH,
        prefs=r"a dictionary key that is not a string|dictionary key \(object \d+\) is a container"),
    Row("invalid-text", REJECTS, BOTH,
        prefs=r"invalid [^ ]+( \([^)]*\))? text in|text in UTF-16 or UTF-32 without a byte-order "
              r"mark|uses encoding \"[^\"]*\"|a byte-order mark or text not in UTF-8"),
    Row("octal-escape-above-177", REJECTS, CF, prefs=r"octal escape above"),
    # Read differently: keys twins by normalization, kept by prefs (and GNUstep, and Apple's
    # CoreFoundation), merged by corelibs' Foundation, the reference here.
    Row("indistinct-keys", "values-differ", CF, test=twins_merged),
    Row("safety-limits", REJECTS, BOTH, prefs=r"goes past a safety limit"),
    Row("nonfinite-binary-date", REJECTS, BOTH, prefs=r"date is (-?inf|nan)"),
    Row("unterminated-comment", REJECTS, CF, prefs=r"\*/ to end the comment"),
    Row("malformed-xml", REJECTS, CF,
        prefs=r"malformed XML property list .*: ('<' inside|the character reference|unknown "
              r"element <(plist|!)|the entity &|text (outside|before)|an unexpected </|"
              r"<[^>]*> inside <|<[^>]*> closes <|a <[^>]*> in a <dict> without a <key>)"),
    Row("openstep-abandoned", REJECTS, CF,
        prefs=r"(malformed|truncated) OpenStep property list|OpenStep property list is truncated"),
    Row("malformed-binary", REJECTS, CF,
        prefs=r"malformed binary property list at byte offset \d+: (count of object|"
              r"trailer (offset|reference) size|UID of|unknown object marker|integer of 2)"),
    # GNUstep's readers take broken input, and make values of it no other reader makes.
    Row("gnustep-lax-xml", REJECTS, GS,
        prefs=r"(malformed|truncated) XML property list|XML property list is truncated|"
              r"a CDATA section|a hexadecimal <integer>|is not a date GNUstep reads|"
              r"XML property list uses encoding"),
    Row("gnustep-lax-binary", REJECTS, GS,
        prefs=r"malformed binary property list|binary property list is truncated|"
              r"binary property list has a reference cycle|binary property list uses"),
    Row("gnustep-lax-text", REJECTS, GS,
        prefs=r"(malformed|truncated) (OpenStep|GNUstep) property list|OpenStep property list is "
              r"truncated|GNUstep property list is truncated|(OpenStep|GNUstep) property list uses"),
    # Read by prefs, refused (or crashed on) by the reference.
    Row("binary-set", ACCEPTS, CF, prefs=r"\[differential: binary-set\]"),
    # The tools read what only GNUstep reads too (a file CoreFoundation refuses), or with a
    # warning saying CoreFoundation refuses it.
    Row("tools-read-more", ACCEPTS, ("tools",), test=lambda case: case.gnustep_ok or re.search(
        r"CoreFoundation \(Apple platforms\) refuses|CoreFoundation refuses|"
        r"\[differential: tools-read-more\]", case.prefs) is not None or gnustep_text(case.data)),
    Row("utf16-without-bom", ACCEPTS, ("tools",),
        data=lambda d: len(d) > 1 and (d[0] == 0) != (d[1] == 0)),
    # The tools read a non-string key under its text form, with a warning.
    Row("nonstring-key", "values-differ", ("tools",), prefs=r"non-string dictionary key"),
    # (A UID as a key: Foundation traps converting it, the tools read its text form.)
    Row("nonstring-key", ACCEPTS, ("tools",), prefs=r"non-string dictionary key",
        reference=r"^CRASH"),
    # Keys twins by normalization refuse the domain (prefs' dictionaries keep both; the
    # reference, corelibs' Foundation, merges them).
    Row("indistinct-keys", REJECTS, BOTH, prefs=r"differ only in Unicode normalization"),
]


def named_row(case):
    """The row prefs' own message names (`[differential: ID]`), if it is one of ROWS."""
    m = re.search(r"\[differential: ([a-z0-9-]+)\]", case.prefs)
    return m.group(1) if m else None


def explain(cls, case):
    """The id of the row that allows this difference, or None: the row prefs' message names
    when it is one for this class and dialect, else the first row whose patterns match."""
    named = named_row(case)
    for row in ROWS:
        if row.id == named and cls == row.cls and case.dialect in row.dialects:
            return row.id
    for row in ROWS:
        if row.matches(cls, case):
            return row.id
    return None


def round_trip_allowed(loss):
    """Round trips that change a value GNUstep's XML reader itself cannot hold (binary and
    GNUstep text keep it; MIGRATION.md, "Reading a legacy file as its app read it"): it clamps
    an integer above Int64.max. (A U+FEFF it would drop, after an entity or the white space a
    string starts with, PropertyList.write refuses in XML since issue 46: no allowance.)"""
    n, path, fmt, reader, want, got = loss
    if reader == "gnustep" and fmt == "xml" and got.startswith("OK "):
        held = re.sub(r"i(\d{19,20})", lambda m: "i%d" % min(int(m.group(1)), 2**63 - 1), want)
        return held == got[3:]
    return False
