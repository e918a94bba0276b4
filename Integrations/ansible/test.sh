#!/usr/bin/env bash
# The prefs.fleet collection's tests, with ansible-core from PyPI in a virtual environment:
#   Integrations/ansible/test.sh PREFS_BINARY [DEB]
# 1. ansible-test sanity (every test that runs without containers);
# 2. tests/playbooks/defaults.yml and migrate.yml against localhost (local connection), as
#    root and as an unprivileged user (nobody, through setpriv), each in a preferences folder
#    of its own;
# 2b. as root: tests/playbooks/values.yml, forty keys of every type in one values: task for
#    two test users it makes (become_user through su, the system's python3 as interpreter,
#    as the collection's README says), which must take the time of a one-key task (printed; it fails above 4 times), report
#    changed once then ok, write nothing in check mode and diff a line a leaf; the users are
#    removed after. Its "times:" line is the measurement;
# 3. with DEB (Scripts/build-deb.sh), the administrator's playbook, playbooks/fleet.yml, as
#    root over a folder of test users' homes, run twice: the second run must change nothing,
#    and every migrated file must keep its owner and mode. (It installs DEB, and removes it
#    after.)
# ANSIBLE_VENV names a virtual environment with ansible-core to use (default: one made in the
# run's temporary folder, from PyPI, readable by the unprivileged user).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
prefs="$(readlink -f "$1")"
deb="${2:+$(readlink -f "$2")}"
work="$(mktemp -d)"
chmod 0755 "$work"
trap 'rm -rf "$work"' EXIT
# The system's Python (Debian's python3 and python3-venv): an unprivileged user can run it,
# as it cannot a Python kept under root's home.
venv="${ANSIBLE_VENV:-$work/venv}"
if [ ! -x "$venv/bin/ansible-playbook" ]; then
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install -q "ansible-core>=2.15,<2.20"
fi
"$venv/bin/ansible" --version | sed -n 1p
# Readable by the unprivileged user: the collection, the binary, the samples.
cp -r "$here/ansible_collections" "$work/"
mkdir -p "$work/bin" && cp "$prefs" "$work/bin/prefs"
cp "$repo/Legacy/Samples/com.exmo.equizmo.plist" "$repo/Legacy/Samples/equizmo-plan.json" "$work/"
chmod -R a+rX "$work"
collection="$work/ansible_collections/prefs/fleet"
export ANSIBLE_COLLECTIONS_PATH="$work" ANSIBLE_LOCALHOST_WARNING=false \
  ANSIBLE_INVENTORY_UNPARSED_WARNING=false ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 \
  ANSIBLE_PYTHON_INTERPRETER="$venv/bin/python" ANSIBLE_RETRY_FILES_ENABLED=false

echo "== the README's playbook is playbooks/fleet.yml"
sed -n '/^<!-- playbooks\/fleet.yml -->$/,/^<!-- end -->$/p' "$here/ansible_collections/prefs/fleet/README.md" \
  | sed '1,2d;$d' | sed '$d' | cmp - "$here/ansible_collections/prefs/fleet/playbooks/fleet.yml"

echo "== ansible-test sanity"
# ansible-test bootstraps pip in its own virtual environments with a script it downloads from
# a host this machine cannot reach: a stand-in in its cache takes pip from the Python's own
# ensurepip, then from PyPI, as the rest of its requirements come.
home="$work/ansible-test-home"
mkdir -p "$home/.ansible/test/cache" "$home/.config/pip"
"$venv/bin/pip" config list 2>/dev/null | sed -n "s/^[^.]*\.\([a-z-]*\)='\(.*\)'$/\1 = \2/p" | sort -u \
  | { echo "[global]"; cat; } > "$home/.config/pip/pip.conf"
tests="$("$venv/bin/python" -c 'import ansible_test, os; print(os.path.dirname(ansible_test.__file__))')"
pip_version="$(grep -o "pip='[0-9.]*'" "$tests/_internal/python_requirements.py" | head -1 | cut -d"'" -f2)"
cat > "$home/.ansible/test/cache/get_pip_${pip_version//./_}.py" <<'PY'
import ensurepip, os, runpy, sys
for name in ("PIP_CERT", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE"):
    if os.path.exists("/etc/ssl/certs/ca-certificates.crt"):
        os.environ.setdefault(name, "/etc/ssl/certs/ca-certificates.crt")
ensurepip.bootstrap()
sys.argv = ["pip", "install"] + [a for a in sys.argv[1:] if a not in ("--no-setuptools", "--no-wheel")]
runpy.run_module("pip", run_name="__main__", alter_sys=True)
PY
(cd "$collection" && HOME="$home" "$venv/bin/ansible-test" sanity --python 3.11 --local --color no)

playbook() { # USER PLAYBOOK [ARGS...]: one run, its output kept
  local user="$1" book="$2"
  shift 2
  local config="$work/$user/config"
  mkdir -p "$config" "$work/$user/tmp"
  local run=(env HOME="$work/$user" XDG_CONFIG_HOME="$config" PATH="$work/bin:$PATH"
    ANSIBLE_LOCAL_TEMP="$work/$user/tmp" ANSIBLE_REMOTE_TEMP="$work/$user/tmp"
    "$venv/bin/ansible-playbook" "$book" "$@")
  if [ "$user" != root ]; then
    chown -R "$user" "$work/$user"
    run=(setpriv --reuid="$user" --regid=nogroup --clear-groups "${run[@]}")
  fi
  "${run[@]}"
}

for user in root nobody; do
  echo "== tests/playbooks/defaults.yml as $user"
  playbook "$user" "$collection/tests/playbooks/defaults.yml"
  echo "== tests/playbooks/migrate.yml as $user"
  playbook "$user" "$collection/tests/playbooks/migrate.yml" \
    -e "sample=$work/com.exmo.equizmo.plist" -e "plan=$work/equizmo-plan.json"
  # What the unprivileged user wrote is its own.
  if [ "$user" != root ]; then
    stray="$(find "$work/$user/config" ! -user "$user" -print -quit)"
    [ -z "$stray" ] || { echo "not $user's: $stray" >&2; exit 1; }
  fi
done

if [ "$(id -u)" = 0 ] && command -v useradd >/dev/null && [ -x /usr/bin/python3 ]; then
  echo "== tests/playbooks/values.yml as root, become_user over two test users"
  users=(prefs-alice prefs-bob)
  cleanup_users() { for u in "${users[@]}"; do userdel "$u" >/dev/null 2>&1 || true; done; }
  trap 'cleanup_users; rm -rf "$work"' EXIT
  for u in "${users[@]}"; do
    userdel "$u" >/dev/null 2>&1 || true
    useradd -M -d "$work/users/$u" -s /bin/sh -U "$u"
    mkdir -p "$work/users/$u"
    chown "$u:$u" "$work/users/$u"
    chmod 0700 "$work/users/$u"
  done
  # Each user's own folder: XDG_CONFIG_HOME is the controller's, not the user's.
  env -u XDG_CONFIG_HOME HOME="$work/root" ANSIBLE_LOCAL_TEMP="$work/root/tmp" \
    ANSIBLE_REMOTE_TEMP="$work/root/tmp" \
    "$venv/bin/ansible-playbook" "$collection/tests/playbooks/values.yml" \
    -e "prefs_bin=$work/bin/prefs" | tee "$work/values.log"
  grep -o 'times: .*' "$work/values.log" | tr -d '"' | sed 's/  */ /g'
else
  echo "== tests/playbooks/values.yml: skipped (needs root, useradd and /usr/bin/python3)"
fi

if [ -n "$deb" ]; then
  echo "== playbooks/fleet.yml, as root over the test users' homes, twice"
  homes="$work/home"
  for person in alice bob; do
    mkdir -p "$homes/$person/.config"
    cp "$work/com.exmo.equizmo.plist" "$homes/$person/.config/"
    chmod 0644 "$homes/$person/.config/com.exmo.equizmo.plist"
    chown -R nobody:nogroup "$homes/$person"
  done
  fleet=(-i localhost, -c local -e fleet_hosts=localhost -e fleet_become=false
    -e "prefs_deb=$deb" -e "plan_src=$work/equizmo-plan.json" -e "home_root=$homes"
    -e "backup=$work/backups" -e "plan=$work/etc/prefs/equizmo-plan.json"
    -e "package=$work/cache/prefs.deb")
  mkdir -p "$work/cache"
  trap 'dpkg -r prefs >/dev/null 2>&1 || true; cleanup_users 2>/dev/null || true; rm -rf "$work"' EXIT
  for round in first second; do
    playbook root "$collection/playbooks/fleet.yml" "${fleet[@]}" | tee "$work/fleet-$round.log"
  done
  grep -Eq '^localhost +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0' "$work/fleet-second.log" \
    || { echo "the second run of the fleet playbook changed something" >&2; exit 1; }
  grep -Eq '^localhost +: .*changed=[1-9]' "$work/fleet-first.log" \
    || { echo "the first run of the fleet playbook changed nothing" >&2; exit 1; }
  for person in alice bob; do
    file="$homes/$person/.config/com.exmo.equizmo.plist"
    [ "$(stat -c '%U:%G %a' "$file")" = "nobody:nogroup 644" ] \
      || { echo "$file: $(stat -c '%U:%G %a' "$file"), not nobody:nogroup 644" >&2; exit 1; }
    # Each user's backup is its own (laid out by the source's path, owned by root), even
    # where two users' files held the same bytes.
    copy="$work/backups$file.backup"
    cmp -s "$work/com.exmo.equizmo.plist" "$copy" \
      || { echo "$copy: not $person's original" >&2; exit 1; }
    [ "$(stat -c '%U:%G %a' "$copy")" = "root:root 644" ] \
      || { echo "$copy: $(stat -c '%U:%G %a' "$copy"), not root:root 644" >&2; exit 1; }
  done
  echo "the fleet playbook: the second run changed nothing; owners and modes kept"
fi
echo "prefs.fleet: all passed"
