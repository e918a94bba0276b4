"""The worlds race.py's scenarios run in, and their attacker: the users and the marker strings,
a scenario's folders (the user's home, a root-owned folder, a root-only file, another user's
domain) and a user's large domain; the attacker run as the user, one round of root's prefs
against it, a broken round printed."""

import errno
import os
import plistlib
import stat
import subprocess
import sys
import tempfile

NOBODY = (65534, 65534)
OTHER = (1, 1)  # daemon: another user, whose 0600 domain nobody must never read
SECRET = b"SECRET-ROOT-ONLY-4242"
OTHERS = b"OTHER-USERS-DOMAIN-4343"
DOMAIN = "com.exmo.equizmo"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(REPO, "Legacy", "Samples", DOMAIN + ".plist")
PLAN = os.path.join(REPO, "Legacy", "Samples", "equizmo-plan.json")
# The attackers' Python: the system's, which an unprivileged user can run (one kept under root's
# home may not be).
USER_PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable


def own(path, who, mode):
    os.lchown(path, *who)
    if not os.path.islink(path):
        os.chmod(path, mode)


def snapshot(root):
    """Every entry under `root` (not following links): name, type, owner, mode, bytes."""
    state = {}
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            content = None
            if stat.S_ISREG(info.st_mode):
                with open(path, "rb") as f:
                    content = f.read()
            elif stat.S_ISLNK(info.st_mode):
                content = os.readlink(path).encode()
            state[os.path.relpath(path, root)] = (
                stat.S_IFMT(info.st_mode), info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode),
                content)
    return state


def leaked(root, markers):
    """Files under `root` (not following links) holding one of `markers`.

    The user may still be running (lock_replace.py renames its files over each other while this
    looks): a name gone between the listing and the open, or turned into a link, is the user's
    own doing after root's run ended, so it is passed over; the file is opened without following
    a link and judged by what was opened, never by the name looked at first."""
    found = []
    for folder, _, files in os.walk(root, followlinks=False):
        for name in files:
            path = os.path.join(folder, name)
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError as error:
                if error.errno in (errno.ENOENT, errno.ELOOP, errno.ENXIO):
                    continue
                raise
            with os.fdopen(fd, "rb") as f:
                if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                    continue
                data = f.read()
            found += [(path, m.decode()) for m in markers if m in data]
    return found


class World:
    """The folders of one scenario: the user's home, a root-owned folder, a root-only file,
    another user's domain."""

    def __init__(self, base, layout):
        self.base = base
        self.home = os.path.join(base, "home")
        self.victim = os.path.join(base, "victim")
        self.secret = os.path.join(base, "secret.plist")
        self.other = os.path.join(base, "other")
        os.chmod(base, 0o755)
        os.mkdir(self.victim)
        with open(os.path.join(self.victim, "keep"), "wb") as f:
            f.write(b"root's own file\n")
        os.chmod(os.path.join(self.victim, "keep"), 0o644)
        with open(self.secret, "wb") as f:
            plistlib.dump({"PREFS_SOUND_ENABLED": True, "secret": SECRET.decode()}, f)
        os.chmod(self.secret, 0o600)
        os.makedirs(os.path.join(self.other, ".config"))
        other_domain = os.path.join(self.other, ".config", DOMAIN + ".plist")
        with open(other_domain, "wb") as f:
            plistlib.dump({"PREFS_SOUND_ENABLED": False, "mine": OTHERS.decode()}, f)
        own(self.other, OTHER, 0o700)
        own(os.path.join(self.other, ".config"), OTHER, 0o700)
        own(other_domain, OTHER, 0o600)
        os.mkdir(self.home)
        own(self.home, NOBODY, 0o755)
        if layout == "gnustep":
            self.folder = os.path.join(self.home, "GNUstep", "Defaults")
            os.makedirs(os.path.join(self.folder, ".lck"))
            for path in (os.path.join(self.home, "GNUstep"), self.folder,
                         os.path.join(self.folder, ".lck")):
                own(path, NOBODY, 0o755)
            self.config = os.path.join(base, "GNUstep.conf")
            with open(self.config, "w") as f:
                f.write("GNUSTEP_USER_DEFAULTS_DIR=%s\n" % self.folder)
        else:
            self.folder = os.path.join(self.home, ".config")
            os.mkdir(self.folder)
            own(self.folder, NOBODY, 0o700)
        self.domain = os.path.join(self.folder, DOMAIN + ".plist")
        self.folder_inode = os.lstat(self.folder).st_ino
        self.reset()
        self.outside = self.outside_state()

    def reset(self):
        """The user's domain as the legacy app left it."""
        with open(SAMPLE, "rb") as f:
            data = f.read()
        path = self.real(self.domain)
        tmp = path + ".reset"
        with open(tmp, "wb") as f:
            f.write(data)
        own(tmp, NOBODY, 0o600)
        os.rename(tmp, path)

    def real(self, path):
        """`path`, with its folder taken by inode: the real one, whichever name it has now."""
        parent = os.path.dirname(path)
        for name in os.listdir(os.path.dirname(parent)):
            candidate = os.path.join(os.path.dirname(parent), name)
            info = os.lstat(candidate)
            if stat.S_ISDIR(info.st_mode) and info.st_ino == self.folder_inode:
                return os.path.join(candidate, os.path.basename(path))
        return path

    def outside_state(self):
        return {
            "victim": snapshot(self.victim),
            "other": snapshot(self.other),
            "secret": open(self.secret, "rb").read(),
            "base": sorted(os.listdir(self.base)),
        }


def as_the_user(*argv, ready=None):
    """The attacker: `argv` run as the unprivileged user (nobody), no groups; with `ready`, once
    it has printed that line (its attack is in place)."""
    attacker = subprocess.Popen(
        ["setpriv", "--reuid=%d" % NOBODY[0], "--regid=%d" % NOBODY[1], "--clear-groups"]
        + list(argv), stdout=subprocess.PIPE if ready else None)
    if ready and attacker.stdout.readline().strip() != ready.encode():
        attacker.kill()
        sys.exit("race.py: the attacker %s ended before it was ready" % argv[-1])
    return attacker


def broken(name, n, problems, result):
    """A broken round, printed: what went wrong, and what prefs said."""
    print("%s round %d: exit %d\n  %s\n  stderr: %s" % (
        name, n, result.returncode, "\n  ".join(problems),
        result.stderr.decode(errors="replace").strip()[:400]), flush=True)
    return (n, problems, result)


def round_against(argv, env, attacker, name, n):
    """One run of root's prefs while the attacker runs (which must still run after it)."""
    result = subprocess.run(argv, env=env, capture_output=True, timeout=120)
    if attacker.poll() is not None:
        sys.exit("race.py: %s: the attacker ended (%s) in round %d" % (
            name, attacker.returncode, n))
    return result


def large_users_domain(values):
    """A fresh world of one user (nobody) whose domain is `values` in binary, large enough
    for prefs to map: (base, environment, domain)."""
    base = tempfile.mkdtemp(prefix="prefs-race-")
    os.chmod(base, 0o755)
    folder = os.path.join(base, "home", ".config")
    os.makedirs(folder)
    own(os.path.join(base, "home"), NOBODY, 0o755)
    own(folder, NOBODY, 0o700)
    domain = os.path.join(folder, DOMAIN + ".plist")
    with open(domain, "wb") as f:
        plistlib.dump(values, f, fmt=plistlib.FMT_BINARY)
    own(domain, NOBODY, 0o600)
    env = dict(os.environ)
    env["HOME"] = os.path.join(base, "home")
    env["XDG_CONFIG_HOME"] = folder
    return base, env, domain
