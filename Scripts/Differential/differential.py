#!/usr/bin/env python3
"""The differential of Scripts/differential.sh: runs prefs (plist-probe, as each dialect reads a
legacy file) and each reference reader over the inputs generate.py made, has the references
read back what prefs writes (round trips), and classifies every input against the dialect's
own reader (CoreFoundation for apple and corelibs, GNUstep Base for gnustep):

    agree                              the same value, or both refuse the file
                                       (also for "tools": `plist-probe --lenient`, what lint,
                                       convert and read read with, against CoreFoundation)
    prefs-accepts-reference-rejects    allowed only as a row of rows.py (Docs/compatibility.md's table)
    prefs-rejects-reference-accepts    likewise
    values-differ                      never allowed

plistlib and plistutil are compared too, for information. Exit status 1 when a value differs,
a round trip loses a value, or an accept/refuse difference is no row.

    differential.py WORK --bin DIR [--jobs N] [--memory BYTES]
"""
import argparse, collections, concurrent.futures, json, os, select, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rows as ROWS  # noqa: E402


PREFS_KEYS = ("apple", "apple-bin", "corelibs", "tools", "gnustep-prefs", "gnustep-xml",
              "gnustep-bin")


def run_batch(name, command, paths, memory, timeout=10):
    """Runs `command` over `paths` (one a line on its standard input), restarting after a
    crash or a hang: one answer a path, `CRASH …` or `HANG` for the input it died on."""
    answers = []
    start = 0
    began = time.time()
    crashes = 0
    limit = ["prlimit", "--as=%d" % memory, "--"] if memory else []
    while start < len(paths):
        chunk = paths[start:]
        # The paths from a file: a pipe both ways would block once both buffers are full.
        with tempfile.TemporaryFile() as listing:
            listing.write(("\n".join(chunk) + "\n").encode())
            listing.seek(0)
            proc = subprocess.Popen(limit + command, stdin=listing, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL)
        got = 0
        buffer = b""
        hung = False
        while got < len(chunk):
            ready, _, _ = select.select([proc.stdout], [], [], timeout)
            if not ready:
                hung = True
                break
            block = os.read(proc.stdout.fileno(), 1 << 16)
            if not block:
                break
            buffer += block
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                answers.append(line.decode("utf-8", "replace"))
                got += 1
        if hung:
            proc.kill()
        rc = proc.wait()
        start += got
        if start < len(paths):
            answers.append("HANG" if hung else "CRASH status %d" % rc)
            start += 1
            crashes += 1
    print("  %-22s %d answers, %d crashed or hung, %.0f s" % (
        name, len(answers), crashes, time.time() - began), file=sys.stderr)
    return answers


def parse(answer):
    """(accepted, value, warnings, rest)."""
    if answer.startswith("OK "):
        parts = answer[3:].split("\t")
        return True, parts[0], parts[1] if len(parts) > 1 else "", parts[2:]
    return False, None, answer, []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("work")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--memory", type=int, default=2 << 30)
    ap.add_argument("--report", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-plistutil", action="store_true")
    ap.add_argument("--reuse-references", action="store_true",
                    help="run prefs again, the references' answers from the last run")
    ap.add_argument("--reuse", action="store_true",
                    help="classify the answers of the last run again (after editing rows.py)")
    args = ap.parse_args()
    # Every row that allows a difference is a row of Docs/compatibility.md's table, saying why.
    compatibility = open(os.path.join(HERE, "..", "..", "Docs", "compatibility.md")).read()
    missing = [row.id for row in ROWS.ROWS if "[differential: %s]" % row.id not in compatibility]
    if missing:
        sys.exit("rows.py rows not in Docs/compatibility.md's table: " + ", ".join(missing))
    manifest = [line.rstrip("\n").split("\t") for line in open(os.path.join(args.work, "manifest.tsv"))]
    paths = [m[3] for m in manifest]
    kinds = [m[1] for m in manifest]
    b = args.bin
    t0 = time.time()
    print("reading %d inputs" % len(paths), file=sys.stderr)
    trips = os.path.join(args.work, "trips")
    for f in ("xml", "binary", "gnustep", "gnustep-xml", "gnustep-bin"):
        os.makedirs(os.path.join(trips, f), exist_ok=True)
    probe = os.path.join(b, "plist-probe")
    jobs = {
        "cf": ("CoreFoundation", [os.path.join(b, "cf-driver")]),
        "gnustep": ("GNUstep", [os.path.join(b, "gnustep-driver")]),
        "plistlib": ("plistlib", [sys.executable, os.path.join(HERE, "plistlib_driver.py")]),
        "plistutil": ("plistutil", [sys.executable, os.path.join(HERE, "plistlib_driver.py"),
                                    "--plistutil"]),
        "apple": ("prefs apple", [probe, "--dialect", "apple", "--write", "xml",
                                  os.path.join(trips, "xml")]),
        "apple-bin": ("prefs apple (binary)", [probe, "--dialect", "apple", "--write", "binary",
                                               os.path.join(trips, "binary")]),
        "corelibs": ("prefs corelibs", [probe, "--dialect", "corelibs"]),
        "tools": ("prefs tools", [probe, "--lenient"]),
        "gnustep-prefs": ("prefs gnustep", [probe, "--dialect", "gnustep", "--write", "gnustep",
                                            os.path.join(trips, "gnustep")]),
        "gnustep-xml": ("prefs gnustep (XML)", [probe, "--dialect", "gnustep", "--write", "xml",
                                                os.path.join(trips, "gnustep-xml")]),
        "gnustep-bin": ("prefs gnustep (binary)", [probe, "--dialect", "gnustep", "--write",
                                                   "binary", os.path.join(trips, "gnustep-bin")]),
    }
    if args.no_plistutil:
        del jobs["plistutil"]
    saved = os.path.join(args.work, "answers.json")
    if args.reuse:
        with open(saved) as f:
            out, back_saved = json.load(f)
    elif args.reuse_references:
        # prefs changed, the references did not: their answers of the last run, prefs' anew.
        with open(saved) as f:
            out = json.load(f)[0]
        prefs_jobs = {k: v for k, v in jobs.items() if k in PREFS_KEYS}
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = {key: pool.submit(run_batch, name, command, paths, args.memory)
                       for key, (name, command) in prefs_jobs.items()}
            out.update({key: f.result() for key, f in futures.items()})
    else:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = {key: pool.submit(run_batch, name, command, paths, args.memory)
                       for key, (name, command) in jobs.items()}
            out = {key: f.result() for key, f in futures.items()}
    if "plistutil" not in out:
        out["plistutil"] = ["ERR not run"] * len(paths)

    # Round trips: what prefs wrote, read back by the dialect's reader.
    written = []  # (input index, format, path, expected value, reader)
    for key, fmt, reader in (("apple", "xml", "cf"), ("apple-bin", "binary", "cf"),
                             ("gnustep-xml", "xml", "gnustep"), ("gnustep-bin", "binary", "gnustep"),
                             ("gnustep-prefs", "gnustep", "gnustep")):
        for n, answer in enumerate(out[key]):
            ok, value, _, rest = parse(answer)
            if ok and rest and rest[0].startswith("W "):
                written.append((n, fmt, rest[0][2:], value, reader))
    back = {}
    for reader in ("cf", "gnustep"):
        todo = [w for w in written if w[4] == reader]
        driver = "cf-driver" if reader == "cf" else "gnustep-driver"
        if args.reuse:
            answers = back_saved[reader]
        else:
            answers = run_batch("round trip " + reader, [os.path.join(b, driver)],
                                [w[2] for w in todo], args.memory, timeout=120)
        for w, a in zip(todo, answers):
            back[(w[0], w[1], reader)] = (w, a)
    if not args.reuse:
        with open(saved, "w") as f:
            json.dump([out, {r: [a for (w, a) in (back[k] for k in back if k[2] == r)]
                             for r in ("cf", "gnustep")}], f)

    # Classification.
    classes = collections.Counter()
    per_row = collections.Counter()
    unexplained = []
    value_differs = []
    informational = collections.Counter()
    for n, path in enumerate(paths):
        with open(path, "rb") as f:
            data = f.read()
        gnustep_ok = parse(out["gnustep"][n])[0]
        for dialect, prefs_key, ref_key in (("apple", "apple", "cf"), ("corelibs", "corelibs", "cf"),
                                            ("tools", "tools", "cf"),
                                            ("gnustep", "gnustep-prefs", "gnustep")):
            p_ok, p_val, p_warn, _ = parse(out[prefs_key][n])
            r_ok, r_val, r_err, _ = parse(out[ref_key][n])
            if p_ok and r_ok and p_val == r_val:
                cls = "agree"
            elif not p_ok and not r_ok:
                cls = "agree"
            elif p_ok and r_ok:
                cls = "values-differ"
            elif p_ok:
                cls = "prefs-accepts-reference-rejects"
            else:
                cls = "prefs-rejects-reference-accepts"
            case = ROWS.Case(data=data, kind=kinds[n], dialect=dialect, prefs=out[prefs_key][n],
                             reference=out[ref_key][n], prefs_ok=p_ok, reference_ok=r_ok,
                             gnustep_ok=gnustep_ok)
            if cls != "agree":
                row = ROWS.explain(cls, case)
                if row is None:
                    (value_differs if cls == "values-differ" else unexplained).append(
                        (n, path, kinds[n], dialect, cls, out[prefs_key][n], out[ref_key][n]))
                    cls += " (no row)"
                else:
                    per_row[(dialect, cls, row)] += 1
            classes[(dialect, cls)] += 1
        for ref in ("plistlib", "plistutil"):
            p_ok, p_val, _, _ = parse(out["apple"][n])
            r_ok, r_val, _, _ = parse(out[ref][n])
            informational[(ref, "agree" if (p_ok == r_ok and (not p_ok or p_val == r_val)) else
                           "differs")] += 1

    losses = []
    trip_counts = collections.Counter()
    for (n, fmt, reader), (w, answer) in back.items():
        ok, value, _, _ = parse(answer)
        if ok and value == w[3]:
            trip_counts[(fmt, reader, "same value")] += 1
        elif not ok:
            trip_counts[(fmt, reader, "refused by the reader")] += 1
            if reader == "cf":
                losses.append((n, paths[n], fmt, reader, w[3], answer))
        elif ROWS.round_trip_allowed((n, paths[n], fmt, reader, w[3], answer)):
            trip_counts[(fmt, reader, "a value GNUstep cannot hold")] += 1
        else:
            trip_counts[(fmt, reader, "value lost")] += 1
            losses.append((n, paths[n], fmt, reader, w[3], answer))
    # GNUstep refusing what prefs wrote is no loss of a value (it cannot read every binary or
    # XML value CoreFoundation can); a value it reads differently is.
    losses = [l for l in losses if not (l[3] == "gnustep" and l[5].startswith(("ERR", "CRASH")))]
    losses = [l for l in losses if not ROWS.round_trip_allowed(l)]

    report = []
    report.append("%d inputs, %.0f s" % (len(paths), time.time() - t0))
    report.append("kinds: " + ", ".join("%s %d" % kv for kv in sorted(collections.Counter(kinds).items())))
    for (dialect, cls), count in sorted(classes.items()):
        report.append("%-9s %-44s %6d" % (dialect, cls, count))
    report.append("rows (every accept/refuse difference, by the row of Docs/compatibility.md that allows it):")
    for (dialect, cls, row), count in sorted(per_row.items()):
        report.append("  %-9s %-34s %-40s %6d" % (dialect, cls, row, count))
    report.append("round trips (prefs writes, the reader reads back):")
    for key, count in sorted(trip_counts.items()):
        report.append("  %-8s %-8s %-24s %6d" % (key + (count,)))
    report.append("round trips that lose a value: %d" % len(losses))
    report.append("for information, prefs (apple) against: " + ", ".join(
        "%s %s %d" % (k[0], k[1], v) for k, v in sorted(informational.items())))
    report.append("values differing from the dialect's reader: %d" % len(value_differs))
    report.append("accept/refuse differences with no row: %d" % len(unexplained))
    text = "\n".join(report)
    print(text)
    details = {"unexplained": unexplained, "values_differ": value_differs, "losses": losses}
    with open(args.report or os.path.join(args.work, "report.json"), "w") as f:
        json.dump({"summary": report, **details}, f, indent=1)
    for title, items in (("values differ", value_differs), ("no row", unexplained),
                         ("round trip lost", losses)):
        for item in items[:15]:
            print("%s: %s" % (title, "\n    ".join(str(x) for x in item)), file=sys.stderr)
    sys.exit(1 if value_differs or unexplained or losses else 0)


if __name__ == "__main__":
    main()
