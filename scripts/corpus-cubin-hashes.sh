#!/usr/bin/env bash
# Compiles every ../shared/corpus module whose .target is one of sm_75..sm_90 at its own target and
# prints one line per compile: path, target, entry ("*" for the whole module), exit status, sha256
# of the cubin ("-" when none was written) and sha256 of the diagnostics. With --entries it also
# compiles each `.entry` of the module alone (`-e NAME`), so that a module with one kernel the back
# end lacks still shows the cubins of the others. Two runs (before and after a change that must not
# change behaviour) are compared with `diff`: cubins and error output must be byte-identical.
#
# Usage: scripts/corpus-cubin-hashes.sh [--entries] [PTXFORGE_BINARY] [CORPUS_DIR] > hashes.tsv
set -euo pipefail
entries=0
if [[ "${1:-}" == "--entries" ]]; then
    entries=1
    shift
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/target/release/ptxforge}"
corpus="${2:-$root/../shared/corpus}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
targets=" sm_75 sm_80 sm_86 sm_87 sm_89 sm_90 "

# compile PTX SM ENTRY: one output line; ENTRY "*" compiles the whole module.
compile() {
    local ptx="$1" sm="$2" entry="$3" rc=0 cubin="-" diag
    local args=(-arch "$sm" -o "$work/out.cubin")
    [[ "$entry" == "*" ]] || args+=(-e "$entry")
    rm -f "$work/out.cubin"
    "$bin" "${args[@]}" "$ptx" > "$work/diag" 2>&1 || rc=$?
    [[ -f "$work/out.cubin" ]] && cubin="$(sha256sum < "$work/out.cubin" | cut -d' ' -f1)"
    diag="$(sha256sum < "$work/diag" | cut -d' ' -f1)"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "${ptx#"$corpus"/}" "$sm" "$entry" "$rc" "$cubin" "$diag"
}

find "$corpus" -name '*.ptx' | sort | while read -r ptx; do
    sm="$(grep -m1 -oE '^[[:space:]]*\.target[[:space:]]+sm_[0-9a-z]+' "$ptx" | awk '{print $2}')"
    [[ "$targets" == *" $sm "* ]] || continue
    compile "$ptx" "$sm" "*"
    [[ $entries == 1 ]] || continue
    grep -oE '\.entry[[:space:]]+[A-Za-z_$][A-Za-z0-9_$]*' "$ptx" | awk '{print $2}' | sort -u |
        while read -r entry; do compile "$ptx" "$sm" "$entry"; done
done
