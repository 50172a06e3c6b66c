"""A live server for tests: the real service (config/web.py under granian, as `make run` serves it) in its own process, on the test
database (a file for SQLite, test_<name> on PostgreSQL), so requests race as they would in production."""

import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import requests
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or "postgres"
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}@{host}:{port}/{db['NAME']}"


_static_collected = False
# base URL → pid of its server process, while it runs (tests that look at the process's open files).
server_pids: dict[str, int] = {}


def collect_static_once() -> None:
    """The live server serves collected static files (whitenoise, manifest names), as `make run`
    does after `collectstatic`; collect them once per test session."""
    global _static_collected
    if not _static_collected:
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, check=True)
        _static_collected = True


def web_command(port: int, *, workers: int = 1, threads: int | None = None) -> list[str]:
    """The service on a loopback port, started as `make run` starts it (manage.py serve's web command)."""
    from booking.management.commands.serve import web_command as served

    return served(host="127.0.0.1", port=port, workers=workers, threads=threads)


@contextmanager
def live_server(*, workers: int = 1, env: dict | None = None, ready_path: str = "/api/v1/health", jobs: bool = False):
    """Start the server on a free port against the current test database; yield its base URL.

    With jobs=True a Celery worker runs beside it, as under `make run`, on a Redis broker of its
    own (the emails of the outbox are delivered by it)."""
    collect_static_once()
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    child_env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "BASE_URL": base_url,
        "BOOKING_RATE_LIMIT": "off",
        "DEBUG": "false",
        **({"CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{12 + port % 3}", "CELERY_TASK_ALWAYS_EAGER": "false"} if jobs else {}),
        **(env or {}),
    }
    worker = None
    if jobs:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "WARNING", "--hostname", f"test-{port}@%h"],
            cwd=ROOT,
            env=child_env,
        )
    process = subprocess.Popen(
        web_command(port, workers=workers, threads=int(child_env["WEB_THREADS"]) if "WEB_THREADS" in child_env else None),
        cwd=ROOT,
        env=child_env,
        start_new_session=True,  # granian's worker processes are stopped with it (its process group)
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(base_url + ready_path, timeout=5).status_code < 500:
                    break
            except requests.RequestException:  # not listening yet, or still warming up
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"live server did not start (exit code {process.poll()})")
            time.sleep(0.2)
        server_pids[base_url] = process.pid
        yield base_url
    finally:
        server_pids.pop(base_url, None)
        stop_group(process)
        if worker is not None:
            worker.terminate()
            try:
                worker.wait(timeout=10)
            except subprocess.TimeoutExpired:
                worker.kill()


def server_processes(base_url: str) -> list[int]:
    """The pids of a running live server: granian's main process and its workers."""
    main = server_pids[base_url]
    children = Path(f"/proc/{main}/task/{main}/children").read_text().split()
    return [main, *map(int, children)]


def local_ports(pid: int) -> list[int]:
    """The local TCP ports of a process's sockets (from /proc: socket inodes → /proc/net/tcp)."""
    inodes = {os.readlink(fd)[8:-1] for fd in Path(f"/proc/{pid}/fd").iterdir() if os.readlink(fd).startswith("socket:[")}
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def stop_group(process: subprocess.Popen) -> None:
    """SIGTERM a server started in a session of its own and its workers, then SIGKILL what is left."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass
