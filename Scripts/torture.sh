#!/usr/bin/env bash
# The long torture run (out of the default suite, which does ~1,000 SIGKILLed synchronize
# cycles): ROUNDS rounds of SIGKILLed writers, plus the mixed-operation and full-disk tests.
#   Scripts/torture.sh [ROUNDS]      default 200 (tens of thousands of cycles)
set -euo pipefail
cd "$(dirname "$0")/.."
PREFS_TORTURE_ROUNDS="${1:-200}" swift test --filter 'TortureTests|DurabilityTests'
