#!/usr/bin/env bash
# N replicas of the app in hosted mode behind nginx, on this machine.
#
#   deploy/local.sh N PORT    start N replicas on free loopback ports and nginx on PORT; stays in the
#                             foreground, Ctrl-C stops everything it started
#   deploy/local.sh stop      stop what the last start recorded in its pid file (from another shell)
#
# The pid file (ATTENTION_DEPLOY_PIDS, default deploy/.run/local.pids) has one line per process,
# "replica PID PORT" or "nginx PID PORT", after "run_dir DIR": the temporary folder with nginx's
# config, logs (access.log names the replica that served each request) and the replicas' output.
# nginx runs as a process of its own with that config, never as the system service; it is installed
# with apt when missing. Set ATTENTION_LISTEN=0.0.0.0 to let other machines in (default: loopback only).
# The replicas read the app's settings from the environment (attention/ui/hosting/settings.py).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
pid_file="${ATTENTION_DEPLOY_PIDS:-$here/.run/local.pids}"
listen="${ATTENTION_LISTEN:-127.0.0.1}"
start_timeout="${ATTENTION_START_TIMEOUT:-300}"
python="${PYTHON:-python}"

usage() { echo "usage: $0 N PORT | $0 stop" >&2; exit 2; }

ours() {  # is this pid still one of the processes we started (and not a recycled pid)?
  [[ -r "/proc/$1/cmdline" ]] && tr '\0' ' ' <"/proc/$1/cmdline" | grep -q -e streamlit -e nginx -e serve.sh -e attention.ui.hosting.serve
}

stop_all() {
  [[ -f "$pid_file" ]] || return 0
  local kind pid run_dir="" pids=()
  while read -r kind pid _; do
    if [[ "$kind" == run_dir ]]; then run_dir="$pid"; elif ours "$pid"; then pids+=("$pid"); fi
  done <"$pid_file"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 150); do  # up to 15 s for a clean exit
    local alive=0
    for pid in "${pids[@]}"; do ours "$pid" && alive=1; done
    (( alive )) || break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do ours "$pid" && kill -KILL "$pid" 2>/dev/null || true; done
  rm -f "$pid_file"
  [[ -n "$run_dir" && -d "$run_dir" && "${ATTENTION_KEEP_RUN_DIR:-0}" != 1 ]] && rm -rf "$run_dir"
  return 0
}

wait_health() {  # wait_health URL SECONDS [PATH ANSWER]: until URL/PATH (/_stcore/health) answers ANSWER (ok)
  "$python" - "$1" "$2" "${3:-/_stcore/health}" "${4:-ok}" <<'PY'
import sys, time, urllib.request
url, deadline = sys.argv[1] + sys.argv[3], time.monotonic() + float(sys.argv[2])
while time.monotonic() < deadline:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            if r.read().decode().strip() == sys.argv[4]:
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.3)
sys.exit(f"{url} did not answer ok in time")
PY
}

if [[ "${1:-}" == stop ]]; then stop_all; exit 0; fi
[[ $# -eq 2 && "$1" =~ ^[0-9]+$ && "$2" =~ ^[0-9]+$ ]] || usage
n="$1" port="$2"
(( n >= 1 && n <= 32 )) || { echo "N must be 1..32" >&2; exit 2; }
if [[ -f "$pid_file" ]]; then
  while read -r kind pid _; do
    if [[ "$kind" != run_dir ]] && ours "$pid"; then
      echo "already running (pid $pid in $pid_file): $0 stop" >&2; exit 1
    fi
  done <"$pid_file"
  rm -f "$pid_file"
fi

nginx_bin="$(command -v nginx || true)"
[[ -z "$nginx_bin" && -x /usr/sbin/nginx ]] && nginx_bin=/usr/sbin/nginx
if [[ -z "$nginx_bin" ]]; then
  echo "nginx is missing: installing Debian's nginx with apt" >&2
  sudo=""; [[ "$(id -u)" == 0 ]] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q nginx
  nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
fi

mkdir -p "$(dirname "$pid_file")"
run_dir="$(mktemp -d -t attention-deploy.XXXXXX)"
chmod 755 "$run_dir"  # nginx's workers (an unprivileged user when started as root) write temp files here
echo "run_dir $run_dir" >"$pid_file"
trap 'stop_all; exit 130' INT TERM
trap 'stop_all' EXIT

# 2N distinct free loopback ports, all held open at once while they are chosen: each replica's app and
# its readiness port (attention/ui/hosting/serve.py answers /ready once the models are loaded).
read -r -a ports <<<"$("$python" -c '
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
' "$((2 * n))")"
ready_ports=("${ports[@]:n}")
ports=("${ports[@]:0:n}")

upstreams=""
for i in "${!ports[@]}"; do
  p="${ports[$i]}"
  ATTENTION_READY_PORT="${ready_ports[$i]}" "$here/serve.sh" "$p" 127.0.0.1 >"$run_dir/replica-$((i + 1)).log" 2>&1 &
  echo "replica $! $p" >>"$pid_file"
  # Passive health check (open-source nginx has no active one): 3 failures mark it down for 5 s;
  # each failed request is retried on another replica meanwhile (nginx.conf: proxy_next_upstream).
  upstreams+="        server 127.0.0.1:$p max_fails=3 fail_timeout=5s;"$'\n'
done
# warm before ready: nginx starts once every replica has its models loaded (no visitor waits for a load)
for i in "${!ports[@]}"; do
  wait_health "http://127.0.0.1:${ports[$i]}" "$start_timeout"
  wait_health "http://127.0.0.1:${ready_ports[$i]}" "$start_timeout" /ready ready
done

conf="$(<"$here/nginx.conf")"
conf="${conf//@RUN_DIR@/$run_dir}"
conf="${conf//@LISTEN@/$listen}"
conf="${conf//@PORT@/$port}"
conf="${conf//@UPSTREAMS@/${upstreams%$'\n'}}"
printf '%s\n' "$conf" >"$run_dir/nginx.conf"
"$nginx_bin" -t -q -p "$run_dir" -c "$run_dir/nginx.conf" -e "$run_dir/error.log"
"$nginx_bin" -p "$run_dir" -c "$run_dir/nginx.conf" -e "$run_dir/error.log" -g 'daemon off;' &
nginx_pid=$!
echo "nginx $nginx_pid $port" >>"$pid_file"
health_host="$listen"; [[ "$listen" == 0.0.0.0 ]] && health_host=127.0.0.1
wait_health "http://$health_host:$port" 30
echo "ready: http://$listen:$port ($n replicas on ports ${ports[*]}; process ids in $pid_file;" \
     "Ctrl-C or $0 stop stops them)"
wait "$nginx_pid" || true  # until nginx stops, or a signal runs the trap
