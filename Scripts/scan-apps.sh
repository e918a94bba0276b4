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
  if [[ ! -d "$gitdir" ]]; then
    gitdir="$(mktemp -d)/repo.git"
    git clone --quiet --bare --filter=blob:none "https://github.com/$repo" "$gitdir"
  fi
  rm -rf "${dest:?}/$app"
  mkdir -p "$dest/$app"
  IFS=$'\x1f' read -r -a list <<<"$paths"
  git --git-dir="$gitdir" archive "$commit" -- "${list[@]}" | tar -x -C "$dest/$app"
  echo "$app: $repo at ${commit:0:7} → $dest/$app"
done
