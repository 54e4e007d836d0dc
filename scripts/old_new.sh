#!/usr/bin/env bash
# Two builds of the library timed against each other on the CPU, in one process: OLD (a revision) against the
# working tree (uncommitted changes included), on the cases of benches/vs_parry/cases.rs (mix, cube_sphere482, hull1000_box,
# hull1000_hull1000, hull5000_..., hull20000_...).
#
#   scripts/old_new.sh OLD [CASES] [KIND] [ROUNDS]
#   scripts/old_new.sh HEAD mix,hull1000_box penetration 150
#   ALIGN=1 scripts/old_new.sh HEAD     # functions and jump targets aligned (-align-all-functions=6,
#                                       # -align-all-nofallthru-blocks=5), built in target/old-new/aligned/
#
# Prints a Markdown table: per case, old time over new time (above 1: the working tree is faster) with OLD linked
# in slot A, then in slot B (median over rounds, quartiles), their combination, and whether both builds gave the same
# answers (the sum of the case's answers, bit for bit).
#
# Why not a switch inside one build: on this project's dev VM a switch read in the hot path (old and new code side by
# side in one binary) reported 8% to 16% gains for an EPA change that two separate builds read 3% to 6% slower with
# aligned code: the switch moves code and changes inlining for both arms. Why two slots, both orders: where a build is
# linked moves it too (that change read 11% to 20% faster with OLD in one slot and 1% to 7% slower in the other), so
# the script builds the harness twice, OLD in slot A then in slot B, and combines the two medians so that the slot's
# own share cancels: old/new = sqrt((A/B with OLD in A) / (A/B with OLD in B)); two copies of one revision read
# 0.99-1.01 so. Where the two slots disagree by more than the effect, code placement is deciding, not the change: try
# ALIGN=1, which takes most of the placement out (docs/benchmarks.md, "Method notes"). Each build copies the
# revision's src/ and shaders/ into target/old-new/ as a package of its own (features and dependencies from that
# revision's Cargo.toml), and shares target/ so the dependencies compile once. The cases code (benches/vs_parry/cases.rs, pairs.rs) is the working
# tree's, for both: the library's API they call must exist in OLD.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
old=${1:?usage: scripts/old_new.sh OLD [CASES] [KIND] [ROUNDS]}
cases=${2:-mix,cube_sphere482,hull1000_box,hull1000_hull1000}
kind=${3:-penetration}
rounds=${4:-100}
work=$root/target/old-new
target=$root/target
if [ "${ALIGN:-0}" = 1 ]; then
    # Other flags, other artifacts: a target directory of its own, so target/ keeps its builds.
    target=$work/aligned
    export RUSTFLAGS="${RUSTFLAGS:-} -C llvm-args=-align-all-functions=6 -C llvm-args=-align-all-nofallthru-blocks=5"
fi
rm -rf "$work/old" "$work/new" "$work/harness"
mkdir -p "$work/old" "$work/new" "$work/harness/src"

# A package named $2 in $1 from the Cargo.toml text on stdin: its [features] and [dependencies], no binaries.
package() {
    {
        printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2021"\n\n' "$2"
        sed -n '/^\[features\]/,/^\[dev-dependencies\]/p' | sed '$d'
    } >"$1/Cargo.toml"
    rm -rf "$1/src/main.rs" "$1/src/bin"
}
git -C "$root" archive "$old" src shaders README.md | tar -x -C "$work/old"
git -C "$root" show "$old:Cargo.toml" | package "$work/old" gjk-old
(cd "$root" && tar -c src shaders README.md) | tar -x -C "$work/new"
package "$work/new" gjk-new <"$root/Cargo.toml"

cp "$root/benches/old_new/harness.rs" "$work/harness/src/main.rs"
cp "$root/benches/alternation/mod.rs" "$work/harness/src/alternation.rs"
cp "$root/benches/vs_parry/timed_passes.rs" "$work/harness/src/timed_passes.rs"
for slot in a b; do
    mkdir -p "$work/harness/src/cases_$slot" "$work/harness/src/pairs_$slot"
    sed "s/gpu_gjk/slot_$slot/g; s/crate::pairs::/crate::pairs_$slot::/g" "$root/benches/vs_parry/cases.rs" \
        >"$work/harness/src/cases_$slot/mod.rs"
    sed "s/gpu_gjk/slot_$slot/g" "$root/benches/vs_parry/pairs.rs" >"$work/harness/src/pairs_$slot/mod.rs"
done
cp "$root/Cargo.lock" "$work/harness/Cargo.lock"
# The cube and sphere assets, found next to the harness's manifest.
ln -s "$root/assets" "$work/harness/assets"

# Builds the harness with package $1 in slot A and $2 in slot B, and prints its RESULT lines.
run() {
    cat >"$work/harness/Cargo.toml" <<TOML
[package]
name = "old-new-harness"
version = "0.1.0"
edition = "2021"

[dependencies]
slot_a = { package = "$1", path = "../${1#gjk-}", default-features = false, features = ["scenario"] }
slot_b = { package = "$2", path = "../${2#gjk-}", default-features = false, features = ["scenario"] }
glam = "0.33"
parry3d = "0.31"
rand = "0.9"
rand_pcg = "0.9"

[profile.release]
debug = "line-tables-only"

# Its own workspace (it sits under target/ of this one).
[workspace]
TOML
    if ! CARGO_TARGET_DIR=$target cargo build --release --quiet --manifest-path "$work/harness/Cargo.toml" \
        >"$work/build.log" 2>&1; then
        cat "$work/build.log" >&2
        exit 1
    fi
    "$target/release/old-new-harness" "$cases" "$kind" "$rounds" 2>/dev/null
}
echo "old = $old ($(git -C "$root" rev-parse --short "$old")), new = the working tree; $kind, $rounds rounds" >&2
first=$(run gjk-old gjk-new)
second=$(run gjk-new gjk-old)
echo "| case | old/new, old in slot A | old/new, old in slot B | old/new (slot cancelled) | answers |"
echo "|---|---:|---:|---:|---|"
paste -d'\n' <(echo "$first") <(echo "$second") | paste - - | awk '{
    # first: A=old, B=new: A/B = old/new. second: A=new, B=old: A/B = new/old.
    ab1 = $4; lo1 = $5; hi1 = $6; ab2 = $12; lo2 = $13; hi2 = $14
    same = ($8 == "same" && $16 == "same") ? "same" : "DIFFER"
    printf "| %s | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) | %.3f | %s |\n", $2, ab1, lo1, hi1, 1 / ab2, 1 / hi2, 1 / lo2, sqrt(ab1 / ab2), same
}'
