#!/usr/bin/env bash
# Brings the open-source apps `prefs plan scan` is measured on (their labels are in
# Tests/PrefsToolsTests/Fixtures/SourceScan/Apps/*/labels.json: repository, commit, the paths
# scanned) into DEST, one folder an app, at the labelled commit; then
#
#   PREFS_SCAN_APPS=DEST swift test --filter SourceScanAccuracyTests
#
# prints and checks each app's key recall and precision, type and default accuracy. The code
# itself is never committed here: only the labels, written by reading it.
#
#   Scripts/scan-apps.sh DEST
#
# An app whose repository cannot be had is left out (and its test case reports it skipped).
# A repository is taken from $SCAN_APPS_MIRROR/<owner>+<name>/repo when that git directory
# exists (a snapshot brought by the search tool's fetch), else cloned from GitHub (where the
# network allows it).
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:?usage: Scripts/scan-apps.sh DEST}"
mkdir -p "$dest"
for labels in Tests/PrefsToolsTests/Fixtures/SourceScan/Apps/*/labels.json; do
  app="$(basename "$(dirname "$labels")")"
  read -r repo commit paths < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["repository"], d["commit"], "\x1f".join(d["scanned"]))' "$labels")
  gitdir="${SCAN_APPS_MIRROR:-/work/.mirror}/${repo/\//+}/repo"
  # A snapshot is a bare git directory, or a work tree's .git.
  [[ -d "$gitdir/.git" ]] && gitdir="$gitdir/.git"
  rm -rf "${dest:?}/$app"
  if [[ ! -d "$gitdir" ]]; then
    gitdir="$(mktemp -d)/repo.git"
    if ! timeout 120 git clone --quiet --bare --filter=blob:none "https://github.com/$repo" "$gitdir" 2>/dev/null; then
      # Not brought: its test case says so (cancelled, never passed).
      echo "$app: $repo could not be had (no snapshot in ${SCAN_APPS_MIRROR:-/work/.mirror}, no network): skipped"
      continue
    fi
  fi
  mkdir -p "$dest/$app"
  IFS=$'\x1f' read -r -a list <<<"$paths"
  # Each file of the scanned paths at the commit, through git cat-file: a snapshot lacks its
  # largest files (images, 4 MiB and over), which `git archive` would stop at; the scanner reads
  # none of them, and each one left out is counted.
  if ! git --git-dir="$gitdir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "$app: $repo has no commit ${commit:0:7} here: skipped"
    continue
  fi
  python3 - "$gitdir" "$commit" "$dest/$app" "${list[@]}" <<'PY'
import os, subprocess, sys
gitdir, commit, out, paths = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
git = ["git", "--git-dir=" + gitdir]
tree = subprocess.run(git + ["ls-tree", "-r", "-z", commit, "--"] + paths,
                      check=True, capture_output=True).stdout.split(b"\0")
blobs = []
for line in tree:
    if not line:
        continue
    meta, path = line.split(b"\t", 1)
    mode, kind, sha = meta.split()
    if kind == b"blob" and mode != b"120000":
        blobs.append((sha, path))
cat = subprocess.Popen(git + ["cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
missing = 0
for sha, path in blobs:
    cat.stdin.write(sha + b"\n")
    cat.stdin.flush()
    header = cat.stdout.readline().split()
    if header[-1] == b"missing":
        missing += 1
        continue
    data = cat.stdout.read(int(header[2]))
    cat.stdout.read(1)
    target = os.path.join(out.encode(), path)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as f:
        f.write(data)
cat.stdin.close()
cat.wait()
if missing:
    print(f"  ({missing} files not in the snapshot: left out)")
PY
  echo "$app: $repo at ${commit:0:7} → $dest/$app"
done
