#!/usr/bin/env python3
"""Generate hostile / broken property-list files for the reader's error tests.

    python3 make_hostile.py

Deletes and rewrites, next to this script:

  hostile/      files every reader must refuse, with hostile/MANIFEST.json:
                {"files": {NAME: {"kinds": [...], "why": "..."}}}
                `kinds` lists the acceptable PlistError kinds among empty,
                truncated, malformed, invalidText, limitExceeded, cycle,
                unsupported (more than one only when each is honestly right).
  hostile-ok/   edge cases that must be read successfully (512-deep nesting,
                shared-but-acyclic binary objects, ...), with
                hostile-ok/MANIFEST.json: {"files": {NAME: {"why": "..."}}}

Standard library only, no randomness: every run writes the same bytes.
Binary files are built by hand (not with plistlib) so that their layout is
exact and does not depend on the Python version.  File extensions name the
format the reader should detect: .bplist, .xml, .openstep, .gnustep, .strings.
"""

import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The cases of the binary format and the corpus they are registered in are modules beside this
# script (found from any working folder; no bytecode written into the fixtures).
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
from hostile_binary import binary_cases  # noqa: E402
from hostile_corpus import bad, good, hostile, hostile_ok  # noqa: E402

HOSTILE = os.path.join(HERE, "hostile")
HOSTILE_OK = os.path.join(HERE, "hostile-ok")
MAX_FILE_BYTES = 200 * 1024


# ====================================================================== XML

XML_HEAD = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
            b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
            b'"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n')


def x(body):
    """A complete XML plist document around `body` (bytes or str)."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    return XML_HEAD + b'<plist version="1.0">\n' + body + b"\n</plist>\n"


def xml_cases():
    bad("plist-element-empty.xml", XML_HEAD + b'<plist version="1.0"/>\n', ["malformed"],
        "<plist/> holds no value")
    bad("plist-element-empty-no-value.xml", x(""), ["malformed"],
        "<plist> ... </plist> with nothing inside")
    bad("plist-two-values.xml", x("<string>a</string>\n<string>b</string>"), ["malformed"],
        "<plist> holding two values")
    bad("dict-unclosed-at-eof.xml",
        XML_HEAD + b'<plist version="1.0">\n<dict>\n  <key>a</key>\n  <string>b</string>\n',
        ["truncated"], "a <dict> still open when the file ends")
    bad("dict-unclosed-before-plist-end.xml", x("<dict>\n  <key>a</key>\n  <string>b</string>"),
        ["malformed"], "</plist> arrives while <dict> is open")
    bad("close-tag-mismatch.xml", x("<array>\n  <string>a</string>\n</dict>"), ["malformed"],
        "<array> closed by </dict>")
    bad("close-tag-stray.xml", x("</array>"), ["malformed"], "a </array> with nothing open")
    bad("string-closed-by-wrong-tag.xml", x("<string>a</key>"), ["malformed"],
        "<string> closed by </key>")
    bad("key-without-value.xml", x("<dict>\n  <key>a</key>\n</dict>"), ["malformed"],
        "a <key> directly followed by </dict>")
    bad("key-followed-by-key.xml",
        x("<dict>\n  <key>a</key>\n  <key>b</key>\n  <string>c</string>\n</dict>"), ["malformed"],
        "two <key>s in a row")
    bad("value-without-key.xml", x("<dict>\n  <string>a</string>\n</dict>"), ["malformed"],
        "a value in a <dict> with no <key> before it")
    # CoreFoundation reads a <key> where a value stands as a string (issue 46: every verb).
    good("key-outside-dict.xml", x("<array>\n  <key>a</key>\n</array>"),
         "a <key> inside an <array>: the string, as CoreFoundation reads it")
    good("key-at-top-level.xml", x("<key>a</key>"),
         "a <key> as the plist's value: the string, as CoreFoundation reads it")
    bad("unknown-element.xml", x("<dict>\n  <key>a</key>\n  <foo/>\n</dict>"), ["malformed"],
        "unknown element <foo/> as a dictionary value")
    bad("unknown-element-top.xml", x("<set><string>a</string></set>"), ["malformed"],
        "unknown element <set>")
    bad("element-inside-string.xml", x("<string>a<b>bold</b>c</string>"), ["malformed"],
        "markup inside <string>, which holds only text")
    bad("text-between-elements.xml", x("<array>\n  hello\n  <string>a</string>\n</array>"),
        ["malformed"], "bare text between elements of an <array>")
    bad("text-instead-of-value.xml", x("just text"), ["malformed"], "bare text as the plist's value")
    bad("true-with-content.xml", x("<true>yes</true>"), ["malformed"], "<true> with text inside")
    bad("entity-undefined.xml", x("<string>&foo;</string>"), ["malformed"],
        "the undefined entity &foo;")
    bad("entity-no-semicolon.xml", x("<string>fish &amp chips &#65 and more text</string>"),
        ["malformed"], "'&amp' and '&#65' without their ';'")
    bad("ampersand-bare.xml", x("<string>fish & chips</string>"), ["malformed"],
        "a bare '&' in text")
    laughs = ['<!ENTITY lol "lol">']
    for k in range(1, 10):
        laughs.append('<!ENTITY lol%d "%s">' % (k, ("&lol%s;" % ("" if k == 1 else k - 1)) * 10))
    doc = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist [\n  '
           + "\n  ".join(laughs) + "\n]>\n"
           + '<plist version="1.0">\n<string>&lol9;</string>\n</plist>\n').encode()
    bad("billion-laughs-doctype.xml", doc, ["malformed", "unsupported"],
        "DOCTYPE declaring 10 nested entities (10**9 'lol's) used in a <string>: must not expand")
    doc = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<!DOCTYPE plist [\n  <!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>\n'
           '<plist version="1.0">\n<string>&xxe;</string>\n</plist>\n').encode()
    bad("external-entity-doctype.xml", doc, ["malformed", "unsupported"],
        "DOCTYPE declaring an external entity (file:///etc/passwd) used in a <string>")
    doc = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<!DOCTYPE plist [\n  <!ENTITY greeting "hello">\n]>\n'
           '<plist version="1.0">\n<dict>\n  <key>&greeting;</key>\n  <string>x</string>\n'
           '</dict>\n</plist>\n').encode()
    bad("doctype-entity-in-key.xml", doc, ["malformed", "unsupported"],
        "a harmless DOCTYPE entity used in a <key>: still never expanded")
    bad("char-ref-surrogate.xml", x("<string>&#xD800;</string>"), ["malformed", "invalidText"],
        "character reference &#xD800; (a surrogate)")
    bad("char-ref-beyond-unicode.xml", x("<string>&#x110000;</string>"),
        ["malformed", "invalidText"], "character reference &#x110000; (beyond U+10FFFF)")
    bad("char-ref-decimal-huge.xml", x("<string>&#99999999999;</string>"),
        ["malformed", "invalidText"], "decimal character reference far beyond Unicode (and 32 bits)")
    bad("char-ref-empty.xml", x("<string>&#;</string>"), ["malformed"], "character reference &#;")
    bad("char-ref-bad-hex.xml", x("<string>&#xZZ;</string>"), ["malformed"],
        "character reference &#xZZ;")
    bad("integer-too-large.xml", x("<integer>18446744073709551616</integer>"),
        ["malformed", "unsupported"], "UInt64.max + 1")
    bad("integer-too-small.xml", x("<integer>-9223372036854775809</integer>"),
        ["malformed", "unsupported"], "Int64.min - 1")
    bad("integer-hex-too-large.xml", x("<integer>0x10000000000000000</integer>"),
        ["malformed", "unsupported"], "hex integer 2**64")
    bad("integer-trailing-garbage.xml", x("<integer>12abc</integer>"), ["malformed"], "<integer>12abc")
    bad("integer-empty-element.xml", x("<integer/>"), ["malformed"], "empty <integer/>")
    bad("integer-empty-text.xml", x("<integer></integer>"), ["malformed"], "<integer></integer>")
    bad("integer-sign-only.xml", x("<integer>-</integer>"), ["malformed"], "<integer>-")
    bad("integer-real-text.xml", x("<integer>1.5</integer>"), ["malformed"], "<integer>1.5")
    bad("real-not-a-number.xml", x("<real>abc</real>"), ["malformed"], "<real>abc")
    bad("real-empty.xml", x("<real></real>"), ["malformed"], "<real></real>")
    good("date-month-13.xml", x("<date>2011-13-01T00:00:00Z</date>"),
         "month 13: CoreFoundation and GNUstep read January of the next year (with a warning)")
    good("date-feb-30.xml", x("<date>2011-02-30T00:00:00Z</date>"),
         "February 30: CoreFoundation and GNUstep read 2 March (with a warning)")
    good("date-feb-29-non-leap.xml", x("<date>2011-02-29T00:00:00Z</date>"),
         "February 29 of a common year: CoreFoundation and GNUstep read 1 March (with a warning)")
    good("date-hour-24.xml", x("<date>2011-01-01T24:00:00Z</date>"),
         "hour 24: CoreFoundation and GNUstep read midnight of the next day (with a warning)")
    good("date-second-60.xml", x("<date>2011-01-01T00:00:60Z</date>"),
         "second 60: CoreFoundation reads the next minute (with a warning)")
    bad("date-word.xml", x("<date>yesterday</date>"), ["malformed"], "<date>yesterday")
    bad("date-no-zone.xml", x("<date>2011-01-01T00:00:00</date>"), ["malformed"],
        "a date without the trailing Z")
    bad("date-empty.xml", x("<date/>"), ["malformed"], "empty <date/>")
    good("data-bad-characters.xml", x("<data>@@@@</data>"),
         "<data>@@@@: CoreFoundation skips what is not base64 and reads no bytes (with a warning); GNUstep refuses it")
    good("data-single-character.xml", x("<data>A</data>"),
         "<data>A: a last group short of four, which CoreFoundation drops (no bytes, with a warning)")
    good("data-text-after-padding.xml", x("<data>AA==AA</data>"),
         "base64 with characters after the '=' padding: CoreFoundation decodes each group of four (with a warning)")
    bad("data-element-inside.xml", x("<data>AAAA<string/>AAAA</data>"), ["malformed"],
        "an element inside <data>")

    # invalid UTF-8 inside a <string>
    bad("utf8-lone-continuation.xml", x(b"<string>a\x80b</string>"), ["invalidText"],
        "a lone continuation byte 0x80")
    bad("utf8-overlong-slash.xml", x(b"<string>a\xC0\xAFb</string>"), ["invalidText"],
        "overlong encoding C0 AF of '/'")
    bad("utf8-encoded-surrogate.xml", x(b"<string>a\xED\xA0\x80b</string>"), ["invalidText"],
        "ED A0 80: U+D800 encoded in UTF-8")
    bad("utf8-beyond-unicode.xml", x(b"<string>a\xF4\x90\x80\x80b</string>"), ["invalidText"],
        "F4 90 80 80: U+110000 encoded in UTF-8")
    bad("utf8-byte-0xFF.xml", x(b"<string>a\xFFb</string>"), ["invalidText"], "the byte 0xFF")
    bad("utf8-latin1-in-key.xml", x(b"<dict>\n  <key>caf\xE9</key>\n  <string>x</string>\n</dict>"),
        ["invalidText"], "a Latin-1 e-acute byte in a <key> of a file declared UTF-8")
    bad("utf8-truncated-at-eof.xml",
        XML_HEAD + b'<plist version="1.0">\n<string>euro \xE2\x82', ["invalidText", "truncated"],
        "the file ends inside a <string>, in the middle of the 3-byte sequence E2 82 AC")
    doc16 = ('\ufeff<?xml version="1.0" encoding="UTF-16"?>\n<plist version="1.0">\n'
             "<string>hello</string>\n</plist>\n").encode("utf-16-le")
    bad("utf16le-odd-byte-count.xml", doc16[:-1], ["invalidText", "truncated"],
        "UTF-16LE with BOM whose last code unit is cut to one byte (odd length)")
    doc16 = ('\ufeff<?xml version="1.0" encoding="UTF-16"?>\n<plist version="1.0">\n'
             "<string>hello</string>\n</plist>\n").encode("utf-16-be") + b"\x0A"
    bad("utf16be-odd-byte-count.xml", doc16, ["invalidText", "truncated"],
        "UTF-16BE with BOM plus one extra byte (odd length)")
    doc16 = ('\ufeff<?xml version="1.0" encoding="UTF-16"?>\n<plist version="1.0">\n'
             "<string>a").encode("utf-16-le") + b"\x00\xD8" + (
                 "b</string>\n</plist>\n").encode("utf-16-le")
    bad("utf16le-lone-surrogate.xml", doc16, ["invalidText"],
        "UTF-16LE with BOM holding a lone high surrogate D800 in a <string>")
    bad("encoding-unsupported.xml",
        b'<?xml version="1.0" encoding="EBCDIC-US"?>\n<plist version="1.0">\n<string>a</string>\n'
        b"</plist>\n", ["unsupported"], "an XML declaration naming the EBCDIC-US encoding")

    bad("comment-unterminated.xml", XML_HEAD + b'<plist version="1.0">\n<!-- this comment never ends\n'
        b"<string>a</string>\n</plist>\n", ["truncated"], "a <!-- comment with no -->")
    bad("comment-unterminated-in-string.xml",
        XML_HEAD + b'<plist version="1.0">\n<string>a<!-- never ends</string>\n</plist>\n',
        ["truncated"], "a <!-- comment inside <string> with no -->")
    bad("cdata-unterminated.xml", XML_HEAD + b'<plist version="1.0">\n<string><![CDATA[abc</string>\n',
        ["truncated"], "a CDATA section with no ]]>")
    # CoreFoundation leaves what follows the top value unread (issue 46: every verb, with a
    # warning).
    good("content-after-plist.xml", x("<string>a</string>") + b"<string>b</string>\n",
         "a second element after </plist>: not read, as CoreFoundation leaves it")
    good("text-after-plist.xml", x("<string>a</string>") + b"garbage\n",
         "text after </plist>: not read, as CoreFoundation leaves it")
    good("second-plist-after-plist.xml", x("<true/>") + b'<plist version="1.0"><true/></plist>\n',
         "a second <plist> element after the first: not read, as CoreFoundation leaves it")
    bad("attribute-with-lt.xml", XML_HEAD + b'<plist version="1<0">\n<true/>\n</plist>\n',
        ["malformed"], "a '<' inside an attribute value")

    bad("nested-513-arrays.xml", x("<array>" * 513 + "</array>" * 513), ["limitExceeded"],
        "513 nested <array>s inside <plist>: one past the depth limit of 512")
    bad("nested-513-dicts.xml", x("<dict><key>k</key>" * 512 + "<dict></dict>" + "</dict>" * 512),
        ["limitExceeded"], "513 nested <dict>s {k: {k: ... {}}}: one past the depth limit")
    good("nested-512-arrays.xml", x("<array>" * 512 + "</array>" * 512),
         "512 nested <array>s inside <plist>: exactly the depth limit")
    good("nested-512-arrays-empty-innermost.xml", x("<array>" * 511 + "<array/>" + "</array>" * 511),
         "511 open <array>s around an empty <array/>: 512 levels, exactly the limit")
    good("nested-512-dicts.xml", x("<dict><key>k</key>" * 511 + "<dict></dict>" + "</dict>" * 511),
         "512 nested <dict>s {k: {k: ... {}}}: exactly the depth limit")

    full = x("<dict>\n  <key>name</key>\n  <string>hello world</string>\n"
             "  <key>list</key>\n  <array>\n    <integer>1</integer>\n  </array>\n</dict>")
    cuts = [
        ("truncated-in-declaration.xml", full.index(b"encoding") + 3, "inside the <?xml ... ?> declaration"),
        ("truncated-in-doctype.xml", full.index(b"Apple//DTD") + 5, "inside a quoted string of the DOCTYPE"),
        ("truncated-in-plist-attribute.xml", full.index(b'"1.0">') + 2, 'inside version="1.0"'),
        ("truncated-in-tag-name.xml", full.index(b"<key>name") + 3, "inside the tag name <key>"),
        ("truncated-in-text.xml", full.index(b"hello world") + 5, "inside the text of a <string>"),
        ("truncated-after-key.xml", full.index(b"</key>\n  <array>") + 6, "after a <key>, before its value"),
        ("truncated-in-close-tag.xml", full.index(b"</integer>") + 5, "inside the closing tag </integer>"),
        ("truncated-in-array.xml", full.index(b"</array>"), "inside an open <array>, after an element"),
        ("truncated-before-plist-close.xml", full.index(b"</plist>"), "after the value, before </plist>"),
        ("truncated-in-plist-close.xml", full.index(b"</plist>") + 4, "inside </plist>"),
    ]
    for name, cut, where in cuts:
        bad(name, full[:cut], ["truncated"], "a valid document cut at byte %d, %s" % (cut, where))
    bad("truncated-after-xml-declaration.xml", XML_HEAD, ["truncated"],
        "the XML declaration and DOCTYPE, then nothing")


# ================================================================= OpenStep


def openstep_cases():
    o = lambda s: s.encode("utf-8") if isinstance(s, str) else s  # noqa: E731
    bad("string-unterminated.openstep", o('{ a = "never closed; }\n'), ["truncated"],
        "a quoted string with no closing quote")
    bad("string-unterminated-single-quote.openstep", o("( 'never closed )\n"), ["truncated"],
        "a single-quoted string with no closing quote")
    bad("string-escape-at-eof.openstep", o('{ a = "abc\\'), ["truncated"],
        "the file ends right after a backslash in a string")
    bad("comment-unterminated.openstep", o("{ a = b; /* this comment never ends }\n"), ["truncated"],
        "a /* comment with no */")
    bad("comment-unterminated-top.openstep", o("/* only a comment that never ends\n"), ["truncated"],
        "a file that is one unterminated /* comment")
    bad("data-unterminated.openstep", o("{ a = <0fbd"), ["truncated"], "data <0fbd with no '>'")
    bad("data-unterminated-top.openstep", o("<0fbd 7778"), ["truncated"],
        "top-level data <0fbd 7778 with no '>' (hex after '<': OpenStep, not XML)")
    bad("data-odd-hex-digits.openstep", o("{ a = <0fb>; }\n"), ["malformed"], "data <0fb>: odd hex digit count")
    bad("data-odd-hex-digits-top.openstep", o("<0fbd 7>\n"), ["malformed"],
        "top-level data <0fbd 7>: odd hex digit count")
    bad("data-non-hex.openstep", o("{ a = <0fzz>; }\n"), ["malformed"], "data <0fzz>")
    bad("dict-missing-equals.openstep", o("{ a b; }\n"), ["malformed"], "{ a b; }: no '='")
    bad("dict-key-without-value.openstep", o("{ a = b; c }\n"), ["malformed"],
        "{ a = b; c }: key c with no '=' or value")
    bad("dict-missing-value.openstep", o("{ a = ; }\n"), ["malformed"], "{ a = ; }")
    bad("dict-missing-semicolon.openstep", o("{ a = b c = d; }\n"), ["malformed"],
        "{ a = b c = d; }: no ';' between entries")
    bad("dict-key-is-array.openstep", o("{ (a) = b; }\n"), ["malformed"], "an array as a key")
    bad("dict-key-is-dict.openstep", o("{ {a = b;} = c; }\n"), ["malformed"], "a dictionary as a key")
    bad("dict-key-is-data.openstep", o("{ <00> = c; }\n"), ["malformed"], "data as a key")
    bad("dict-closed-by-paren.openstep", o("{ a = b; )\n"), ["malformed"], "{ closed by )")
    bad("array-missing-comma.openstep", o("( a b )\n"), ["malformed"], "( a b ): no comma")
    bad("array-double-comma.openstep", o("( a, , b )\n"), ["malformed"], "( a, , b )")
    bad("array-closed-by-brace.openstep", o("( a, b }\n"), ["malformed"], "( closed by }")
    bad("lone-close-paren.openstep", o(")\n"), ["malformed"], "a lone )")
    bad("lone-close-brace.openstep", o("}\n"), ["malformed"], "a lone }")
    bad("lone-open-brace.openstep", o("{\n"), ["truncated"], "a lone {")
    bad("lone-open-paren.openstep", o("(\n"), ["truncated"], "a lone (")
    bad("dict-unterminated.openstep", o("{ a = b;\n  c = d;\n"), ["truncated"], "a dictionary with no }")
    bad("array-unterminated.openstep", o("( a, b"), ["truncated"], "an array with no )")
    bad("content-after-value.openstep", o("( a ) b\n"), ["malformed"], "( a ) followed by b")
    bad("two-dicts.openstep", o("{ a = b; }\n{ c = d; }\n"), ["malformed"], "two top-level dictionaries")
    bad("unexpected-character.openstep", o("{ a = `b; }\n"),
        ["malformed"], "'`' where a value should start (GNUstep refuses it too)")
    good("unquoted-gnustep-characters.openstep", o("{ a = #b; c = a+b; d = x@y!; }\n"),
         "unquoted strings with characters GNUstep reads bare (# + @ !) and CoreFoundation does not")
    good("unicode-escape-no-digits.openstep", o('{ a = "\\Uzz"; }\n'),
         "\\U without hex digits: U+0000, as CoreFoundation and GNUstep read it")

    bad("octal-escape-377.openstep", o('"\\377"\n'), ["unsupported"],
        'the string "\\377": octal escapes above \\177 name NeXTSTEP-encoded bytes')
    bad("octal-escape-200-in-dict.openstep", o('{ a = "x\\200y"; }\n'), ["unsupported"],
        "octal escape \\200")
    bad("utf8-latin1-byte.openstep", o(b'{ a = "caf\xE9"; }\n'), ["invalidText"],
        "a Latin-1 e-acute byte in a file that is not valid UTF-8")
    bad("utf8-lone-continuation.openstep", o(b"( a\x80b )\n"), ["invalidText"],
        "a lone 0x80 in an unquoted string")
    bad("utf8-overlong.openstep", o(b'{ "a\xC0\xAF" = b; }\n'), ["invalidText"],
        "overlong C0 AF in a key")
    bad("utf8-encoded-surrogate.openstep", o(b'( "\xED\xA0\x80" )\n'), ["invalidText"],
        "ED A0 80 (U+D800 in UTF-8)")
    bad("utf8-truncated-at-eof.openstep", o(b'( "euro \xE2\x82'), ["invalidText", "truncated"],
        "the file ends inside a string, in the middle of a 3-byte UTF-8 sequence")
    bad("unicode-escape-lone-high-surrogate.openstep", o('"\\UD800"\n'), ["invalidText"],
        '"\\UD800": a lone high surrogate')
    bad("unicode-escape-lone-low-surrogate.openstep", o('{ a = "x\\UDC00y"; }\n'), ["invalidText"],
        "\\UDC00: a lone low surrogate")
    bad("unicode-escape-swapped-surrogates.openstep", o('( "\\UDE00\\UD83D" )\n'), ["invalidText"],
        "a surrogate pair in the wrong order")
    bad("utf16be-odd-byte-count.openstep", "\ufeff{ a = b; }\n".encode("utf-16-be") + b"\x0A",
        ["invalidText", "truncated"], "UTF-16BE with BOM plus one extra byte (odd length)")
    bad("utf16le-lone-surrogate.openstep",
        "\ufeff( a, ".encode("utf-16-le") + b"\x00\xDC" + " )\n".encode("utf-16-le"),
        ["invalidText"], "UTF-16LE with BOM holding a lone low surrogate DC00")

    bad("nested-513-arrays.openstep", o("(" * 513 + ")" * 513 + "\n"), ["limitExceeded"],
        "513 nested arrays: one past the depth limit of 512")
    bad("nested-513-dicts.openstep", o("{a=" * 512 + "{}" + ";}" * 512 + "\n"), ["limitExceeded"],
        "513 nested dictionaries {a={a=...{}}}: one past the depth limit")
    bad("nested-513-unterminated.openstep", o("(" * 600), ["limitExceeded", "truncated"],
        "600 '(' and nothing else: past the depth limit before the end of the file")
    good("nested-512-arrays.openstep", o("(" * 512 + ")" * 512 + "\n"),
         "512 nested arrays: exactly the depth limit")
    good("nested-512-dicts.openstep", o("{a=" * 511 + "{}" + ";}" * 511 + "\n"),
         "512 nested dictionaries {a={a=...{}}}: exactly the depth limit")
    good("dict-no-final-semicolon.openstep", o("{ a = b; c = d }\n"),
         "the ';' before '}' may be left out (GNUstep and CoreFoundation accept it)")

    # GNUstep typed values
    bad("typed-integer-too-large.gnustep", o("<*I99999999999999999999>\n"), ["malformed", "unsupported"],
        "<*I99999999999999999999>: beyond 64 bits")
    bad("typed-integer-too-small.gnustep", o("<*I-9223372036854775809>\n"), ["malformed", "unsupported"],
        "<*I-9223372036854775809>: Int64.min - 1")
    bad("typed-integer-not-a-number.gnustep", o("<*Iabc>\n"), ["malformed"], "<*Iabc>")
    bad("typed-integer-empty.gnustep", o("<*I>\n"), ["malformed"], "<*I>")
    bad("typed-real-empty.gnustep", o("<*R>\n"), ["malformed"], "<*R>")
    bad("typed-real-word.gnustep", o("{ a = <*Rabc>; }\n"), ["malformed"], "<*Rabc>")
    bad("typed-bool-bad.gnustep", o("<*Bx>\n"), ["malformed"], "<*Bx>: neither Y nor N")
    bad("typed-date-feb-30.gnustep", o("<*D2011-02-30 00:00:00 +0000>\n"), ["malformed"],
        "<*D2011-02-30 00:00:00 +0000>: February 30")
    bad("typed-date-month-13.gnustep", o("( <*D2011-13-01 00:00:00 +0000> )\n"), ["malformed"],
        "<*D2011-13-01 ...>: month 13")
    bad("typed-date-garbage.gnustep", o("<*Dyesterday>\n"), ["malformed"], "<*Dyesterday>")
    bad("typed-date-bad-zone.gnustep", o("<*D2011-01-01 00:00:00 +0099>\n"), ["malformed"],
        "<*D... +0099>: zone minutes 99")
    bad("typed-unknown-type.gnustep", o("<*Q1>\n"), ["unsupported"], "<*Q1>: unknown type letter Q")
    bad("typed-unterminated.gnustep", o("<*I42"), ["truncated"], "<*I42 with no '>'")
    bad("typed-no-type-letter.gnustep", o("<*"), ["truncated"], "<* and then end of file")
    bad("base64-data-bad.gnustep", o("<[@@@@]>\n"), ["malformed"], "<[@@@@]>: not base64")
    bad("base64-data-unterminated.gnustep", o("<[D713eA=="), ["truncated"], "<[D713eA== with no ]>")

    # .strings files
    bad("strings-missing-final-pair-value.strings", o("a = b; c"), ["truncated"],
        "a = b; c: the key c is followed by the end of the file")
    bad("strings-missing-value.strings", o("a = ;\n"), ["malformed"], "a = ;")
    bad("strings-missing-semicolon.strings", o('"a" = "b"\n"c" = "d";\n'), ["malformed"],
        'no ";" after the first pair')
    bad("strings-missing-semicolon-at-eof.strings", o('"a" = "b";\n"c" = "d"'), ["truncated"],
        'the last pair has no ";" before the end of the file')
    bad("strings-string-unterminated.strings", o('"a" = "b;\n'), ["truncated"],
        "a .strings value with no closing quote")
    good("strings-key-is-array.strings", o('"a" = "b";\n(c) = "d";\n'),
         "a strings file whose key is an array: CoreFoundation keeps the entries before it (with a warning)")


# ==================================================================== write


def write_all():
    for d in (HOSTILE, HOSTILE_OK):
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
    manifest = {}
    for name in sorted(hostile):
        data, kinds, why = hostile[name]
        assert len(data) < MAX_FILE_BYTES, (name, len(data))
        with open(os.path.join(HOSTILE, name), "wb") as f:
            f.write(data)
        manifest[name] = {"kinds": kinds, "why": why}
    with open(os.path.join(HOSTILE, "MANIFEST.json"), "w", encoding="utf-8") as f:
        json.dump({"files": manifest}, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    manifest = {}
    for name in sorted(hostile_ok):
        data, why = hostile_ok[name]
        assert len(data) < MAX_FILE_BYTES, (name, len(data))
        with open(os.path.join(HOSTILE_OK, name), "wb") as f:
            f.write(data)
        manifest[name] = {"why": why}
    with open(os.path.join(HOSTILE_OK, "MANIFEST.json"), "w", encoding="utf-8") as f:
        json.dump({"files": manifest}, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")


def main():
    binary_cases()
    xml_cases()
    openstep_cases()
    write_all()
    print("hostile: %d files, hostile-ok: %d files" % (len(hostile), len(hostile_ok)))


if __name__ == "__main__":
    sys.exit(main())
