#!/usr/bin/env python3
"""Root over a user's files, raced by that user: the attack of Scripts/symlink-race.sh.

Each scenario gives an unprivileged user (nobody) a preferences tree it owns and a swapper
process (swap.c) that exchanges, as fast as it can, one entry of that tree (the folder, the domain
file, its lock, GNUstep's `.lck`) with a symbolic link to what the user must never reach: a
root-owned folder, a root-only property list, another user's 0600 domain. Root runs one prefs
command per round over the user's domain while the swapper runs. After every round:

- nothing was created, changed or removed outside the user's tree (the root-owned folder and file,
  the other user's folder: names, owners, modes and bytes as they were);
- no byte of a file the user cannot read reached the user's tree (a marker string);
- a write prefs acknowledged (exit 0) is in the user's real domain file.

The cut-* scenarios have another attacker (cut.c): the user's domain is a large binary file
(100,000 keys, which prefs maps rather than reads) that the user cuts to one page and writes back
in place as fast as it can, while root reads it (read FILE KEY, lint, convert to XML). Every
round, prefs must end by itself (no signal: a page cut away while mapped is prefs' to contain),
answer exactly what the file holds when it exits 0 (python's plistlib reads the same file), and
otherwise refuse with a documented code (65 malformed: it read a cut file; 74: the file changed
while it was read).

The rewrite-* scenarios: the user rewrites its large domain in place between two versions of
the same size, its modification time put back (rewrite.py), while root reads it: every answer
must be one version whole, else 74. The lock-replace-* scenarios: the user keeps renaming a new
lock file it holds over the domain's lock (lock_replace.py): root's run must end busy at its
deadline every round, its main thread root's all the while.

Usage: race.py --prefs BIN --swap BIN --cut BIN [--rounds N] [--only NAME[,NAME…]] [--keep]
Exit status: 0 every round of every scenario held; 1 a round broke a rule (each one is printed).
"""

import argparse
import os
import plistlib
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

# The worlds and the attacker are a module beside this script (found from any working folder).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from race_world import (  # noqa: E402
    DOMAIN, NOBODY, OTHERS, PLAN, SECRET, USER_PYTHON, World, as_the_user, broken,
    large_users_domain, leaked, own, round_against)


def plan_values():
    """What the in-place migration must leave (python's own reading of the migrated file is
    compared with these keys only)."""
    return {"sound.enabled": True, "ranking.size": 12}


SCENARIOS = {}


def scenario(name, layout, swap, command, check):
    SCENARIOS[name] = (layout, swap, command, check)


def candidates(world):
    """The user's domain file: at its name, or, while the file is swapped, at the link's."""
    path = world.real(world.domain)
    paths = [path, os.path.join(os.path.dirname(path), ".evil")]
    return [p for p in paths if os.path.lexists(p) and stat.S_ISREG(os.lstat(p).st_mode)]


def holds(world, test):
    for path in candidates(world):
        with open(path, "rb") as f:
            data = f.read()
        try:
            if test(data):
                return True
        except Exception:
            continue
    return False


def migrated(world, result):
    return holds(world, lambda d: all(
        plistlib.loads(d).get(k) == v for k, v in plan_values().items()))


def written(world, result):
    return holds(world, lambda d: plistlib.loads(d).get("raced") == "yes")


def converted(world, result):
    return holds(world, lambda d: d.startswith(b"<?xml"))


def restore(entry, link, target):
    """The pair as the round began: the real entry at its name, the link at `link`."""
    def is_link(p):
        return os.path.lexists(p) and stat.S_ISLNK(os.lstat(p).st_mode)
    if is_link(entry) and os.path.lexists(link) and not is_link(link):
        parked = link + ".parked"
        os.rename(entry, parked)
        os.rename(link, entry)
        os.rename(parked, link)
    if not is_link(link):
        # prefs replaced the link by renaming a file over it: the link is made again.
        if os.path.isdir(link) and not os.path.islink(link):
            raise SystemExit("race.py: %s became a folder" % link)
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(target, link)
        os.lchown(link, *NOBODY)


migrate = ["migrate", "--plan", PLAN, "--in-place", "{domain}"]
write_path = ["write", "{domain}", "raced", "-string", "yes"]
write_name = ["write", DOMAIN, "raced", "-string", "yes"]
defaults_write = ["defaults", "write", DOMAIN, "raced", "-string", "yes"]
plutil_convert = ["plutil", "-convert", "xml1", "{domain}"]
gnustep_write = ["--layout", "gnustep", "write", DOMAIN, "raced", "-string", "yes"]

# The folder swapped for a link to a root-owned folder, or to another user's folder.
for verb, command, check in [
    ("migrate", migrate, migrated), ("write", write_path, written),
    ("write-name", write_name, written), ("defaults", defaults_write, written),
    ("plutil", plutil_convert, converted),
]:
    scenario("folder-to-root-" + verb, "xdg", ("{folder}", "victim"), command, check)
scenario("folder-to-other-migrate", "xdg", ("{folder}", "other"), migrate, migrated)
# The domain file swapped for a link to a root-only property list.
for verb, command, check in [
    ("migrate", migrate, migrated), ("write", write_path, written),
    ("plutil", plutil_convert, converted),
]:
    scenario("file-to-secret-" + verb, "xdg", ("{domain}", "secret"), command, check)
scenario("file-to-other-migrate", "xdg", ("{domain}", "other-domain"), migrate, migrated)
# The lock swapped for a link to a root-owned file.
scenario("lock-to-root-migrate", "xdg", ("{domain}.lock", "keep"), migrate, migrated)
scenario("lock-to-root-write", "xdg", ("{domain}.lock", "keep"), write_path, written)
# GNUstep's `.lck` and the GNUstep defaults folder swapped for links to a root-owned folder.
scenario("lck-to-root-gnustep", "gnustep", ("{folder}/.lck", "victim"), gnustep_write, written)
scenario("folder-to-root-gnustep", "gnustep", ("{folder}", "victim"), gnustep_write, written)


# The cut-* scenarios: command, and what its standard output must be when it exits 0.
BIG_KEY = "setting.50001"
CUTS = {
    "cut-read": (["read", "{domain}", BIG_KEY], lambda out, big: out == (big[BIG_KEY] + "\n").encode()),
    "cut-lint": (["lint", "{domain}"], lambda out, big: out.endswith(b": OK (binary)\n")),
    "cut-convert": (["convert", "{domain}", "--to", "xml"],
                    lambda out, big: plistlib.loads(out) == big),
}


def big_domain():
    """100,000 keys as python writes them in binary (3-byte references and offsets)."""
    return {"setting.%d" % i: ("value %d" % i if i % 2 else i) for i in range(100000)}


def rounds_against_owner(name, argv, env, attacker, rounds, judge, base, keep):
    """Root's `argv` run `rounds` times while the domain's owner attacks it; `judge(result)`
    says whether an exit 0 answered rightly (True, or problems) or is a refusal it accepts
    ("refused"). The first broken round ends the scenario: (failures, answered, refused,
    seconds)."""
    failures = []
    answered = refused = 0
    started = time.monotonic()
    try:
        for n in range(rounds):
            result = round_against(argv, env, attacker, name, n)
            problems = []
            if result.returncode < 0:
                problems.append("prefs ended with signal %d" % -result.returncode)
            else:
                verdict = judge(result)
                if verdict == "refused":
                    refused += 1
                elif verdict is True:
                    answered += 1
                else:
                    problems += verdict
            if problems:
                failures.append(broken(name, n, problems, result))
                break
    finally:
        attacker.kill()
        attacker.wait()
        if not keep:
            shutil.rmtree(base, ignore_errors=True)
    return failures, answered, refused, time.monotonic() - started


def run_cut(name, prefs, cut, rounds, keep):
    command, check = CUTS[name]
    big = big_domain()
    base, env, domain = large_users_domain(big)
    argv = [prefs] + [w.format(domain=domain) for w in command]
    contained = []

    def judge(result):
        if result.returncode == 0:
            try:
                right = check(result.stdout, big)
            except Exception as error:
                return ["its output does not parse: %s" % error]
            return True if right else [
                "exit 0 with an answer the file does not hold: %r" % result.stdout[:200]]
        if result.returncode in (65, 74):
            if b"could not be read" in result.stderr:
                contained.append(1)
            return "refused"
        return ["exit %d, not a documented refusal" % result.returncode]

    outcome = rounds_against_owner(
        name, argv, env, as_the_user(cut, domain), rounds, judge, base, keep)
    print("%-28s %5d rounds refused because a page was cut away while mapped (the fault contained)"
          % (name, len(contained)), flush=True)
    return outcome


# The rewrite-* scenarios: the user rewrites its large domain in place between two versions of
# the same size and layout (every value A… or every value B…), its modification time put back
# every time (rewrite.py), while root reads it. An answer (exit 0) must be one version whole;
# else the file changed while it was read (74).
def one_version(text):
    return (b"AAAAAAAAAAAA" in text) != (b"BBBBBBBBBBBB" in text)


REWRITES = {
    "rewrite-read": ["read", "{domain}"],
    "rewrite-convert": ["convert", "{domain}", "--to", "xml"],
}


def run_rewrite(name, prefs, rounds, keep):
    base, env, domain = large_users_domain({"k%05d" % n: "A" * 12 for n in range(6000)})
    argv = [prefs] + [w.format(domain=domain) for w in REWRITES[name]]
    writer = as_the_user(USER_PYTHON, os.path.join(os.path.dirname(__file__), "rewrite.py"),
                         domain, ready="rewriting")

    def judge(result):
        if result.returncode == 0:
            return True if one_version(result.stdout) else [
                "exit 0 with half of one version and half of the other"]
        if result.returncode == 74:
            return "refused"
        return ["exit %d, not an answer nor 74" % result.returncode]

    return rounds_against_owner(name, argv, env, writer, rounds, judge, base, keep)


# The lock-replace-* scenarios: the user holds its domain's lock and renames a new lock file it
# holds over the name every 0.15 s (lock_replace.py), so that root, once it has the old lock,
# finds another. Root's run must end busy (75) at its deadline (--lock-timeout 0.3) every round,
# and all the while its main thread, the process ps and pgrep -u see, must stay root's.
LOCK_REPLACES = {
    "lock-replace-migrate": ["migrate", "--plan", PLAN, "--in-place", "--lock-timeout", "0.3",
                             "--jobs", "1", "{domain}"],
    "lock-replace-write": ["--lock-timeout", "0.3", "write", "{domain}", "raced", "-string", "yes"],
}


def main_thread_uids(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("Uid:"):
                    return line.split()[1:]
    except OSError:
        return None
    return None


def run_lock_replace(name, prefs, rounds, keep):
    base = tempfile.mkdtemp(prefix="prefs-race-")
    world = World(base, "xdg")
    argv = [prefs] + [w.format(domain=world.domain) for w in LOCK_REPLACES[name]]
    holder = as_the_user(USER_PYTHON, os.path.join(os.path.dirname(__file__), "lock_replace.py"),
                         world.folder, DOMAIN + ".plist.lock", "0.15", ready="held")
    env = dict(os.environ)
    env["HOME"] = world.home
    env["XDG_CONFIG_HOME"] = world.folder
    failures = []
    ended = 0
    started = time.monotonic()
    try:
        for n in range(rounds):
            began = time.monotonic()
            root = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            seen = set()
            while root.poll() is None and time.monotonic() - began < 10:
                uids = main_thread_uids(root.pid)
                if uids:
                    seen.add(tuple(uids))
                time.sleep(0.005)
            if root.poll() is None:
                root.kill()
            out, err = root.communicate()
            result = subprocess.CompletedProcess(argv, root.returncode, out, err)
            seconds = time.monotonic() - began
            if holder.poll() is not None:
                sys.exit("race.py: %s: the lock holder ended in round %d" % (name, n))
            problems = []
            if result.returncode != 75:
                problems.append("exit %d, not busy (75)" % result.returncode)
            if seconds > 3:
                problems.append("the run took %.1f s against a deadline of 0.3 s" % seconds)
            if seen - {("0", "0", "0", "0")}:
                problems.append("root's main thread was %s" % sorted(seen))
            for path, marker in leaked(world.home, [SECRET, OTHERS]):
                problems.append("%s holds %s" % (path, marker))
            if problems:
                failures.append(broken(name, n, problems, result))
                break
            ended += 1
    finally:
        holder.kill()
        holder.wait()
        if not keep:
            shutil.rmtree(base, ignore_errors=True)
    return failures, ended, 0, time.monotonic() - started


def stop(pid):
    """Stops `pid` and waits until it is stopped (SIGSTOP is delivered asynchronously: the world
    is looked at and mended only once the swapper can no longer rename anything)."""
    os.kill(pid, signal.SIGSTOP)
    while True:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        if state in ("T", "t"):
            return
        time.sleep(0.0002)


def run_scenario(name, prefs, swap, rounds, keep):
    layout, (entry, target), command, check = SCENARIOS[name]
    base = tempfile.mkdtemp(prefix="prefs-race-")
    world = World(base, layout)
    entry = entry.format(folder=world.folder, domain=world.domain)
    target = {
        "victim": world.victim, "other": os.path.join(world.other, ".config"),
        "secret": world.secret, "keep": os.path.join(world.victim, "keep"),
        "other-domain": os.path.join(world.other, ".config", DOMAIN + ".plist"),
    }[target]
    if entry.endswith(".lock"):
        with open(entry, "wb"):
            pass
        own(entry, NOBODY, 0o600)
    link = os.path.join(os.path.dirname(entry), ".evil")
    os.symlink(target, link)
    os.lchown(link, *NOBODY)
    env = dict(os.environ)
    env.pop("XDG_CONFIG_HOME", None)
    env["HOME"] = world.home
    if layout == "gnustep":
        env["GNUSTEP_CONFIG_FILE"] = world.config
    else:
        env["XDG_CONFIG_HOME"] = world.folder
    argv = [prefs] + [w.format(domain=world.domain) for w in command]
    swapper = as_the_user(swap, entry, link)
    failures = []
    acknowledged = refused = 0
    started = time.monotonic()
    try:
        for n in range(rounds):
            result = round_against(argv, env, swapper, name, n)
            stop(swapper.pid)
            try:
                problems = []
                now = world.outside_state()
                if now != world.outside:
                    changed = [k for k in now if now[k] != world.outside[k]]
                    problems.append("outside the user's tree changed: %s" % changed)
                for path, marker in leaked(world.home, [SECRET, OTHERS]):
                    problems.append("%s holds %s" % (path, marker))
                if result.returncode == 0:
                    acknowledged += 1
                    if not check(world, result):
                        problems.append("exit 0, but the write is not in the user's domain")
                else:
                    refused += 1
                if problems:
                    failures.append(broken(name, n, problems, result))
                    # The first broken round ends the scenario (--keep keeps its world).
                    break
                restore(entry, link, target)
                world.reset()
            finally:
                if not failures:
                    os.kill(swapper.pid, signal.SIGCONT)
    finally:
        swapper.kill()
        swapper.wait()
        if not keep:
            shutil.rmtree(base, ignore_errors=True)
    return failures, acknowledged, refused, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prefs", required=True)
    parser.add_argument("--swap", required=True)
    parser.add_argument("--cut", required=True)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--only", default="")
    parser.add_argument("--keep", action="store_true", help="keep the first broken world")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("race.py: run as root (the attack is a user racing root)")
    names = [n for n in args.only.split(",") if n] or (
        list(SCENARIOS) + list(CUTS) + list(REWRITES) + list(LOCK_REPLACES))
    broken = 0
    for name in names:
        if name in REWRITES:
            failures, acknowledged, refused, seconds = run_rewrite(
                name, os.path.abspath(args.prefs), args.rounds, args.keep)
            done = "answered"
        elif name in LOCK_REPLACES:
            failures, acknowledged, refused, seconds = run_lock_replace(
                name, os.path.abspath(args.prefs), args.rounds, args.keep)
            done = "busy"
        elif name in CUTS:
            failures, acknowledged, refused, seconds = run_cut(
                name, os.path.abspath(args.prefs), os.path.abspath(args.cut), args.rounds,
                args.keep)
            done = "answered"
        else:
            failures, acknowledged, refused, seconds = run_scenario(
                name, os.path.abspath(args.prefs), os.path.abspath(args.swap), args.rounds,
                args.keep)
            done = "written"
        print("%-28s %5d rounds  %5d %s  %5d refused  %3d broken  %.0f s" % (
            name, args.rounds, acknowledged, done, refused, len(failures), seconds), flush=True)
        broken += len(failures)
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
