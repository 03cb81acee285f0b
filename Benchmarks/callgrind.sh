#!/usr/bin/env bash
# Counts instructions per operation with callgrind (Debian's `valgrind`
# package): only the counted batch of each case, not setup. Arguments go to
# the suite (`--quick`, `--filter TEXT`); the report is Markdown on stdout.
#
# Valgrind 3.19 cannot read the DWARF 5 debug information that Swift 6.3
# emits, so the suite runs from a copy without debug information (function
# names stay, from the symbol table).
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product VergeBenchmarks >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/VergeBenchmarks" "$(swift build -c release --show-bin-path)/VergeBenchmarks"
valgrind --tool=callgrind --collect-atstart=no --instr-atstart=no \
  --callgrind-out-file="$work/callgrind.out" --log-file="$work/valgrind.log" \
  "$work/VergeBenchmarks" --callgrind "$work/callgrind.out" "$@"
