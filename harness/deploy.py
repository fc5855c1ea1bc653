"""Start deploy/local.sh (N replicas in hosted mode behind nginx) for the tests and benchmarks, read
its pid file and nginx's access log, and stop everything it started by process id."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from harness.app_server import ROOT, free_port

LOCAL_SH = ROOT / "deploy" / "local.sh"


@dataclass(frozen=True)
class Replica:
    pid: int
    port: int

    @property
    def addr(self) -> str:
        return f"127.0.0.1:{self.port}"


@dataclass(frozen=True)
class Deployment:
    url: str
    replicas: tuple[Replica, ...]
    nginx_pid: int
    run_dir: Path
    script_pid: int

    def routes(self) -> dict[str, str]:
        """Route cookie → the replica address that last served it (from nginx's access log)."""
        served: dict[str, str] = {}
        for line in (self.run_dir / "access.log").read_text().splitlines():
            m = re.search(r"route=(\S+) upstream=(.*?) upstream_status=", line)
            if m and m.group(2) != "-":
                served[m.group(1)] = m.group(2).split(",")[-1].strip()  # the last one tried served it
        return served

    def error_statuses(self) -> list[str]:
        """Access-log lines answered by nginx with a 5xx (its own error page: no replica answered)."""
        return [line for line in (self.run_dir / "access.log").read_text().splitlines()
                if re.search(r"^\S+ 5\d\d ", line)]


def read_pid_file(path: Path) -> tuple[Path | None, list[Replica], int | None]:
    run_dir, replicas, nginx = None, [], None
    for line in path.read_text().splitlines():
        kind, value, *rest = line.split()
        if kind == "run_dir":
            run_dir = Path(value)
        elif kind == "replica":
            replicas.append(Replica(int(value), int(rest[0])))
        elif kind == "nginx":
            nginx = int(value)
    return run_dir, replicas, nginx


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@contextlib.contextmanager
def local_deployment(n: int, work_dir: Path, start_timeout: float = 300,
                     extra_env: dict[str, str] | None = None) -> Iterator[Deployment]:
    """deploy/local.sh n PORT on a free loopback port; yields once nginx answers through itself.
    Afterwards stops the script (its trap stops what it started) and then, by process id, anything
    in the pid file still alive; nginx's and the replicas' logs are copied into work_dir, and the
    script's temporary folder is removed."""
    work_dir.mkdir(parents=True, exist_ok=True)
    pid_file, port = work_dir / "local.pids", free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ATTENTION_DEPLOY_PIDS": str(pid_file),
           "ATTENTION_START_TIMEOUT": str(int(start_timeout)), "ATTENTION_KEEP_RUN_DIR": "1",
           **(extra_env or {})}
    out = open(work_dir / "local.out", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(["bash", str(LOCAL_SH), str(n), str(port)], cwd=ROOT, env=env, stdout=out,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + start_timeout + 60
        while "ready:" not in (work_dir / "local.out").read_text():
            if proc.poll() is not None:
                raise RuntimeError(f"deploy/local.sh exited ({proc.returncode}): "
                                   f"{(work_dir / 'local.out').read_text()[-2000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError("deploy/local.sh did not get ready in time")
            time.sleep(0.3)
        run_dir, replicas, nginx = read_pid_file(pid_file)
        assert run_dir and nginx and len(replicas) == n, pid_file.read_text()
        yield Deployment(f"http://127.0.0.1:{port}", tuple(replicas), nginx, run_dir, proc.pid)
    finally:
        started, run_dir = [], None
        if pid_file.exists():  # read before the script's own stop removes it
            run_dir, replicas, nginx = read_pid_file(pid_file)
            started = [r.pid for r in replicas] + ([nginx] if nginx else [])
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGTERM)  # its trap stops the replicas and nginx
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        out.close()
        for pid in started:  # whatever the script could not stop
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if run_dir and run_dir.is_dir():  # keep the logs beside the caller's other evidence, drop the rest
            for log in run_dir.glob("*.log"):
                shutil.copy(log, work_dir / log.name)
            shutil.rmtree(run_dir, ignore_errors=True)
