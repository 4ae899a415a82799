#!/usr/bin/env bash
# Checks the sources against .swift-format (Tests/.swift-format for the tests) with the swift-format
# that ships with the toolchain. Fix what it reports with:
#   swift format --in-place --recursive Sources Tests
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict --parallel --recursive Sources Tests
