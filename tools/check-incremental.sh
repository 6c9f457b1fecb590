#!/usr/bin/env bash
# The build is incremental (issue 17 item 6), checked with `make -n` only:
# nothing is rebuilt, and every touched file gets its time back.
#   1. after `make build`, `make -q build` says up to date, `make -n build` runs nothing;
#   2. touching a core .c compiles that file once in each variant of `build`
#      and nothing else, then runs exactly the links that use it;
#   3. touching a header compiles exactly the files that include it, in each
#      variant -- who includes it is asked of the compiler (-MM, with the
#      variant's own flags from its compile.flags stamp), not of make's .d files;
#   4. the same for the variants outside `build` that are already built
#      (asan, plain, baremetal, wasm-tests, fuzz): one compile per variant.
# Prints one line per check, then: incremental: N passed, N failed
set -uo pipefail
cd "$(dirname "$0")/.."
pass=0; fail=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
bad() { echo "!! $1"; shift; [ $# = 0 ] || printf '   %s\n' "$@" | head -20; fail=$((fail + 1)); }
finish() { echo "incremental: $pass passed, $fail failed"; [ "$fail" = 0 ]; exit; }

BUILD_VARIANTS="build/native build/wasm/core-simd128 build/wasm/core-scalar build/wasm/core-relaxed
  build/wasm/core-simd128-threads build/wasm/wasi"
CORE_C=runtime/fmt.c
HOST_H=wasi/holo-std.h
CORE_H=runtime/include/hologram/fmt.h

if ! nice make -s -j2 build >/tmp/holo-incremental-build.log 2>&1; then
  tail -20 /tmp/holo-incremental-build.log; bad "make build failed"; finish
fi

# Touched files get their times back, even on ^C.
ref=$(mktemp -d); touched=()
restore() { for f in "${touched[@]}"; do touch -r "$ref/${f//\//_}" "$f"; done; touched=(); }
trap 'restore; rm -rf "$ref"' EXIT
touch_file() { touch -r "$1" "$ref/${1//\//_}"; touched+=("$1"); touch "$1"; }

# `make -n` output -> "compiles" (the -o of every `-c SRC -o OBJ`) and
# "links" (every other command's -o, and ar's archive).
dry() { make -n "$@" 2>&1 | grep -v '^mkdir -p '; }
compiles() { grep -oP ' -c \S+ -o \K\S+' <<<"$1" | sort; }
links() { { grep -v ' -c ' <<<"$1" | grep -oP ' -o \K\S+'; grep -oP '^(rm -f \S+; )?ar rcs \K\S+' <<<"$1"; } | sort; }
same() { # NAME EXPECTED ACTUAL (sorted lists)
  if [ "$2" = "$3" ]; then ok "$1"; return; fi
  local diff
  mapfile -t diff < <(comm -23 <(echo "$2") <(echo "$3") | sed 's/^/missing: /'
                      comm -13 <(echo "$2") <(echo "$3") | sed 's/^/extra: /')
  bad "$1" "${diff[@]}"
}

# 1. A built tree is up to date.
if make -q build; then ok "make -q build: up to date"; else bad "make -q build: not up to date after make build" "$(dry build | head -5)"; fi
out=$(dry build | grep -vE "Nothing to be done|is up to date")
[ -z "$out" ] && ok "make -n build: no command" || bad "make -n build runs commands after a build" "$out"

# 2. One core .c.
touch_file $CORE_C
out=$(dry build)
want=$(for v in $BUILD_VARIANTS; do echo "$v/obj/${CORE_C%.c}.o"; done | sort)
same "touch $CORE_C: one compile per variant of build ($(wc -w <<<"$BUILD_VARIANTS"))" "$want" "$(compiles "$out")"
want=$(printf '%s\n' build/native/libholo.a build/native/holo build/wasm/holo-raw.wasm build/wasm/holo.wasm \
  web-demo/model/digits.holo build/wasm/core-{simd128,scalar,relaxed,simd128-threads}.wasm \
  bindings-js/dist/hologram-{simd128,scalar,relaxed,simd128-threads}.wasm | sort)
same "touch $CORE_C: the links that use it" "$want" "$(links "$out")"
restore

# 3. Headers: the compiler says who includes H in variant V.
# (builtins only below: a fork per object is slow on a loaded machine)
stamp_of() { # VARIANT SRC -> $stamp, the file holding the flags its object was compiled with
  local d=$2
  stamp=$1/obj/compile.flags
  while [[ $d == */* ]]; do
    d=${d%/*}
    [ -f "$1/obj/$d/compile.flags" ] && { stamp=$1/obj/$d/compile.flags; return; }
  done
}
# Sources that could include HEADER: the ones that name it or name a header
# that (transitively) names it. Only a pre-filter: -MM decides.
candidates() {
  local names=("$(basename "$1")") n=0 hs
  while [ ${#names[@]} != "$n" ]; do
    n=${#names[@]}
    hs=$(git ls-files '*.h' | xargs grep -lF "${names[@]/#/-e}" 2>/dev/null)
    mapfile -t names < <({ printf '%s\n' "${names[@]}"; for f in $hs; do basename "$f"; done; } | sort -u)
  done
  git ls-files '*.c' | xargs grep -lF "${names[@]/#/-e}" 2>/dev/null
}
includers() { # HEADER OBJECT... -> the OBJECTs whose source includes HEADER
  local h=$1 o s group stamp c; shift
  declare -A cand=() srcs=()
  for c in $(candidates "$h"); do cand[$c]=1; done
  for o in "$@"; do # grouped by compile.flags stamp: one -MM run per group
    s=${o#*/obj/}; s=${s%.o}.c
    [ -n "${cand[$s]:-}" ] || continue
    stamp_of "${o%%/obj/*}" "$s"
    srcs[$stamp]+="$s "
  done
  for group in "${!srcs[@]}"; do
    # -MM prints one rule per source, in order; its target is the basename
    # shellcheck disable=SC2046,SC2086  (the stamp is a command line)
    $(sed 's/ -MMD -MP//' "$group") -MM ${srcs[$group]} 2>/dev/null | tr ' \\' '\n\n' | grep . |
      awk -v srcs="${srcs[$group]}" -v obj="${group%%/obj/*}/obj/" -v h="$h" '
        BEGIN { n = split(srcs, S, " ") }
        /\.o:$/ { i++; next }
        { t = $0; while (sub(/[^\/]+\/\.\.\//, "", t)) {}; sub(/^\.\//, "", t)
          if (t == h && !(i in seen)) { seen[i]; s = S[i]; sub(/\.c$/, ".o", s); print obj s } }'
  done
}
universe=$(compiles "$(make -n -B build 2>&1)")
for h in $HOST_H $CORE_H; do
  [ -f "$h" ] || { bad "$h is missing (update tools/check-incremental.sh)"; continue; }
  # shellcheck disable=SC2086
  want=$(includers "$h" $universe | sort)
  n=$(grep -c . <<<"$want")
  if [ "$n" = 0 ] || [ "$n" -ge "$(wc -l <<<"$universe")" ]; then
    bad "$h: included by none or by every object ($n): not a test of dependencies"; continue
  fi
  touch_file "$h"
  same "touch $h: exactly its $n includers recompile" "$want" "$(compiles "$(dry build)")"
  restore
done

# 4. The other variants, where built.
extra() { # TARGET VARIANT...
  local t=$1; shift
  if ! make -q "$t" 2>/dev/null; then echo "-- $t: not built or not up to date, skipped"; return; fi
  touch_file $CORE_C
  want=$(for v in "$@"; do echo "$v/obj/${CORE_C%.c}.o"; done | sort)
  same "touch $CORE_C: $t compiles it once per variant ($#)" "$want" "$(compiles "$(dry "$t")")"
  restore
}
extra build/asan/libholo.a build/asan
extra build/plain/libholo.a build/plain
# (the board image embeds digits.holo, which the simd128 core converts)
extra baremetal build/baremetal build/wasm/core-simd128
extra wasm-tests build/wasm-test/simd128 build/wasm-test/relaxed
extra fuzz-build build/fuzz
finish
