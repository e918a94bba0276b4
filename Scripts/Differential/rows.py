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


ROWS = [
    # Refused by prefs, read by the reference: told by the row prefs' message names alone (every
    # refusal of prefs' readers names one, `[differential: ID]`), for the dialects whose reader
    # Docs/compatibility.md says reads such a file.
    Row("truncated-binary", REJECTS, BOTH),
    Row("binary-version", REJECTS, ("tools", "gnustep")),
    Row("binary-reference-size", REJECTS, CF),
    Row("binary-count-marker", REJECTS, CF),
    Row("nonstring-key", REJECTS, BOTH),
    Row("invalid-text", REJECTS, BOTH),
    Row("utf16-without-bom", REJECTS, CF),
    Row("gnustep-encoding", REJECTS, GS),
    Row("octal-escape-above-177", REJECTS, CF),
    Row("indistinct-keys", REJECTS, BOTH),
    Row("safety-limits", REJECTS, BOTH),
    Row("nonfinite-binary-date", REJECTS, BOTH),
    Row("unterminated-comment", REJECTS, CF),
    Row("openstep-unterminated-string", REJECTS, CF),
    Row("xml-unknown-encoding", REJECTS, BOTH),
    Row("xml-bad-character-reference", REJECTS, BOTH),
    Row("xml-control-character-in-number", REJECTS, BOTH),
    Row("xml-lt-in-attribute", REJECTS, BOTH),
    Row("xml-unknown-element", REJECTS, BOTH),
    # GNUstep's readers take broken input, and make values of it no other reader makes.
    Row("xml-unterminated-doctype", REJECTS, GS),
    Row("xml-unterminated-processing-instruction", REJECTS, GS),
    Row("xml-malformed-tag", REJECTS, GS),
    Row("xml-cdata", REJECTS, GS),
    Row("xml-markup-in-text", REJECTS, GS),
    Row("xml-undefined-entity", REJECTS, GS),
    Row("xml-text-before-plist", REJECTS, GS),
    Row("xml-text-after-value", REJECTS, GS),
    Row("xml-second-value", REJECTS, GS),
    Row("xml-content-after-end", REJECTS, GS),
    Row("xml-text-outside-element", REJECTS, GS),
    Row("xml-key-without-value", REJECTS, GS),
    Row("xml-key-outside-dict", REJECTS, GS),
    Row("xml-bad-integer", REJECTS, GS),
    Row("xml-hexadecimal-integer", REJECTS, GS),
    Row("xml-bad-real", REJECTS, GS),
    Row("xml-boolean-with-text", REJECTS, GS),
    Row("xml-bad-base64", REJECTS, GS),
    Row("binary-object-count", REJECTS, GS),
    Row("binary-top-object", REJECTS, GS),
    Row("binary-table-offset", REJECTS, GS),
    Row("binary-table-past-trailer", REJECTS, GS),
    Row("binary-references-too-narrow", REJECTS, GS),
    Row("binary-offset-outside-objects", REJECTS, GS),
    Row("binary-object-past-table", REJECTS, GS),
    Row("binary-container-key", REJECTS, GS),
    Row("openstep-unexpected-character", REJECTS, GS),
    Row("openstep-container-key", REJECTS, GS),
    Row("openstep-data-bad-character", REJECTS, GS),
    Row("gnustep-typed-number", REJECTS, GS),
    Row("gnustep-typed-date", REJECTS, GS),
    Row("gnustep-bad-base64", REJECTS, GS),
    # Read differently: keys twins by normalization, kept by prefs (and GNUstep, and Apple's
    # CoreFoundation), merged by corelibs' Foundation, the reference here.
    Row("indistinct-keys", "values-differ", CF, test=twins_merged),
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
]


def named_row(case):
    """The row prefs' own message names (`[differential: ID]`), if it is one of ROWS."""
    m = re.search(r"\[differential: ([a-z0-9-]+)\]", case.prefs)
    return m.group(1) if m else None


def explain(cls, case):
    """The id of the row that allows this difference, or None: the row prefs' message names
    when it is one for this class and dialect; a refusal has no other way to be explained.
    Otherwise (prefs read a value) the first row whose patterns match."""
    named = named_row(case)
    for row in ROWS:
        if row.id == named and row.matches(cls, case):
            return row.id
    if cls == REJECTS:
        return None
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
