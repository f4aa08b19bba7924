#!/usr/bin/env bash
# Run the shared codectx retrieval benchmark against a codectx server and compare with the
# BM25 baselines.
#
#   scripts/bench-retrieval.sh [SERVER_CMD] [-- RUN_PY_ARGS...]
#
#   SERVER_CMD   default: "target/release/codectx serve" (relative to the repo root, which is
#                the working directory of run.py and so of the server)
#   RUN_PY_ARGS  passed on to the kit's run.py, e.g. -- --limit 10, -- --ids requests-120a2f3,
#                -- --repeat 1 --log-dir bench-data/bench-results/logs
#
# Environment:
#   CODECTX_BENCH_KIT          the kit (default ../shared/bench, relative to the repo root)
#   CODECTX_BENCH_MIRROR_ROOT  fetched git mirrors, <owner>+<name>/ each (default: the kit's
#                              ~/.cache/codectx-bench/mirrors, else /work/.mirror if present)
#   CODECTX_BENCH_WS_ROOT      workspaces (kit default ~/.cache/codectx-bench/ws)
#   BENCH_RESULTS              results dir (default bench-data/bench-results, gitignored)
#   BENCH_SYSTEM               system label and results file name (default codectx)
#
# Writes $BENCH_RESULTS/$BENCH_SYSTEM.jsonl, runs the baselines into $BENCH_RESULTS if their
# results are missing, and prints `score.py --compare` (with --only-present when the run was
# restricted with --limit/--ids). Nothing of the kit is copied into the repository.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SERVER="target/release/codectx serve"
if [[ $# -gt 0 && "$1" != "--" ]]; then
    SERVER="$1"
    shift
fi
if [[ $# -gt 0 && "$1" == "--" ]]; then
    shift
fi
RUN_ARGS=("$@")

KIT="${CODECTX_BENCH_KIT:-../shared/bench}"
[[ "$KIT" = /* ]] || KIT="$ROOT/$KIT"
[[ -f "$KIT/run.py" && -f "$KIT/score.py" ]] || { echo "benchmark kit not found at $KIT (set CODECTX_BENCH_KIT)" >&2; exit 1; }
KIT="$(cd "$KIT" && pwd)"

RESULTS="${BENCH_RESULTS:-$ROOT/bench-data/bench-results}"
mkdir -p "$RESULTS"
RESULTS="$(cd "$RESULTS" && pwd)"
SYSTEM="${BENCH_SYSTEM:-codectx}"
OUT="$RESULTS/$SYSTEM.jsonl"

if [[ -z "${CODECTX_BENCH_MIRROR_ROOT:-}" ]]; then
    if [[ ! -d "$HOME/.cache/codectx-bench/mirrors" && -d /work/.mirror ]]; then
        export CODECTX_BENCH_MIRROR_ROOT=/work/.mirror
    fi
fi

PY="${PYTHON:-python3}"
log() { printf '[bench-retrieval] %s\n' "$*" >&2; }

# The server binary must exist (a relative path is relative to the repo root).
server_bin="${SERVER%% *}"
if [[ "$server_bin" == */* && ! -x "$server_bin" ]]; then
    log "server binary $server_bin not found; build it first (cargo build --release)"
    exit 1
fi

# 1. workspaces
if ! "$PY" "$KIT/materialize.py" --check >/dev/null 2>&1; then
    log "materializing workspaces (mirrors: ${CODECTX_BENCH_MIRROR_ROOT:-kit default})"
    "$PY" "$KIT/materialize.py"
fi

# 2. baselines, once
if [[ ! -s "$RESULTS/bm25dump.jsonl" || ! -s "$RESULTS/bm25budget.jsonl" ]]; then
    log "running the BM25 baselines into $RESULTS"
    "$PY" "$KIT/baseline_bm25.py" --outdir "$RESULTS"
fi

# 3. codectx
log "server: $SERVER  ->  $OUT"
"$PY" "$KIT/run.py" --server "$SERVER" --system "$SYSTEM" --out "$OUT" ${RUN_ARGS[@]+"${RUN_ARGS[@]}"}

# 4. scores
SCORE_ARGS=()
for a in ${RUN_ARGS[@]+"${RUN_ARGS[@]}"}; do
    case "$a" in
        --limit|--limit=*|--ids|--ids=*) SCORE_ARGS=(--only-present) ;;
    esac
done
"$PY" "$KIT/score.py" ${SCORE_ARGS[@]+"${SCORE_ARGS[@]}"} \
    --compare "$OUT" "$RESULTS/bm25dump.jsonl" "$RESULTS/bm25budget.jsonl"
