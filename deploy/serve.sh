#!/usr/bin/env bash
# One replica of the app in hosted mode: the start command of deploy/local.sh, the Dockerfile and
# deploy/k8s/. Usage: deploy/serve.sh [PORT] [ADDRESS]   (defaults: $PORT or 8501, $ADDRESS or 127.0.0.1)
# Everything else comes from the environment (attention/ui/hosting/settings.py): ATTENTION_HOSTED (on unless
# set to 0), ATTENTION_CACHE_MB, ATTENTION_MAX_TRACES, ATTENTION_RSS_BUDGET_MB, ATTENTION_SESSIONS_MB,
# ATTENTION_READY_PORT (default PORT + 1), ATTENTION_WARM (0: ready without loading the models first).
set -euo pipefail
cd "$(dirname "$0")/.."
port="${1:-${PORT:-8501}}"
address="${2:-${ADDRESS:-127.0.0.1}}"
export ATTENTION_HOSTED="${ATTENTION_HOSTED:-1}" HF_HUB_OFFLINE=1
# Each session's script runs in its own thread; glibc gives threads their own heaps (up to 8 per core),
# which keep freed memory apart and grow the resident size. Two heaps hold it down.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
# exec: the process id its starter records is the server's own, so killing it kills the replica.
# attention.ui.hosting.serve: Streamlit's server, plus the models loaded before /ready (ATTENTION_READY_PORT) answers.
export ATTENTION_READY_PORT="${ATTENTION_READY_PORT:-$((port + 1))}" ADDRESS="$address"
exec "${PYTHON:-python}" -m attention.ui.hosting.serve run app.py --server.port="$port" --server.address="$address" \
  --server.headless=true --browser.gatherUsageStats=false --server.fileWatcherType=none
