"""`manage.py serve`: the real service — uvicorn (site, API, MCP), a Celery worker and Celery beat.

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


def web_command(app: str, *, host: str, port: int, workers: int) -> list[str]:
    """The uvicorn command line of the web processes (`manage.py bench` serves its bare reference app
    with the same one)."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        app,
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--no-server-header",
        "--timeout-keep-alive",
        "10",
        "--log-level",
        "warning",
        # Forwarded headers are believed only from TRUSTED_PROXIES (as booking.api.base.client_ip does).
        *(["--proxy-headers", "--forwarded-allow-ips", ",".join(settings.TRUSTED_PROXIES)] if settings.TRUSTED_PROXIES else ["--no-proxy-headers"]),
    ]


class Command(BaseCommand):
    help = "Serve the site, the API and MCP with uvicorn, and run the background jobs (Celery worker and beat)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_WORKERS", "2")), help="uvicorn worker processes")
        parser.add_argument("--no-jobs", action="store_true", help="serve only the web processes (run workers elsewhere)")

    def handle(self, *args, host, port, workers, no_jobs, **options):
        python = sys.executable
        log_dir = settings.DATA_DIR / "logs"
        log_dir.mkdir(parents=True, exist_ok=True)
        commands = {"web": web_command("config.asgi:application", host=host, port=port, workers=workers)}
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
