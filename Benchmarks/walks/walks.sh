#!/usr/bin/env bash
# Counts the functions of this package's library modules that each of the
# four walks visits (see the Architecture page, "The four walks"):
#
#   ./walks.sh            # all four walks
#   ./walks.sh commit     # one: commit, row, persist or teststore
#   ./walks.sh -v commit  # also list the functions, demangled
#
# How: a debug build (no inlining) of VergeWalks, whose Walks.swift makes
# each public call once in a function of its own; callgrind runs it with
# collection switched on only inside that function
# (--toggle-collect=<its mangled name>). Collection is per thread, so what
# is counted ran on the calling thread, inside the call. Valgrind 3.19
# cannot read the DWARF that Swift 6.3 emits, so the program runs from a
# copy without debug information (names come from the symbol table).
#
# A function that calls itself (a lock taken inside another of its kind)
# is one function: `--separate-recs=1` keeps callgrind from naming its
# nested call apart (`withLock'2`).
#
# A function counts when it spent at least one instruction while collected
# and its mangled name belongs to one of the library's modules (Verge,
# VergeNeue, VergeORM, VergeTesting, VergeCollections; or the C target's
# `verge_` functions).
#
# "All" counts every such function the compiler emitted. "Named" counts the
# functions a reader finds written in the source; it drops, by their
# demangled names:
#   - closures (`closure #`, `implicit closure #`), `defer` blocks (part of
#     the function they are written in) and the compiler's
#     glue: thunks, `partial apply forwarder`, `outlined` copies and
#     destroys, `merged` functions;
#   - metadata: `type metadata`, `metadata accessor`, metadata completion and
#     instantiation, `lazy protocol witness table`, witness tables;
#   - witnesses (`protocol witness for`, value witnesses): the function a
#     witness forwards to is counted itself;
#   - what an initializer or a global expands to: `__allocating_init` (the
#     `init` counts), `__deallocating_deinit` (the `deinit` counts),
#     `one-time initialization`, `unsafeMutableAddressor`, `variable
#     initialization expression`, `default argument`;
#   - generated accessors: `modify`, `_read` and `_modify` coroutines and
#     the resume functions of coroutines;
#   - what the compiler derives: `__derived_` conformances (`==`, `hash`).
# A getter or setter counts: a reader finds the property (stored or
# computed) it reads or writes.
set -euo pipefail
cd "$(dirname "$0")"

verbose=no
if [[ "${1:-}" == "-v" ]]; then verbose=yes; shift; fi
walks=("$@")
if [[ ${#walks[@]} -eq 0 ]]; then walks=(commit row persist teststore); fi

swift build --product VergeWalks >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
objcopy --strip-debug "$(swift build --show-bin-path)/VergeWalks" "$work/VergeWalks"

# The walk function of each argument (Walks.swift).
declare -A function=([commit]=walkCommit [row]=walkRowAction [persist]=walkPersist [teststore]=walkTestStore)

printf '| Walk | All | Named |\n| --- | ---: | ---: |\n'
for walk in "${walks[@]}"; do
  name="${function[$walk]:?unknown walk $walk (commit, row, persist or teststore)}"
  # The walk's own function: a global symbol (its closures are local).
  symbol="$(nm "$work/VergeWalks" | awk -v n="$name" '$2 == "T" && $3 ~ ("^\\$s10VergeWalks[0-9]+" n) { print $3 }')"
  [[ $(wc -l <<<"$symbol") -eq 1 ]] || { echo "no single function for $name: $symbol" >&2; exit 1; }
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$symbol" --demangle=no --separate-recs=1 \
    --callgrind-out-file="$work/$walk.out" --log-file="$work/$walk.log" "$work/VergeWalks" "$walk"
  # Every function with a cost: `fn=` opens a function's block (names are
  # compressed to `(id)` after their first use, also in `cfn=` lines); a
  # `calls=` line's next line is the callee's inclusive cost, not the
  # function's own.
  awk '
    /^c?fn=\(/ {
      match($0, /\([0-9]+\)/); id = substr($0, RSTART, RLENGTH)
      rest = substr($0, RSTART + RLENGTH + 1); if (rest != "") names[id] = rest
      if ($0 ~ /^fn=/) current = id
      next
    }
    /^calls=/ { skip = 1; next }
    /^[0-9+*-]/ { if (skip) { skip = 0; next } if ($2 > 0) spent[current] = 1; next }
    END { for (id in spent) print names[id] }
  ' "$work/$walk.out" |
    grep -E '^(\$s(5Verge|9VergeNeue|8VergeORM|12VergeTesting|16VergeCollections)|verge_)' |
    sort -u >"$work/$walk.mangled" || true
  swift demangle --compact <"$work/$walk.mangled" | sort -u >"$work/$walk.all"
  grep -Ev 'closure #|\$defer #|thunk|partial apply forwarder|outlined|^merged |metadata|witness|__allocating_init|__deallocating_deinit|one-time initialization|unsafeMutableAddressor|variable initialization expression|default argument|\.modify|\._read|\._modify|resume |__derived_' \
    "$work/$walk.all" >"$work/$walk.named" || true
  printf '| %s | %d | %d |\n' "$walk" "$(wc -l <"$work/$walk.all")" "$(wc -l <"$work/$walk.named")"
  if [[ $verbose == yes ]]; then
    sed 's/^/    all: /' "$work/$walk.all" >&2
    sed 's/^/    named: /' "$work/$walk.named" >&2
  fi
done
