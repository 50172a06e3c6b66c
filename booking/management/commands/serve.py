"""`manage.py serve`: the real service — granian (site, API, MCP, A2A on one port), a Celery worker and Celery beat.

One process group: Ctrl-C or SIGTERM stops all three; if one dies, the others are stopped too, so a
supervisor (systemd, a container runtime) sees the failure and restarts the whole service.
"""

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


def web_command(*, host: str, port: int, workers: int, threads: int | None = None) -> list[str]:
    """The web processes: config/web.py under granian's WSGI interface, WEB_THREADS threads each
    (docs/performance.md says why granian and WSGI; tests/live.py starts the same command)."""
    return [
        sys.executable,
        "-m",
        "granian",
        "--interface",
        "wsgi",
        "config.web:application",
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--blocking-threads",
        str(threads or settings.WEB_THREADS),
        "--no-ws",
        "--respawn-failed-workers",
        "--log-level",
        "warning",
    ]


class Command(BaseCommand):
    help = "Serve the site, the API, MCP and A2A with granian, and run the background jobs (Celery worker and beat)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_WORKERS", "2")), help="web worker processes")
        parser.add_argument("--no-jobs", action="store_true", help="serve only the web processes (run workers elsewhere)")

    def handle(self, *args, host, port, workers, no_jobs, **options):
        python = sys.executable
        log_dir = settings.DATA_DIR / "logs"
        log_dir.mkdir(parents=True, exist_ok=True)
        commands = {"web": web_command(host=host, port=port, workers=workers)}
        if not no_jobs:
            commands["worker"] = [
                python,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--loglevel",
                "INFO",
                "--pool",
                "threads",
                "--concurrency",
                "2",
                "--hostname",
                f"worker-{os.getpid()}@%h",
            ]
            commands["beat"] = [
                python,
                "-m",
                "celery",
                "-A",
                "config",
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                settings.CELERY_BEAT_SCHEDULE_FILE,
                "--pidfile=",
            ]
        # Threaded web processes: without a cap glibc gives each thread a malloc arena of its own
        # and memory grows with the number of threads that ever ran.
        envs = {"web": {**os.environ, "MALLOC_ARENA_MAX": os.environ.get("MALLOC_ARENA_MAX", "2")}}
        children = {name: subprocess.Popen(cmd, env=envs.get(name)) for name, cmd in commands.items()}
        self.stdout.write(f"Serving {settings.BASE_URL} on http://{host}:{port} ({', '.join(children)}); Ctrl-C stops everything.")

        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        exit_code = 0
        try:
            while not stopping:
                for name, child in children.items():
                    if child.poll() is not None:
                        self.stderr.write(f"{name} exited with {child.returncode}; stopping the service.")
                        exit_code = child.returncode or 1
                        stopping = True
                        break
                time.sleep(0.5)
        finally:
            for child in children.values():
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 15
            for child in children.values():
                try:
                    child.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    child.kill()
        sys.exit(exit_code)
