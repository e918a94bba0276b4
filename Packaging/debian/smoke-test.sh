#!/usr/bin/env bash
# The Debian package, installed as an administrator installs it, then taken out again:
#   Packaging/debian/smoke-test.sh prefs_<version>_<arch>.deb
# dpkg -i; the shipped sample migrated by /usr/bin/prefs; `defaults write/read` through the
# alternative; GNUstep's and the toolchain's own names left as they were; the manual page
# and the completions; lintian when it is installed; dpkg -r leaves no alternative behind.
set -euo pipefail
deb="$(readlink -f "$1")"
cd "$(dirname "$0")/../.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "smoke test: $*" >&2; exit 1; }

gnustep_defaults=""
if owner="$(dpkg -S /usr/bin/defaults 2>/dev/null)"; then
  gnustep_defaults="$(sha256sum /usr/bin/defaults)"
  echo "/usr/bin/defaults before: $owner"
fi

dpkg -i "$deb"
[ "$(/usr/bin/prefs --version)" = "prefs $(dpkg-deb -f "$deb" Version)" ] || fail "prefs --version"

echo "== the shipped sample, migrated by the installed binary"
out="$(/usr/bin/prefs migrate --plan Legacy/Samples/equizmo-plan.json --to "$work/equizmo.plist" \
  Legacy/Samples/com.exmo.equizmo.plist)"
echo "$out"
grep -q '1 file: 1 migrated' <<<"$out" || fail "the sample did not migrate"
again="$(/usr/bin/prefs migrate --plan Legacy/Samples/equizmo-plan.json --to "$work/equizmo.plist" \
  Legacy/Samples/com.exmo.equizmo.plist --summary)"
grep -q '1 unchanged' <<<"$again" || fail "a second migration was not unchanged: $again"

echo "== defaults write/read through the alternative"
[ "$(readlink -f /etc/alternatives/defaults)" = /usr/bin/prefs ] || fail "no defaults alternative"
export XDG_CONFIG_HOME="$work/config"
mkdir -p "$XDG_CONFIG_HOME"
/etc/alternatives/defaults write com.example.smoke size -int 8589934592
/etc/alternatives/defaults write com.example.smoke colors -array red green
[ "$(/etc/alternatives/defaults read com.example.smoke size)" = 8589934592 ] || fail "defaults read"
[ "$(/etc/alternatives/defaults read-type com.example.smoke colors)" = "Type is array" ] || fail "read-type"
[ "$(/usr/bin/prefs read com.example.smoke size --typed)" = 8589934592 ] || fail "prefs read"
if [ -n "$gnustep_defaults" ]; then
  [ "$(sha256sum /usr/bin/defaults)" = "$gnustep_defaults" ] || fail "GNUstep's defaults was replaced"
  [ ! -L /usr/bin/defaults ] || fail "GNUstep's defaults became a link"
  echo "GNUstep's /usr/bin/defaults is as it was"
  # What install.md says: choosing prefs' alternative does not reach a file GNUstep installed.
  update-alternatives --set defaults /usr/bin/prefs 2>&1 | sed 's/^/  /' || true
  [ "$(sha256sum /usr/bin/defaults)" = "$gnustep_defaults" ] || fail "update-alternatives replaced GNUstep's defaults"
  echo "update-alternatives --set leaves GNUstep's /usr/bin/defaults (prefs-names take is the way)"
  update-alternatives --auto defaults
else
  [ "$(readlink -f /usr/bin/defaults)" = /usr/bin/prefs ] || fail "/usr/bin/defaults is not prefs"
fi
toolchain_plutil="$(dirname "$(readlink -f "$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)")")/plutil"
if [ -x "$toolchain_plutil" ]; then
  if update-alternatives --list plutil 2>/dev/null | grep -qx /usr/bin/prefs; then
    fail "prefs took plutil beside the toolchain's $toolchain_plutil"
  fi
  echo "plutil is not registered: the toolchain has its own ($toolchain_plutil)"
else
  update-alternatives --list plutil | grep -qx /usr/bin/prefs || fail "no plutil alternative"
fi

echo "== the macOS names beside GNUstep: the PATH folder, prefs-names take and give-back"
[ "$(PATH=/usr/lib/prefs/macos-bin:$PATH defaults read com.example.smoke size)" = 8589934592 ] \
  || fail "/usr/lib/prefs/macos-bin/defaults is not prefs"
[ "$(readlink -f /usr/lib/prefs/macos-bin/plutil)" = /usr/bin/prefs ] || fail "macos-bin/plutil"
if [ -n "$gnustep_defaults" ]; then
  /usr/sbin/prefs-names take defaults
  [ "$(/usr/bin/defaults read com.example.smoke size)" = 8589934592 ] \
    || fail "after prefs-names take, /usr/bin/defaults is not prefs"
  [ "$(sha256sum < /usr/bin/defaults.distrib)" = "$(cut -d' ' -f1 <<<"$gnustep_defaults")  -" ] \
    || fail "GNUstep's defaults is not /usr/bin/defaults.distrib"
  [ "$(dpkg-divert --listpackage /usr/bin/defaults)" = prefs ] || fail "no diversion by prefs"
  /usr/sbin/prefs-names status
  /usr/sbin/prefs-names give-back defaults
  [ "$(sha256sum /usr/bin/defaults)" = "$gnustep_defaults" ] || fail "give-back: not GNUstep's"
  [ ! -e /usr/bin/defaults.distrib ] || fail "give-back left /usr/bin/defaults.distrib"
  [ -z "$(dpkg-divert --listpackage /usr/bin/defaults)" ] || fail "give-back left the diversion"
  [ "$(readlink -f /etc/alternatives/defaults)" = /usr/bin/prefs ] || fail "give-back: no alternative"
  # Taken again, then the package removed: GNUstep's names come back with it.
  /usr/sbin/prefs-names take
  [ "$(/usr/bin/defaults read com.example.smoke size)" = 8589934592 ] || fail "take (both)"
  echo "prefs-names takes GNUstep's defaults and gives it back"
fi

echo "== the manual page and the completions"
zcat /usr/share/man/man1/prefs.1.gz | grep -q '^\.TH PREFS 1' || fail "the manual page"
cmp <(zcat /usr/share/man/man1/prefs.1.gz) man/prefs.1 || fail "the manual page is not man/prefs.1"
if command -v man >/dev/null; then
  [ "$(man -w prefs)" = /usr/share/man/man1/prefs.1.gz ] || fail "man -w prefs"
  MANWIDTH=80 man prefs 2>/dev/null | grep -q 'prefs migrate' || fail "man prefs"
fi
bash -c 'source /usr/share/bash-completion/completions/prefs && complete -p prefs' >/dev/null \
  || fail "the bash completion"
grep -q '^#compdef prefs' /usr/share/zsh/vendor-completions/_prefs || fail "the zsh completion"

if command -v lintian >/dev/null; then
  echo "== lintian"
  # Errors and warnings fail, no tag suppressed. The static binary is the package's own
  # override (/usr/share/lintian/overrides/prefs, with its reason).
  lintian --tag-display-limit 0 "$deb" 2>&1 | tee "$work/lintian.txt" || true
  if grep -q '^[EW]:' "$work/lintian.txt"; then fail "lintian found errors or warnings"; fi
  [ "$(man -w prefs-names 2>/dev/null || echo /usr/share/man/man8/prefs-names.8.gz)" = /usr/share/man/man8/prefs-names.8.gz ] \
    || fail "man -w prefs-names"
else
  echo "lintian is not installed: not checked"
fi

echo "== dpkg -r"
dpkg -r prefs
[ ! -e /usr/bin/prefs ] || fail "/usr/bin/prefs is still there"
! update-alternatives --list defaults 2>/dev/null | grep -qx /usr/bin/prefs || fail "an alternative is left"
if [ -n "$gnustep_defaults" ]; then
  [ "$(sha256sum /usr/bin/defaults)" = "$gnustep_defaults" ] || fail "GNUstep's defaults changed"
  [ -z "$(dpkg-divert --listpackage /usr/bin/defaults)" ] || fail "a diversion is left"
  [ -z "$(dpkg-divert --listpackage /usr/bin/plutil)" ] || fail "a diversion of plutil is left"
  [ ! -e /usr/bin/defaults.distrib ] && [ ! -e /usr/bin/plutil.distrib ] || fail "a .distrib is left"
  echo "GNUstep's defaults and plutil are back"
fi
echo "smoke test: passed"
