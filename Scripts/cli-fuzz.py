#!/usr/bin/env python3
"""The command-line fuzzer (issue 50): every verb and personality of prefs, given hostile path
spellings and hostile stored values read by every getter in every dialect, with and without
HOME, on the binary users install (Scripts/build-release.sh prints its path).

    Scripts/cli-fuzz.py [--binary PREFS] [--count N | --smoke] [--seed S] [--jobs J]

It fails (exit 1, the command lines that failed, with how) on any signal, any hang (a command
still running after --timeout seconds) and any exit status outside the documented ones
(Docs/commands.md, "Exit codes": 0 1 64 65 66 73 74 75; the defaults and plutil personalities
exit 0 or 1 as those commands do, and prefs' 64, 65, 66 and 73 where Docs/compatibility.md
says so). --smoke (.ci/run) runs 300 command lines; the default
is every combination, at least 5,000 (the long run, Docs/testing.md has its last counts).

Everything happens in a temporary folder (the current folder of each command, its HOME and
XDG_CONFIG_HOME): the machine's files are never written. Run as root, every command that
writes runs as `nobody` (setpriv): a path spelt to climb out (`~nobody/../..`) reaches only
what nobody may write, which is nothing outside the folder; root runs the reading ones (its
own `~root`, and without HOME its home from /etc/passwd). Run as another user, the writing
commands get only spellings that stay inside the folder, and "without HOME" is HOME pointing
at a folder that does not exist.
"""

import argparse
import os
import plistlib
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

NATIVE_CODES = {0, 1, 64, 65, 66, 73, 74, 75}
PERSONALITY_CODES = {0, 1, 64, 65, 66, 73, 74, 75}
GETTERS = ["bool", "integer", "double", "float", "string", "string-array", "array",
           "dictionary", "data", "date", "url", "object"]
DIALECTS = ["apple", "gnustep", "corelibs"]


def hostile_spellings():
    """Path spellings (bytes): the tilde forms, climbing, long, not UTF-8, options, empty."""
    known = b"nobody"
    names = [
        b"~", b"~/", b"~/x.plist", b"~/missing/x.plist", b"~" + known, b"~" + known + b"/",
        b"~" + known + b"/x.plist", b"~" + known + b"/../..", b"~" + known + b"/../../x.plist",
        b"~root", b"~root/x.plist", b"~root/../..", b"~nosuchuser", b"~nosuchuser/",
        b"~nosuchuser/x.plist", b"~nosuchuser_v2/a/b.plist", b"~nosuchuser/../x.plist",
        b"~0/x.plist", b"~-x/y.plist", b"~ x/y.plist", b"~:x/y", b"~\xcc\x81x/y.plist",
        b"~\xff\xfe/x.plist", b"\xff\xfe.plist", b"./\xc3(.plist", b"~~/x", b"~./x", b"~..",
        b"-", b"-x.plist", b"--", b"--help", b"-o", b"", b" ", b"./", b".", b"..", b"/",
        b"x" * 300 + b".plist", b"a/" * 2100 + b"x.plist", b"~" + b"u" * 5000 + b"/x.plist",
        b"~" + b"u" * 255, b"v.plist", b"./v.plist", b"com.example.fuzz", b"~/.config/x.plist",
    ]
    return names


def stays_inside(spelling):
    """Whether a spelling can only name a file of the work folder, its HOME or nothing that
    can be written (for the writing commands of a run that is not root's)."""
    if b".." in spelling or spelling.startswith(b"/") or spelling.startswith(b"~root"):
        return False
    return not spelling.startswith(b"~nobody")


def hostile_values():
    """Stored values for the getters: tilde strings, numbers, dates, data, containers."""
    import datetime
    strings = ["~", "~/", "~/x", "~nosuchuser", "~nosuchuser/x", "~nosuchuser_v2/x", "~root/x",
               "~root/../..", "~nobody/x", "~\u0301x/y", "~" + "u" * 5000 + "/x", "~-x", "~ x",
               "~:x", "~\n", "~0/x", "~/../..", "", "-", "file:///x", "https://example.com/~x",
               "YES", "1e999", "-0", "\u0000", "x" * 70000]
    values = {"s%d" % i: s for i, s in enumerate(strings)}
    values.update({
        "int": 2**63 - 1, "neg": -2**63, "real": 1.5e308, "bool": True,
        "date": datetime.datetime(2001, 1, 1), "data": b"~nosuchuser/x", "empty": b"",
        "array": ["~nosuchuser/x", 1], "dict": {"~nosuchuser": "~nosuchuser/x"},
        "archive": keyed_archive_url("~nosuchuser/x", "file:///"),
        "archive2": keyed_archive_url("~nosuchuser/x", None),
        "archive3": keyed_archive_url("~/x", "~nosuchuser/"),
    })
    return values


def keyed_archive_url(relative, base):
    """An NSKeyedArchiver archive of an NSURL, as Apple's set(URL) writes one."""
    objects = ["$null", {"$class": plistlib.UID(3), "NS.base": plistlib.UID(0),
                         "NS.relative": plistlib.UID(2)}, relative,
               {"$classes": ["NSURL", "NSObject"], "$classname": "NSURL"}]
    if base is not None:
        objects[1]["NS.base"] = plistlib.UID(4)
        objects.append({"$class": plistlib.UID(3), "NS.base": plistlib.UID(0),
                        "NS.relative": plistlib.UID(5)})
        objects.append(base)
    archive = {"$archiver": "NSKeyedArchiver", "$version": 100000,
               "$top": {"root": plistlib.UID(1)}, "$objects": objects}
    return plistlib.dumps(archive, fmt=plistlib.FMT_BINARY)


def command_lines(work, plan):
    """Every (arguments, writes, personality) the fuzzer runs; arguments are bytes."""
    lines = []
    p = hostile_spellings()
    reading = [
        lambda f: [b"read", f], lambda f: [b"read", f, b"k"], lambda f: [b"read-type", f, b"k"],
        lambda f: [b"lint", f], lambda f: [b"convert", f, b"--to", b"json"],
        lambda f: [b"convert", f, b"--to", b"openstep"], lambda f: [b"diff", f, b"v.plist"],
        lambda f: [b"diff", b"v.plist", f], lambda f: [b"plan", b"infer", f],
        lambda f: [b"plan", b"check", plan, f],
        lambda f: [b"read", f, b"--key-path", b"a.b"], lambda f: [b"find", f],
        lambda f: [b"help", f], lambda f: [b"watch", f, b"--count", b"0"],
    ]
    writing = [
        lambda f: [b"write", f, b"k", b"-string", b"v"], lambda f: [b"delete", f, b"k"],
        lambda f: [b"rename", f, b"k", b"k2"], lambda f: [b"import", f, b"v.plist"],
        lambda f: [b"convert", b"v.plist", b"--to", b"xml", b"-o", f],
        lambda f: [b"migrate", b"--plan", plan, b"--to", f, b"v.plist"],
        lambda f: [b"migrate", b"--plan", plan, b"--dry-run", b"--in-place", f],
        lambda f: [b"export", b"--plan", plan, b"v.plist", b"--to", f],
        lambda f: [b"edit", f],
    ]
    defaults_reading = [
        lambda f: [b"read", f], lambda f: [b"read", f, b"k"], lambda f: [b"read-type", f, b"k"],
        lambda f: [b"export", f, b"-"], lambda f: [b"find", f],
    ]
    defaults_writing = [
        lambda f: [b"write", f, b"k", b"v"], lambda f: [b"write", f, b"k", b"-int", b"1"],
        lambda f: [b"delete", f, b"k"], lambda f: [b"rename", f, b"k", b"k2"],
        lambda f: [b"import", f, b"v.plist"],
    ]
    plutil_reading = [
        lambda f: [b"-lint", f], lambda f: [b"-p", f], lambda f: [b"-extract", b"k", b"raw", f],
        lambda f: [b"-type", b"k", f], lambda f: [b"-convert", b"json", b"-o", b"-", f],
    ]
    plutil_writing = [
        lambda f: [b"-convert", b"xml1", f], lambda f: [b"-insert", b"k", b"-string", b"v", f],
        lambda f: [b"-remove", b"k", f], lambda f: [b"-convert", b"binary1", b"v.plist", b"-o", f],
    ]
    for f in p:
        for make in reading:
            lines.append((make(f), False, "prefs"))
        # `plan scan` reads every source file under its folder: a spelling that names the root
        # or root's home is a long scan, not a hang.
        if b".." not in f and f != b"/" and not f.startswith(b"~root"):
            lines.append(([b"plan", b"scan", f], False, "prefs"))
        for make in writing:
            lines.append((make(f), True, "prefs"))
        for make in defaults_reading:
            lines.append(([b"defaults"] + make(f), False, "defaults"))
            lines.append(([b"@defaults"] + make(f), False, "defaults"))
        for make in defaults_writing:
            lines.append(([b"defaults"] + make(f), True, "defaults"))
        for make in plutil_reading:
            lines.append(([b"plutil"] + make(f), False, "plutil"))
            lines.append(([b"@plutil"] + make(f), False, "plutil"))
        for make in plutil_writing:
            lines.append(([b"plutil"] + make(f), True, "plutil"))
    for key in hostile_values():
        for getter in GETTERS:
            for dialect in DIALECTS:
                lines.append(([b"read", b"v.plist", key.encode(), b"--as", getter.encode(),
                               b"--dialect", dialect.encode()], False, "prefs"))
        lines.append(([b"read", b"v.plist", key.encode(), b"--typed"], False, "prefs"))
        lines.append(([b"defaults", b"read", b"v", key.encode()], False, "defaults"))
    for words in ([b"domains"], [b"--version"], [b"help"], [b"completion", b"bash"], [b"man"],
                  [b"defaults", b"domains"], [b"defaults", b"help"], [b"plutil", b"-help"]):
        lines.append((words, False, "prefs"))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.environ.get("PREFS_BINARY", ".build/release/prefs"))
    parser.add_argument("--count", type=int, default=0, help="command lines (0: all of them)")
    parser.add_argument("--smoke", action="store_true", help="300 command lines")
    parser.add_argument("--seed", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=20.0)
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.exit("cli-fuzz: no prefs at %s (Scripts/build-release.sh prints its path)" % binary)
    root = os.geteuid() == 0
    setpriv = shutil.which("setpriv")
    if root and not setpriv:
        sys.exit("cli-fuzz: as root, setpriv (util-linux) is needed to write as nobody")

    # Two folders deep: a spelling that climbs (`..`, `--to ..`) lands in the fuzzer's own.
    outer = tempfile.mkdtemp(prefix="prefs-cli-fuzz-")
    work = os.path.join(outer, "a", "work")
    os.makedirs(work)
    for folder in (outer, os.path.dirname(work), work):
        os.chmod(folder, 0o777)
    try:
        return run(args, binary, work, root, setpriv)
    finally:
        shutil.rmtree(outer, ignore_errors=True)


def run(args, binary, work, root, setpriv):
    home = os.path.join(work, "home")
    config = os.path.join(work, "config")
    bindir = os.path.join(work, "bin")
    for folder in (home, config, bindir, os.path.join(home, ".config")):
        os.makedirs(folder, exist_ok=True)
        os.chmod(folder, 0o777)
    for name in ("defaults", "plutil"):
        os.symlink(binary, os.path.join(bindir, name))
    plan = os.path.join(work, "plan.json")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    shutil.copy(os.path.join(repo, "Legacy/Samples/equizmo-plan.json"), plan)
    values = hostile_values()
    # Binary: it holds what XML cannot (a NUL in a string); data values are kept as data.
    fixture = plistlib.dumps(values, fmt=plistlib.FMT_BINARY)
    nobody_env_home = os.path.join(work, "no-such-home")

    lines = command_lines(work, plan.encode())
    # Each line with HOME (the work folder's), without it, and with a hostile HOME.
    variants = []
    for words, writes, personality in lines:
        for env in ("home", "nohome", "tildehome"):
            if env == "tildehome" and writes:
                continue
            variants.append((words, writes, personality, env))
    rng = random.Random(args.seed)
    rng.shuffle(variants)
    count = 300 if args.smoke else (args.count or len(variants))
    while len(variants) < count:
        variants += variants[: count - len(variants)]
    variants = variants[:count]

    def prepare():
        for name in ("v.plist", "w.plist"):
            path = os.path.join(work, name)
            with open(path, "wb") as f:
                f.write(fixture)
            os.chmod(path, 0o666)

    prepare()
    env_base = {"PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": config, "EDITOR": "true",
                "VISUAL": "true", "LC_ALL": "C"}

    def one(item):
        words, writes, personality, env = item
        if not root and writes and not all(stays_inside(w) for w in words):
            return ("skipped", item, None)
        environment = dict(env_base)
        if env == "home":
            environment["HOME"] = home
        elif env == "tildehome":
            environment["HOME"] = "~nosuchuser"
        elif not root:
            environment["HOME"] = nobody_env_home
        if words[0].startswith(b"@"):
            command = [os.path.join(bindir, words[0][1:].decode()).encode()] + words[1:]
        else:
            command = [binary.encode()] + words
        if root and writes:
            command = [setpriv.encode(), b"--reuid=nobody", b"--regid=nogroup",
                       b"--clear-groups", b"--"] + command
        try:
            done = subprocess.run(command, cwd=work, env=environment, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return ("hang", item, None)
        code = done.returncode
        if code < 0:
            return ("signal", item, -code)
        allowed = NATIVE_CODES if personality == "prefs" else PERSONALITY_CODES
        if code not in allowed:
            return ("code", item, code)
        return ("ok", item, code)

    start = time.monotonic()
    results = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for n, result in enumerate(pool.map(one, variants), 1):
            results.append(result)
            if n % 500 == 0:
                prepare()
    elapsed = time.monotonic() - start
    codes = {}
    failures = []
    for kind, item, detail in results:
        if kind == "ok":
            codes[detail] = codes.get(detail, 0) + 1
        elif kind != "skipped":
            failures.append((kind, item, detail))
    ran = sum(1 for r in results if r[0] != "skipped")
    signals = sum(1 for f in failures if f[0] == "signal")
    hangs = sum(1 for f in failures if f[0] == "hang")
    others = sum(1 for f in failures if f[0] == "code")
    print("cli-fuzz: %d command lines on %s in %.0f s: %d signals, %d hangs, %d undocumented "
          "exits; exits %s%s" % (
              ran, binary, elapsed, signals, hangs, others,
              " ".join("%d×%d" % (n, c) for c, n in sorted(codes.items())),
              "" if ran == len(results) else "; %d skipped (not root)" % (len(results) - ran)))
    for kind, (words, writes, personality, env), detail in failures[:30]:
        print("  %s %s (%s): prefs %s" % (kind, detail if detail is not None else "", env,
                                          " ".join(repr(w)[2:-1] for w in words)[:400]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
