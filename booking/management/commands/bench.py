"""`manage.py bench` (`make bench`): the service under load, measured from a separate process.

Starts the service as `make run` does (uvicorn, DEBUG off, production settings) on a fresh data
directory, drives it with wrk over keep-alive connections and prints requests/s, p50 and p99 per
endpoint, the web processes' CPU time per request (user + system, read from /proc) beside that of a
bare ASGI app served by the same uvicorn with the same options in the same run (the reference:
booking/bench/bare_asgi.py), each endpoint's throughput as a ratio of GET /api/v1/health (the
framework floor), a hold burst, and the web processes' memory. SQLite always; PostgreSQL too when
--postgres-url answers. Figures are also written as JSON under bench-results/ (git-ignored).
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import date, timedelta
from pathlib import Path

import requests
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from booking.management.commands.serve import web_command

ROOT = Path(settings.BASE_DIR)
RESULTS = ROOT / "bench-results"

BUDGETS = {
    "availability_ratio": 0.6,
    "quote_ratio": 0.6,
    "property_ratio": 0.8,
    "calendar_p50_ms": 25,
    "burst_p99_ms": 500,
    "web_rss_mb": 150,
}
# CPU per request of the web processes, at most this many times the bare ASGI app's (16 connections).
CPU_BUDGETS = {"health": 12, "property": 12, "availability": 20, "quote": 20, "calendar_18": 30}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def parse_wrk(output: str) -> dict:
    def latency_ms(label):
        match = re.search(rf"^\s*{label}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M)
        if not match:
            return None
        value, unit = float(match[1]), match[2]
        return round(value / 1000 if unit == "us" else value * 1000 if unit == "s" else value, 2)

    rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
    requests_done = re.search(r"(\d+) requests in", output)
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {
        "rps": float(rps[1]) if rps else 0.0,
        "requests": int(requests_done[1]) if requests_done else 0,
        "p50_ms": latency_ms("50"),
        "p99_ms": latency_ms("99"),
        "non_2xx": int(non_2xx[1]) if non_2xx else 0,
        "socket_errors": sum(int(x) for x in errors.groups()) if errors else 0,
    }


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except FileNotFoundError:
        pass
    return 0.0


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes (all their threads), in seconds."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / CLOCK_TICKS


def open_handles(pids: list[int], database: str) -> dict:
    """Open files of these processes, and their database connections: file handles on the SQLite
    database, or PostgreSQL backends on the bench database (all clients are the web processes)."""
    files = 0
    threads = 0
    sqlite_handles = 0
    for pid in pids:
        try:
            descriptors = list(Path(f"/proc/{pid}/fd").iterdir())
            threads += int(next(line.split()[1] for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("Threads:")))
        except FileNotFoundError:
            continue
        files += len(descriptors)
        for fd in descriptors:
            try:
                sqlite_handles += os.readlink(fd) == database
            except OSError:
                pass
    if database.startswith("postgres"):
        import psycopg

        with psycopg.connect(database.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
            row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()
        connections = row[0] if row else 0
    else:
        connections = sqlite_handles
    return {"open_files": files, "database_connections": connections, "threads": threads}


def stop_process_group(server: subprocess.Popen) -> None:
    """SIGTERM the server's process group (it was started in a session of its own), then SIGKILL."""
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)


def descendants(pid: int) -> list[int]:
    children = []
    for task in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = task.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, IndexError, ProcessLookupError):
            continue
        if int(fields[1]) == pid:
            child = int(task.parent.name)
            children += [child, *descendants(child)]
    return children


class Command(BaseCommand):
    help = "Benchmark the service with wrk (SQLite, and PostgreSQL when reachable) and check the performance budgets."

    def add_arguments(self, parser):
        parser.add_argument("--duration", type=int, default=8, help="seconds per wrk run")
        parser.add_argument("--connections", type=int, default=16)
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_WORKERS", "2")))
        parser.add_argument("--burst", type=int, default=40, help="simultaneous holds on the same dates")
        parser.add_argument("--postgres-url", default=os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/bench"))
        parser.add_argument("--skip-postgres", action="store_true")

    def handle(self, *args, **options):
        if not shutil.which("wrk"):
            raise CommandError("wrk is not installed: `apt-get install wrk` (make bench does this).")
        RESULTS.mkdir(exist_ok=True)
        runs = {"bare_asgi": self.run_bare(options), "sqlite": self.run_one(None, options)}
        if not options["skip_postgres"]:
            url = self.fresh_postgres(options["postgres_url"])
            if url:
                runs["postgresql"] = self.run_one(url, options)
        self.print_table(runs)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        report = {
            "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
            "options": {k: options[k] for k in ("duration", "connections", "workers", "burst")},
            "budgets": {**BUDGETS, "cpu_times_bare": CPU_BUDGETS},
            "runs": runs,
        }
        for name in (f"bench-{stamp}.json", "latest.json"):
            (RESULTS / name).write_text(json.dumps(report, indent=2))
        self.stdout.write(f"\nFigures written to {RESULTS / 'latest.json'}")

    def fresh_postgres(self, url: str) -> str | None:
        import psycopg

        dsn = url.replace("postgres://", "postgresql://", 1)
        name = dsn.rsplit("/", 1)[1]
        admin = dsn.rsplit("/", 1)[0] + "/postgres"
        try:
            with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                conn.execute(f'CREATE DATABASE "{name}"')
        except Exception as error:  # noqa: BLE001
            self.stdout.write(f"PostgreSQL at {url} is not usable ({error.__class__.__name__}); its run is skipped.")
            return None
        return url

    def run_one(self, database_url: str | None, options) -> dict:
        label = "postgresql" if database_url else "sqlite"
        data_dir = Path(tempfile.mkdtemp(prefix=f"bench-{label}-"))
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = {**os.environ, "DATA_DIR": str(data_dir), "BASE_URL": base, "DEBUG": "false", "BOOKING_RATE_LIMIT": "off", "PORT": str(port)}
        env.pop("DATABASE_URL", None)
        if database_url:
            env["DATABASE_URL"] = database_url
        manage = [sys.executable, str(ROOT / "manage.py")]
        for step in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"], ["load_demo"]):
            subprocess.run([*manage, *step], env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        if database_url:
            self.settle_postgres(database_url)
        server = subprocess.Popen(
            [*manage, "serve", "--no-jobs", "--host", "127.0.0.1", "--port", str(port), "--workers", str(options["workers"])],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            self.wait_until_up(base)
            self.stdout.write(f"[{label}] service up at {base} ({options['workers']} web workers); measuring…")
            results = self.measure(base, server.pid, options, database=database_url or str(data_dir / "db.sqlite3"))
            # The bare app again, right after: the reference is taken under the same machine load.
            results["bare_asgi"] = self.run_bare(options)
            return results
        finally:
            stop_process_group(server)
            shutil.rmtree(data_dir, ignore_errors=True)

    @staticmethod
    def settle_postgres(url: str) -> None:
        """Analyze the freshly loaded tables and flush them to disk before measuring: otherwise
        autovacuum and the checkpointer take their turn during the first endpoint's run (health),
        on the same 2 cores, as a production database does not after its first minutes."""
        import psycopg

        with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
            conn.execute("CHECKPOINT")

    def run_bare(self, options) -> dict:
        """CPU per request of the bare ASGI app under the same uvicorn, workers and connections."""
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            web_command("booking.bench.bare_asgi:application", host="127.0.0.1", port=port, workers=options["workers"]),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            self.wait_until_up(base)
            web = descendants(server.pid)
            self.wrk(base + "/", options, duration=2)
            before = cpu_seconds(web)
            loaded = self.wrk(base + "/", options)
            loaded["cpu_ms_per_request"] = round((cpu_seconds(web) - before) * 1000 / max(1, loaded["requests"]), 4)
            return loaded
        finally:
            stop_process_group(server)

    def wait_until_up(self, base: str) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if requests.get(base + "/api/v1/health", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise CommandError("the service did not start")

    def wrk(self, url: str, options, connections: int | None = None, body: dict | None = None, duration: int | None = None) -> dict:
        connections = connections or options["connections"]
        command = ["wrk", "-t", str(min(2, connections)), "-c", str(connections), "-d", f"{duration or options['duration']}s", "--latency", "--timeout", "5s"]
        script = None
        if body is not None:
            script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
            script.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[' + json.dumps(body) + "]]\n")
            script.close()
            command += ["-s", script.name]
        try:
            output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
        finally:
            if script:
                os.unlink(script.name)
        return parse_wrk(output)

    def measure(self, base: str, server_pid: int, options, *, database: str) -> dict:
        check_in = date.today() + timedelta(days=60)
        stay = {"check_in": str(check_in), "check_out": str(check_in + timedelta(days=4)), "guests": 4}
        query = f"check_in={stay['check_in']}&check_out={stay['check_out']}&guests=4"
        endpoints = {
            "health": (f"{base}/api/v1/health", None),
            "property": (f"{base}/api/v1/property", None),
            "availability": (f"{base}/api/v1/availability?{query}", None),
            "quote": (f"{base}/api/v1/quote", stay),
            "calendar_18": (f"{base}/api/v1/calendar?months=18", None),
        }
        results = {}
        web = descendants(server_pid)  # `serve --no-jobs`: the uvicorn supervisor and its workers
        served = 0
        for name, (url, body) in endpoints.items():
            warm_up = self.wrk(url, options, body=body, duration=2)  # rules cached, connections open
            if name == "health":
                handles_warm = open_handles(web, database)
            before = cpu_seconds(web)
            loaded = self.wrk(url, options, body=body)
            loaded["cpu_ms_per_request"] = round((cpu_seconds(web) - before) * 1000 / max(1, loaded["requests"]), 4)
            single = self.wrk(url, options, connections=1, body=body, duration=max(3, options["duration"] // 2))
            results[name] = {**loaded, "p50_ms_one_client": single["p50_ms"], "p99_ms_one_client": single["p99_ms"]}
            served += warm_up["requests"] + loaded["requests"] + single["requests"]
        floor = results["health"]["rps"] or 1
        for name in results:
            results[name]["ratio_to_floor"] = round(results[name]["rps"] / floor, 2)
        # No leak: the open files and database connections of the web processes after every request
        # above, against the same count once warm.
        results["handles"] = {"requests_served": served, "warm": handles_warm, "after": open_handles(web, database)}
        results["hold_burst"] = self.hold_burst(base, options["burst"])
        results["memory"] = {"web_process_rss_mb": max((rss_mb(pid) for pid in web), default=0.0), "processes": len(web)}
        return results

    def hold_burst(self, base: str, clients: int) -> dict:
        check_in = date.today() + timedelta(days=200)
        body = {"check_in": str(check_in), "check_out": str(check_in + timedelta(days=3))}
        barrier = threading.Barrier(clients)

        def attempt(_):
            session = requests.Session()
            session.get(base + "/api/v1/health", timeout=10)
            barrier.wait(timeout=30)
            started = time.monotonic()
            try:
                status = session.post(base + "/api/v1/reservations", json=body, timeout=30).status_code
            except requests.RequestException:
                status = "error"
            return status, (time.monotonic() - started) * 1000

        with ThreadPoolExecutor(clients) as pool:
            outcomes = list(pool.map(attempt, range(clients)))
        statuses = Counter(status for status, _ in outcomes)
        latencies = sorted(ms for _, ms in outcomes)
        return {
            "clients": clients,
            "winners": statuses.get(201, 0),
            "conflicts_409": statuses.get(409, 0),
            "errors_5xx": sum(n for s, n in statuses.items() if isinstance(s, int) and s >= 500),
            "other": {str(s): n for s, n in statuses.items() if s not in (201, 409) and not (isinstance(s, int) and s >= 500)},
            "p50_ms": round(latencies[len(latencies) // 2], 1),
            "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 1),
        }

    def print_table(self, runs: dict) -> None:
        rows = ["health", "property", "availability", "quote", "calendar_18"]
        first_bare = runs["bare_asgi"]
        self.stdout.write(f"\nbare ASGI app (reference), before the runs: {first_bare['rps']:.0f} req/s, {first_bare['cpu_ms_per_request']:.3f} ms CPU/request")
        for label, r in runs.items():
            if label == "bare_asgi":
                continue
            bare = r["bare_asgi"]
            bare_cpu = bare["cpu_ms_per_request"] or 1e-9
            self.stdout.write(f"\n== {label} ==  (bare ASGI app after this run: {bare['rps']:.0f} req/s, {bare['cpu_ms_per_request']:.3f} ms CPU/request)")
            self.stdout.write(f"{'endpoint':<14}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'p50 1c':>9}{'ratio':>8}{'CPU ms/req':>12}{'× bare':>9}")
            for name in rows:
                e = r[name]
                e["cpu_times_bare"] = round(e["cpu_ms_per_request"] / bare_cpu, 1)
                self.stdout.write(
                    f"{name:<14}{e['rps']:>9.0f}{e['p50_ms'] or 0:>9.2f}{e['p99_ms'] or 0:>9.2f}{e['p50_ms_one_client'] or 0:>9.2f}{e['ratio_to_floor']:>8.2f}{e['cpu_ms_per_request']:>12.3f}{e['cpu_times_bare']:>9.1f}"
                )
            b = r["hold_burst"]
            self.stdout.write(
                f"hold burst: {b['clients']} clients, {b['winners']} winner(s), {b['conflicts_409']} × 409, {b['errors_5xx']} × 5xx, other {b['other']}, p50 {b['p50_ms']} ms, p99 {b['p99_ms']} ms"
            )
            self.stdout.write(f"web process RSS after the run: {r['memory']['web_process_rss_mb']} MB (largest of {r['memory']['processes']})")
            h = r["handles"]
            self.stdout.write(
                f"after {h['requests_served']} requests: {h['after']['open_files']} open files, {h['after']['database_connections']} database connections"
                f" and {h['after']['threads']} threads in the web processes (once warm: {h['warm']['open_files']}, {h['warm']['database_connections']} and {h['warm']['threads']})"
            )
            checks = {
                "availability ≥ 0.6 × floor": r["availability"]["ratio_to_floor"] >= BUDGETS["availability_ratio"],
                "quote ≥ 0.6 × floor": r["quote"]["ratio_to_floor"] >= BUDGETS["quote_ratio"],
                "property ≥ 0.8 × floor": r["property"]["ratio_to_floor"] >= BUDGETS["property_ratio"],
                "calendar 18 months p50 < 25 ms (one client)": (r["calendar_18"]["p50_ms_one_client"] or 999) < BUDGETS["calendar_p50_ms"],
                "hold burst: one winner, no 5xx, p99 < 500 ms": b["winners"] == 1 and b["errors_5xx"] == 0 and b["p99_ms"] < BUDGETS["burst_p99_ms"],
                "web RSS < 150 MB": r["memory"]["web_process_rss_mb"] < BUDGETS["web_rss_mb"],
                # A pool thread started under a later load opens one connection for good: at most one
                # per thread, and no other file grows with the requests (slack: clients' sockets).
                "no leak: ≤ 1 connection per thread, no other file gained": h["after"]["database_connections"] <= h["after"]["threads"]
                and h["after"]["open_files"] - h["after"]["database_connections"] <= h["warm"]["open_files"] - h["warm"]["database_connections"] + 16,
                **{f"{name} CPU/request ≤ {limit} × bare ASGI": r[name]["cpu_times_bare"] <= limit for name, limit in CPU_BUDGETS.items()},
            }
            r["budgets_met"] = checks
            for text, ok in checks.items():
                self.stdout.write(f"  {'PASS' if ok else 'MISS'}  {text}")
