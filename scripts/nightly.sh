#!/usr/bin/env bash
# The nightly fuzz job: build, run a campaign over every device on every core, reduce what
# the campaign left unreduced, bucket, and report against the previous night's history;
# then append tonight to the history. Exit code 1 when a bucket is new (and not a known
# issue in corpus/known-issues.toml), 2 when something could not run, else 0.
#
#   scripts/nightly.sh [MINUTES=10]
#
# Environment:
#   NIGHTLY_DIR     where nights go (default: nightly/ in the repository)
#   NIGHTLY_SEED    first seed (default: the UTC day number x 10^7, so a night is
#                   reproducible and every night tests new programs)
#   NIGHTLY_JOBS    workers (default: every core, nproc)
#   REDUCE_BUDGET   seconds per reduction of a reproducer the campaign left unreduced (default 60)
#   EUFUZZ_ZOO      inject zoo bugs (NAME, a,b or all; builds with the zoo feature)
#   BISECT_SECONDS  time budget for bisecting tonight's new buckets (the commit that
#                   introduced each) and gone ones (the commit that fixed each) between the
#                   previous night's revision and tonight's, with `eufuzz bisect`; the report
#                   then says "introduced by" / "fixed by" (default 1800; 0: no bisection;
#                   needs jq; checked between builds, so one build may run over it)
#   BISECT_ARGS     more `eufuzz bisect` flags, such as "--cache DIR --cache-mb 4096"
#   COVERAGE_SECONDS also measure source coverage: a campaign of this many seconds with an
#                   instrumented build (scripts/coverage.sh, same seed); the report shows
#                   it and the history keeps its trend (default 0: not measured)
#
# Each night is NIGHTLY_DIR/YYYY-MM-DD-HHMM/ with the reproducers, stats.json,
# buckets.txt, campaign.log, rebucket.log and report.html / report.md /
# report.json, and with bisections bisect.log and bisect/N.json;
# NIGHTLY_DIR/history.jsonl has one line per night and NIGHTLY_DIR/latest points to the
# last night.
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=${1:-10}
if [[ ! "$minutes" =~ ^[0-9]+$ || "$minutes" -eq 0 ]]; then
    echo "usage: scripts/nightly.sh [MINUTES=10] (whole minutes, at least 1)" >&2
    exit 2
fi
root=${NIGHTLY_DIR:-nightly}
jobs=${NIGHTLY_JOBS:-$(nproc)}
seed=${NIGHTLY_SEED:-$(($(date -u +%s) / 86400 * 10000000))}
reduce_budget=${REDUCE_BUDGET:-60}
zoo=${EUFUZZ_ZOO:-}

# The build records the revision it is built from (git describe) in the statistics.
revision=$(git describe --always --dirty 2>/dev/null || echo unknown)
features=()
zoo_args=()
if [[ -n "$zoo" ]]; then
    features=(--features zoo)
    zoo_args=(--zoo "$zoo")
fi
echo "nightly: building release ($revision)" >&2
cargo build -q --release -p triage "${features[@]}" || {
    echo "nightly: the build failed" >&2
    exit 2
}

mkdir -p "$root"
# A private copy of the binary: a rebuild of target/ during the night must not change it.
bin="$root/eufuzz"
cp "${CARGO_TARGET_DIR:-target}/release/eufuzz" "$bin.tmp-$$"
mv "$bin.tmp-$$" "$bin"

night="$root/$(date -u +%Y-%m-%d-%H%M)"
if [[ -e "$night" ]]; then
    night="$night-$$"
fi
mkdir -p "$night"
history="$root/history.jsonl"

# Workers: `--jobs` where the campaign has it (one worker otherwise).
jobs_args=()
# (The help is read whole: `grep -q` on a pipe would stop it early, a failure under pipefail.)
campaign_help=$("$bin" campaign --help)
if [[ "$campaign_help" == *--jobs* ]]; then
    jobs_args=(--jobs "$jobs")
else
    echo "nightly: this campaign has no --jobs; running one worker" >&2
fi

echo "nightly: $minutes min campaign, seed $seed, ${jobs_args[*]:-1 worker} -> $night" >&2
campaign=(campaign --time $((minutes * 60)) --seed "$seed" --out "$night"
    --stats-json "$night/stats.json" "${jobs_args[@]}" "${zoo_args[@]}")
echo "eufuzz ${campaign[*]}" > "$night/campaign.log"
status=0
CI=true "$bin" "${campaign[@]}" >> "$night/campaign.log" 2>&1 || status=$?
# 0: nothing found, 1: failures found; anything else is the campaign's own failure.
if [[ $status -gt 1 ]]; then
    echo "nightly: the campaign exited with $status (see $night/campaign.log)" >&2
    [[ -f "$night/stats.json" ]] || exit 2
fi

# Reduce every reproducer the campaign filed unreduced (it ended before their reduction
# ran), NIGHTLY_JOBS at a time, each against the options its failure was found with, and
# key it on its reduction.
"$bin" rebucket --reduce --budget "$reduce_budget" --jobs "$jobs" "$night" \
    > "$night/rebucket.log" 2>&1 ||
    echo "nightly: rebucket failed (see $night/rebucket.log)" >&2
"$bin" bucket "$night" > "$night/buckets.txt"

if [[ "${COVERAGE_SECONDS:-0}" -gt 0 ]]; then
    echo "nightly: ${COVERAGE_SECONDS}-s coverage run" >&2
    if COVERAGE_SEED=$seed scripts/coverage.sh "$COVERAGE_SECONDS" "$night/coverage" \
        > "$night/coverage.log" 2>&1; then
        cp "$night/coverage/coverage.json" "$night/coverage.json"
    else
        echo "nightly: the coverage run failed (see $night/coverage.log)" >&2
    fi
fi

previous=()
if [[ -s "$history" ]]; then
    previous=(--previous "$history")
fi
# The previous night's revision and directory, read before tonight is appended: the
# bisections start there.
previous_revision=""
if [[ -s "$history" ]] && command -v jq > /dev/null; then
    previous_revision=$(tail -n 1 "$history" | jq -r '.revision // empty' || true)
fi
previous_night=$(readlink "$root/latest" 2> /dev/null || true)
report_args=("$night" "${previous[@]}" --append-history "$history"
    --html "$night/report.html" --md "$night/report.md" --json "$night/report.json")
report=0
"$bin" report "${report_args[@]}" || report=$?

# Bisect what changed since the previous night, within BISECT_SECONDS, then report again
# (the report replaces its own history line) with the commits named.
bisect_seconds=${BISECT_SECONDS:-1800}
bisect_dir="$night/bisect"
bisected=0
# A commit to bisect to: the recorded revision (git describe) without a -dirty build.
commit_of() {
    [[ -n "$1" && "$1" != *-dirty && "$1" != unknown ]] || return 1
    git rev-parse --verify -q "$1^{commit}"
}
# bisect_one FILE KEY [--fixed]: one bucket, with what is left of the budget.
bisect_one() {
    local left=$((deadline - SECONDS))
    if ((left <= 0)); then
        echo "nightly: bisection budget spent; $2 not bisected" >&2
        return 1
    fi
    bisected=$((bisected + 1))
    echo "== $2 ($1)" >> "$night/bisect.log"
    "$bin" bisect "$1" --good "$old" --bad "$new" --bucket "$2" --time "$left" \
        --json "$bisect_dir/$bisected.json" "${build_args[@]}" "${@:3}" \
        >> "$night/bisect.log" 2>&1 ||
        echo "nightly: bisecting $2 named no single commit (see $night/bisect.log)" >&2
}
if ((bisect_seconds > 0)) && [[ -n "$previous_revision" ]]; then
    old=$(commit_of "$previous_revision" || true)
    new=$(commit_of "$revision" || true)
    if [[ -z "$old" || -z "$new" ]]; then
        echo "nightly: not bisecting: revision $previous_revision or $revision is not a clean commit" >&2
    elif [[ "$old" != "$new" ]]; then
        deadline=$((SECONDS + bisect_seconds))
        read -r -a build_args <<< "${BISECT_ARGS:-}"
        if [[ -n "$zoo" ]]; then
            # Zoo binaries in a cache of their own: a cache keeps one binary per commit.
            build_args=(--build-cmd "cargo build --release -p triage --features zoo"
                --cache "${XDG_CACHE_HOME:-$HOME/.cache}/eufuzz/bisect-zoo" "${build_args[@]}")
        fi
        mkdir -p "$bisect_dir"
        # New buckets: tonight's reproducer.
        while IFS=$'\t' read -r key file; do
            bisect_one "$night/$file" "$key" || break
        done < <(jq -r '.buckets[] | select(.status == "new" and .reproducer != null)
            | [.key, .reproducer.file] | @tsv' "$night/report.json")
        # Gone buckets: a reproducer of the previous night, which failed there.
        while read -r key; do
            [[ -n "$previous_night" ]] || break
            file=$(grep -lxF "# bucket: $key" "$root/$previous_night"/*.eu 2> /dev/null | head -n 1 || true)
            [[ -n "$file" ]] || continue
            bisect_one "$file" "$key" --fixed || break
        done < <(jq -r '.buckets[] | select(.status == "gone") | .key' "$night/report.json")
        if ((bisected > 0)); then
            report=0
            "$bin" report "${report_args[@]}" --bisections "$bisect_dir" || report=$?
        fi
    fi
fi
ln -sfn "$(basename "$night")" "$root/latest"
echo "nightly: reports in $night/report.{html,md,json}" >&2
if [[ $report -eq 1 ]]; then
    echo "nightly: NEW bucket(s) tonight" >&2
fi
exit "$report"
