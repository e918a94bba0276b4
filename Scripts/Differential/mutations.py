"""The mutations and tricks of generate.py: byte flips, truncations, splices, duplicate keys,
deep nesting, entities, encodings; issue 46's structure-aware binary changes, XML declarations
of other encodings, DOCTYPEs, OpenStep escapes; and the hand-written XML and text tricks."""


def flip(r, data):
    b = bytearray(data)
    for _ in range(r.randrange(1, 4)):
        if b:
            k = r.randrange(len(b))
            b[k] = r.choice([b[k] ^ (1 << r.randrange(8)), r.randrange(256), 0, 0xFF, 0x80])
    return bytes(b)


def truncate(r, data):
    if len(data) < 2:
        return data
    return data[:r.randrange(1, len(data))]


def splice(r, a, b):
    return a[:r.randrange(len(a) + 1)] + b[r.randrange(len(b) + 1):]


def duplicate_key(r, data):
    text = data
    for open_, close in ((b"<key>", b"</key>"),):
        k = text.find(open_)
        if k >= 0:
            end = text.find(close, k)
            v_end = text.find(b"\n", end)
            if end > 0 and v_end > 0:
                entry = text[k:v_end]
                return text[:k] + entry + b"\n" + text[k:]
    k = text.find(b"{")
    if k >= 0:
        return text[:k + 1] + b" a = 1; a = \"2\"; " + text[k + 1:]
    return text


def deep(r):
    n = r.choice([100, 511, 512, 513, 600, 2000, 10000])
    form = r.choice(["openstep", "xml", "xml-dict"])
    if form == "openstep":
        return b"(" * n + b")" * n
    if form == "xml":
        return (b'<?xml version="1.0"?><plist>' + b"<array>" * n + b"</array>" * n + b"</plist>")
    return (b'<?xml version="1.0"?><plist>' + b"<dict><key>k</key>" * n + b"<true/>"
            + b"</dict>" * n + b"</plist>")


def entities(r):
    form = r.choice(["internal", "laughs", "external", "unclosed", "param", "use"])
    head = b'<?xml version="1.0" encoding="UTF-8"?>\n'
    if form == "internal":
        dt = b'<!DOCTYPE plist [ <!ENTITY e "value"> ]>\n'
        body = b"<plist><string>x</string></plist>"
    elif form == "use":
        dt = b'<!DOCTYPE plist [ <!ENTITY e "value"> ]>\n'
        body = b"<plist><string>&e;</string></plist>"
    elif form == "laughs":
        dt = b'<!DOCTYPE plist [ <!ENTITY a "aaaaaaaaaa">'
        for k in range(1, 9):
            dt += b'<!ENTITY %s "%s">' % (bytes([97 + k]), (b"&" + bytes([96 + k]) + b";") * 10)
        dt += b"]>\n"
        body = b"<plist><string>&i;</string></plist>"
    elif form == "external":
        dt = b'<!DOCTYPE plist SYSTEM "file:///etc/passwd">\n'
        body = b"<plist><string>x</string></plist>"
    elif form == "param":
        dt = b'<!DOCTYPE plist [ <!ENTITY % p "x"> %p; ]>\n'
        body = b"<plist><true/></plist>"
    else:
        dt = b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "x"\n'
        body = b"<plist><true/></plist>"
    return head + dt + body


def encoding(r, data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return flip(r, data)
    form = r.choice(["utf-16-le", "utf-16-be", "utf-16-bom", "utf-32-bom", "latin-1", "bom8",
                     "bad-utf8", "cesu", "nul"])
    if form == "utf-16-le":
        return text.encode("utf-16-le")
    if form == "utf-16-be":
        return text.encode("utf-16-be")
    if form == "utf-16-bom":
        return text.encode("utf-16")
    if form == "utf-32-bom":
        return text.encode("utf-32")
    if form == "latin-1":
        return text.encode("latin-1", "replace")
    if form == "bom8":
        return b"\xef\xbb\xbf" + data
    if form == "bad-utf8":
        k = r.randrange(len(data) + 1)
        return data[:k] + r.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\x80"]) + data[k:]
    if form == "cesu":
        return data.replace("😀".encode(), b"\xed\xa0\xbd\xed\xb8\x80")
    k = r.randrange(len(data) + 1)
    return data[:k] + b"\x00" + data[k:]


def binary_structure(r, data):
    """A structure-aware change of a binary file: one object's marker, count, width or kind
    changed, a reference or an offset pointed elsewhere, a 16-byte integer put in."""
    if not data.startswith(b"bplist00") or len(data) < 42:
        return flip(r, data)
    b = bytearray(data)
    offsize, refsize = b[-26], b[-25]
    count, top, table = (int.from_bytes(b[-24:-16], "big"), int.from_bytes(b[-16:-8], "big"),
                         int.from_bytes(b[-8:], "big"))
    if not (1 <= offsize <= 8 and 1 <= refsize <= 8 and 0 < count < 10**6
            and table + count * offsize <= len(b) - 32):
        return flip(r, data)

    def offset(k):
        return int.from_bytes(b[table + k * offsize:table + (k + 1) * offsize], "big")

    k = r.randrange(count)
    at = offset(k)
    if at >= table:
        return flip(r, data)
    marker = b[at]
    form = r.choice(["set", "null", "count", "kind", "int16", "ref", "offset", "ascii-high"])
    if form == "set" and marker >> 4 == 0xA:
        b[at] = 0xC0 | (marker & 0x0F)
    elif form == "null":
        b[at] = 0x00
    elif form == "count" and marker >> 4 in (0x4, 0x5, 0x6, 0xA, 0xD) and marker & 0x0F < 0x0F:
        b[at] = (marker & 0xF0) | ((marker & 0x0F) + r.choice([-1, 1])) % 15
    elif form == "kind":
        b[at] = (r.choice([0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x8, 0xA, 0xC, 0xD]) << 4) | (marker & 0x0F)
    elif form == "int16":
        value = r.choice([-2, -1, 2**64 + 5, 2**63, 2**127, 7]) % (1 << 128)
        return bytes(b[:at]) + b"\x14" + value.to_bytes(16, "big") + bytes(b[at + 1:])
    elif form == "ref" and marker >> 4 in (0xA, 0xD) and marker & 0x0F:
        ref_at = at + 1 + r.randrange(marker & 0x0F) * refsize
        b[ref_at:ref_at + refsize] = r.randrange(count + 2).to_bytes(refsize, "big")[-refsize:]
    elif form == "offset":
        j = r.randrange(count)
        b[table + k * offsize:table + (k + 1) * offsize] = b[table + j * offsize:table + (j + 1) * offsize]
    elif form == "ascii-high" and marker >> 4 == 0x5 and marker & 0x0F:
        b[at + 1] |= 0x80
    else:
        return flip(r, data)
    return bytes(b)


XML_ENCODINGS = ["windows-1252", "WINDOWS-1252", "cp1252", "US-ASCII", "ascii", "ISO-8859-1",
                 "latin1", "iso-8859-2", "macintosh", "utf-16", "UTF-8", "x-unknown"]


def xml_encoding(r):
    """An XML declaration naming an encoding, over text in it (or in another)."""
    name = r.choice(XML_ENCODINGS)
    text = r.choice(["é", "€", "Ÿ", "é€", "ab", "ß日", "\u0080", "\u0081"])
    raw = r.choice(["declared", "utf-8", "latin-1"])
    codec = {"declared": {"windows-1252": "cp1252", "WINDOWS-1252": "cp1252", "cp1252": "cp1252",
                          "US-ASCII": "latin-1", "ascii": "latin-1", "ISO-8859-1": "latin-1",
                          "latin1": "latin-1", "iso-8859-2": "iso-8859-2",
                          "macintosh": "mac-roman"}.get(name, "utf-8"),
             "utf-8": "utf-8", "latin-1": "latin-1"}[raw]
    body = text.encode(codec, "replace")
    if r.random() < 0.3:
        body += bytes([r.choice([0x81, 0x8D, 0x8F, 0x90, 0x9D, 0x80, 0x9F, 0xFF])])
    head = b'<?xml version="1.0" encoding="' + name.encode() + b'"?>\n'
    return head + b"<plist><array><string>" + body + b"</string><key>" + body + \
        b"</key></array></plist>"


def doctype(r):
    """What CoreFoundation's prolog and end of document take: DOCTYPEs (two, quoted '>',
    ended by the first '>'), comments and processing instructions between them, content after
    </plist>, a <key> where a value stands, white space in an <integer>."""
    prolog = r.choice([
        b'<!DOCTYPE plist "x>', b"<!DOCTYPE plist><!DOCTYPE plist>",
        b"<!DOCTYPE plist><!-- c --><!DOCTYPE plist><?x y?>", b"<!DOCTYPE plist 'a>b'>",
        b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "x">', b"",
        b"<!DOCTYPE plist [ <!ENTITY e 'v'> ]>", b"<!-- a --><?pi?>",
    ])
    decl = b'<?xml version="1.0" encoding="UTF-8"?>\n' if r.random() < 0.7 else b""
    body = r.choice([
        b"<true/>", b"<dict><key>k</key><key>v</key></dict>", b"<array><key>k</key></array>",
        b"<key>k</key>", b"<integer>- 5</integer>", b"<integer>+ 5</integer>",
        b"<integer> -\t5</integer>", b"<integer> +0x10</integer>", b"<integer>-5 </integer>",
        b"<integer>--5</integer>", b"<integer>- 9223372036854775808</integer>",
        b"<dict><key>a</key><integer>\n- 7</integer></dict>", b"<true> </true>",
        b"<real> 1.5</real>", b"<real>- 1.5</real>",
    ])
    tail = r.choice([b"", b"", b"junk", b"<string>b</string>", b"<plist><true/></plist>",
                     b"\n<!-- c -->", b"</plist>"])
    wrapped = r.random() < 0.8
    doc = decl + prolog + (b"<plist>" + body + b"</plist>" if wrapped else body) + tail
    return doc


def openstep_escapes(r):
    """OpenStep strings of escapes: \\U and \\u of every width, octal, C escapes, marks."""
    pieces = [r"\U00e9", r"\u00e9", r"\UFEFF", r"\UFFFE", r"\Ufeff", r"\U", r"\u", r"\U12",
              r"\351", r"\101", r"\0", r"\12", r"\a", r"\b", r"\f", r"\v", r"\t", r"\n",
              r"\\", r"\"", r"\x", "a", " ", "\ufeff", "\ufffe", "é", r"\UD83D\UDE00", r"\UD800"]
    def one():
        return '"' + "".join(r.choice(pieces) for _ in range(r.randrange(0, 5))) + '"'
    if r.random() < 0.5:
        return ("(" + ", ".join(one() for _ in range(r.randrange(1, 4))) + ")").encode()
    return ("{" + "".join("%s = %s; " % (one(), one()) for _ in range(r.randrange(1, 3)))
            + "}").encode()


TEXT_TRICKS = [
    b'("\\u00e9", "\\U00E9", "\\u12", "\\uzz", "\\u", "\\U")',
    b'{ "Languages" = ("\\u0046ran\\u00e7ais", English); }',
    b'"a" = "1";\n* = "2";\n"c" = "3";\n',
    b'"a" = "1";\nkey;\n"c" = "3";\n',
    b'"a" = "1";\n"b" = "2"; }',
    b'( "\\351", "\\12", "\\0", "\\1x" )',
    b'{ a = "\\U00e9\\U0301"; }',
    b'"unterminated',
    b'{ a = 1; } junk',
    b'<*I5>',
    b'{ a = <*I5>; b = <*R-0>; c = <*BY>; d = <*D2001-01-01 00:00:00 +0000>; e = <[AA==]>; }',
    b"('single', \"double\")",
    b'{ "CF$UID" = 5; }',
    b'{a = b}',
    b'(a+b, c@d)',
]

XML_TRICKS = [
    b"<data>AA</data>", b"<data>AAA=</data>", b"<data>QQ==QQ==</data>", b"<data> QUJD RA== </data>",
    b"<data>A!A*AA</data>", b"<data>AA&amp;AA</data>", b"<data><!-- c -->AAAA</data>",
    b"<date>2001-02-29T00:00:00Z</date>", b"<date>2001-02-01T24:00:00Z</date>",
    b"<date>2001-13-01T00:00:00Z</date>", b"<date>2001-00-00T00:00:00Z</date>",
    b"<date>2001-01-01T00:00:60Z</date>", b"<date>2011-03-14T15:09:26.5Z</date>",
    b"<date> 2011-03-14T15:09:26Z</date>", b"<date>2011-03-14 15:09:26 +0000</date>",
    b"<date>-0001-01-01T00:00:00Z</date>", b"<date>12345-01-01T00:00:00Z</date>",
    b"<dict><key>CF$UID</key><integer>4294967296</integer></dict>",
    b"<dict><key>CF$UID</key><integer>-1</integer></dict>",
    b"<dict><key>CF$UID</key><integer>1</integer><key>CF$UID</key><integer>2</integer></dict>",
    b"<dict><key>CF$UID</key><real>1.5</real></dict>",
    b"<dict><key>CF$UID</key><real>1e20</real></dict>",
    b"<dict><key>CF$UID</key><true/></dict>",
    b"<dict><key>CF$UID</key><integer>18446744073709551615</integer></dict>",
    b"<array><real>-0.0</real><real>-0</real><real>0</real></array>",
    b"<integer> 12 </integer>", b"<integer>0x10</integer>", b"<integer>+5</integer>",
    b"<integer>99999999999999999999</integer>", b"<real>1e400</real>", b"<real>.5</real>",
    b"<string><![CDATA[x]]></string>", b"<string>&#xD800;</string>", b"<string>a&#0;b</string>",
    b"<key>k</key>", b"<dict><key>k</key></dict>", b"<true/><true/>",
    b"<string>x</string> junk", b"<true>x</true>", b"<plist><true/></plist>",
]


def xml_doc(body, decl=True, doctype=True):
    out = b""
    if decl:
        out += b'<?xml version="1.0" encoding="UTF-8"?>\n'
    if doctype:
        out += (b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
                b'"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n')
    return out + b'<plist version="1.0">\n' + body + b"\n</plist>\n"
