#!/usr/bin/env bash
# The long torture run (out of the default suite, which does ~1,000 SIGKILLed synchronize
# cycles and 24 rounds of in-place migration beside a live writer): ROUNDS rounds of SIGKILLed
# writers, plus the mixed-operation and full-disk tests, and 5 x ROUNDS / 2 race rounds.
#   Scripts/torture.sh [ROUNDS]      default 200 (tens of thousands of cycles, 500 race rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-200}"
PREFS_TORTURE_ROUNDS="$rounds" PREFS_RACE_ROUNDS="$((rounds * 5 / 2))" \
  swift test --filter 'TortureTests|DurabilityTests|inPlaceMigrationBesideALiveWriter'
