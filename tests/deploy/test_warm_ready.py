"""Warm before ready (attention/ui/hosting/serve.py through deploy/serve.sh, the replicas' one start command): the
readiness port answers /ready only once the models are in the app's cache, so a visitor sent there after it
is served without a model load; /metrics serves the queue length the autoscaler may scale on. Loopback only;
the replica is stopped by its process id."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from harness.app_server import ROOT

BOUND_S = 600  # a safety bound for loading three models on a busy machine, not a measurement


def free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()
    except OSError as exc:
        return 0, str(exc)


@pytest.mark.timeout(BOUND_S + 60)
def test_ready_answers_only_once_the_models_are_loaded(tmp_path) -> None:
    port, ready_port = free_ports(2)
    env = {**os.environ, "ATTENTION_READY_PORT": str(ready_port)}
    with open(tmp_path / "replica.log", "w") as out:
        proc = subprocess.Popen([str(ROOT / "deploy" / "serve.sh"), str(port), "127.0.0.1"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline, seen = time.monotonic() + BOUND_S, []
        while time.monotonic() < deadline:
            status, body = get(f"http://127.0.0.1:{ready_port}/ready")
            seen.append(status)
            if status == 200:
                break
            assert proc.poll() is None, (tmp_path / "replica.log").read_text()[-3000:]
            time.sleep(0.5)
        assert seen[-1] == 200, f"never ready: {seen[-5:]}"
        assert set(seen) <= {0, 503, 200}  # not listening yet, warming, ready: nothing else
        _, metrics = get(f"http://127.0.0.1:{ready_port}/metrics")
        values = dict(line.split() for line in metrics.splitlines())
        assert values["attention_ready"] == "1"
        assert int(values["attention_models_loaded"]) >= 2  # MiniLM and the translator (SmolLM2 when expanded)
        assert values["attention_queue_waiting"] == "0"
        assert get(f"http://127.0.0.1:{port}/_stcore/health") == (200, "ok")  # liveness: the server itself
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(30)
