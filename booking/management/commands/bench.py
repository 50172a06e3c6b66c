"""`manage.py bench` (`make bench`): the service under load beside the same Django app served by
gunicorn (gthread) and by granian (WSGI), in one run, measured from a separate process.

For each database (SQLite always; PostgreSQL too when --postgres-url answers) it loads the demo
property once, then serves it three ways in turn on the same data, with DEBUG off and the same
number of processes and threads: the project as `make run` serves it (`manage.py serve`), plain
config.wsgi under gunicorn's gthread workers, and under granian's WSGI interface. It drives each
with wrk over keep-alive connections and prints requests/s, p50 and p99 and the web processes' CPU
time per request (user + system, from /proc) per endpoint, and checks the project against the
cheaper of the two references and the first-round budgets (calendar, hold burst, memory).

Then a year of use is added to the same data through the service's own interfaces (blocks from a
listing platform's calendar through the iCal import, holds made and released through the hold
service, holds left live: `--seed-a-year`, run in the database's environment) and the project is
measured again: each read before and after, with its ratio (GROWTH_TARGETS).

Last (unless --no-channex), the channel manager's delays, with the service as `make run` runs it
(web, Celery worker and beat, the product's schedule) connected to a local Channex test double
started as a process of its own (`python -m partner_sync.channex_double`): how long a direct hold
takes to reach Channex as availability 0, and a platform booking to close the site's calendar, by
webhook and by the feed drain alone (median and worst; CHANNEX_RUNS).
docs/performance.md has the figures; the JSON is written under bench-results/ (git-ignored).
"""

import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import requests
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from booking.catalog.selectors import today
from booking.reservations.services.blocks import PartnerEvent, replace_partner_blocks
from booking.reservations.services.holds import hold_stay
from booking.reservations.services.reservations import release_live_hold

ROOT = Path(settings.BASE_DIR)
RESULTS = ROOT / "bench-results"

BUDGETS = {"calendar_p50_ms": 25, "burst_p99_ms": 500, "web_rss_mb": 150}
# The project's CPU per request: at most this many times the cheaper reference's, on every endpoint.
CPU_TARGET = 1.25
ENDPOINTS = ("health", "property", "home", "availability", "quote", "calendar_18")
# After a year of use (A_YEAR), each read's CPU per request at most this many times the empty
# database's; and a public page at most HOME_TIMES_PROPERTY times the property endpoint's.
GROWTH_TARGETS = {"property": 1.2, "home": 1.2, "availability": 1.2, "quote": 1.2, "calendar_18": 1.3}
HOME_TIMES_PROPERTY = 5
# A year of use, as the issue that asked for this measurement saw it: blocks from a listing
# platform's calendar, holds made and released, holds still live.
A_YEAR = {"partner_blocks": 150, "released_holds": 600, "live_holds": 40}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# The Channex section: direct holds and platform bookings by webhook, one after the other; platform
# bookings whose webhook is lost (only the feed drain, every 60 s, brings them) overlap in one window.
CHANNEX_RUNS = {"direct": 20, "webhook": 20, "feed_only": 5}
CHANNEX_STAY_NIGHTS = 3
# The product's schedule (config/celery.py), which bounds the delays; the bench never changes it.
CHANNEX_SCHEDULE = {"ari_push_every_s": 6, "feed_drain_every_s": 60, "queue_polled_every_s": 1.0}


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


def server_commands(*, port: int, workers: int, threads: int) -> dict[str, list[str]]:
    manage = [sys.executable, str(ROOT / "manage.py")]
    return {
        "project": [*manage, "serve", "--no-jobs", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)],  # config.web under granian
        "gunicorn": [
            *[sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{port}", "--worker-class", "gthread"],
            *["--workers", str(workers), "--threads", str(threads), "--keep-alive", "10", "--log-level", "warning"],
        ],
        "granian": [
            *[sys.executable, "-m", "granian", "--interface", "wsgi", "config.wsgi:application", "--host", "127.0.0.1", "--port", str(port)],
            *["--workers", str(workers), "--blocking-threads", str(threads), "--no-ws", "--log-level", "warning"],
        ],
    }


def no_leak(warm: dict, after: dict) -> bool:
    """At most one database connection per thread, and no other file grown with the requests but
    what a thread started meanwhile holds (on SQLite its connection's WAL file; slack: clients' sockets)."""
    new_threads = max(0, after["threads"] - warm["threads"])
    other_files_gained = (after["open_files"] - after["database_connections"]) - (warm["open_files"] - warm["database_connections"])
    return after["database_connections"] <= after["threads"] and other_files_gained <= 2 * new_threads + 16


class Command(BaseCommand):
    help = "Benchmark the service beside gunicorn (gthread) and granian (WSGI) with wrk, and check the performance target and budgets."

    def add_arguments(self, parser):
        parser.add_argument("--duration", type=int, default=6, help="seconds per wrk run")
        parser.add_argument("--connections", type=int, default=16)
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_WORKERS", "2")))
        parser.add_argument("--burst", type=int, default=40, help="simultaneous holds on the same dates")
        parser.add_argument("--postgres-url", default=os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/bench"))
        parser.add_argument("--skip-postgres", action="store_true")
        parser.add_argument("--servers", default="project,gunicorn,granian", help="comma-separated, of: project, gunicorn, granian")
        parser.add_argument("--no-growth", action="store_true", help="skip the second measurement after a year of use")
        parser.add_argument("--no-channex", action="store_true", help="skip the channel manager's delays (the Channex section)")
        parser.add_argument(
            "--channex-runs",
            default=",".join(f"{k}={v}" for k, v in CHANNEX_RUNS.items()),
            help="samples per direction of the Channex section: direct=N,webhook=N,feed_only=N (0 skips one)",
        )
        parser.add_argument("--seed-a-year", action="store_true", help="add a year of use to this database (DATABASE_URL / DATA_DIR) and stop")

    def handle(self, *args, **options):
        if options["seed_a_year"]:
            self.stdout.write(json.dumps(seed_a_year()))
            return
        if not shutil.which("wrk"):
            raise CommandError("wrk is not installed: `apt-get install wrk` (make bench does this).")
        RESULTS.mkdir(exist_ok=True)
        runs: dict[str, dict] = {}
        growth: dict[str, dict | None] = {}
        channex: dict[str, dict | None] = {}
        runs["sqlite"], growth["sqlite"], channex["sqlite"] = self.run_database(None, options)
        if not options["skip_postgres"]:
            url = self.fresh_postgres(options["postgres_url"])
            if url:
                runs["postgresql"], growth["postgresql"], channex["postgresql"] = self.run_database(url, options)
        for label, servers in runs.items():
            if servers:
                self.print_table(label, servers)
            if grown := growth.get(label):
                self.print_growth(label, servers["project"], grown)
            if delays := channex.get(label):
                self.print_channex(label, delays)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        report = {
            "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
            "options": {k: options[k] for k in ("duration", "connections", "workers", "burst")},
            "budgets": {**BUDGETS, "cpu_target_times_cheaper_reference": CPU_TARGET},
            "runs": runs,
            "after_a_year": growth,
            "channex": channex,
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

    def run_database(self, database_url: str | None, options) -> tuple[dict, dict | None, dict | None]:
        """The demo property loaded once, then served by each server in turn; then, with a year of
        use added, by the project again; then the Channex section on the same data."""
        label = "postgresql" if database_url else "sqlite"
        data_dir = Path(tempfile.mkdtemp(prefix=f"bench-{label}-"))
        env = {**os.environ, "DATA_DIR": str(data_dir), "DEBUG": "false", "BOOKING_RATE_LIMIT": "off"}
        env.pop("DATABASE_URL", None)
        if database_url:
            env["DATABASE_URL"] = database_url
        manage = [sys.executable, str(ROOT / "manage.py")]
        try:
            for step in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"], ["load_demo"]):
                subprocess.run([*manage, *step], env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            if database_url:
                self.settle_postgres(database_url)
            results = {}
            for server in filter(None, options["servers"].split(",")):
                port = free_port()
                base = f"http://127.0.0.1:{port}"
                server_env = {**env, "BASE_URL": base, "PORT": str(port)}
                command = server_commands(port=port, workers=options["workers"], threads=settings.WEB_THREADS)[server]
                results[server] = self.run_server(server, command, server_env, base, options, database=database_url or str(data_dir / "db.sqlite3"))
            growth = None
            if not options["no_growth"] and "project" in results:
                seeded = subprocess.run([*manage, "bench", "--seed-a-year"], env=env, cwd=ROOT, check=True, capture_output=True, text=True)
                self.stdout.write(f"[{label}] a year of use added: {seeded.stdout.strip()}")
                if database_url:
                    self.settle_postgres(database_url)
                port = free_port()
                base = f"http://127.0.0.1:{port}"
                command = server_commands(port=port, workers=options["workers"], threads=settings.WEB_THREADS)["project"]
                after = self.run_server("project", command, {**env, "BASE_URL": base, "PORT": str(port)}, base, options, database="", full=False)
                growth = {"seeded": json.loads(seeded.stdout.strip().splitlines()[-1]), "project": after}
            delays = None if options["no_channex"] else self.run_channex(label, env, data_dir, options)
            return results, growth, delays
        finally:
            shutil.rmtree(data_dir, ignore_errors=True)

    def run_server(self, server: str, command: list[str], env: dict, base: str, options, *, database: str, full: bool = True) -> dict:
        process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, start_new_session=True)
        try:
            self.wait_until_up(base)
            self.stdout.write(f"[{server}] up at {base}; measuring…")
            return self.measure(base, process.pid, options, database=database, full=full and server == "project")
        finally:
            stop_process_group(process)

    @staticmethod
    def settle_postgres(url: str) -> None:
        """Analyze the freshly loaded tables and flush them to disk before measuring: otherwise
        autovacuum and the checkpointer take their turn during the first endpoint's run (health),
        on the same 2 cores, as a production database does not after its first minutes."""
        import psycopg

        with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
            conn.execute("CHECKPOINT")

    def wait_until_up(self, base: str) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if requests.get(base + "/api/v1/health", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise CommandError("the server did not start")

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

    def measure(self, base: str, server_pid: int, options, *, database: str, full: bool) -> dict:
        """Each endpoint under load (req/s, latency, CPU per request); with `full` (the project) also
        one client's calendar latency, a hold burst, memory and the open files and connections."""
        check_in = date.today() + timedelta(days=60)
        stay = {"check_in": str(check_in), "check_out": str(check_in + timedelta(days=4)), "guests": 4}
        query = f"check_in={stay['check_in']}&check_out={stay['check_out']}&guests=4"
        endpoints = {
            "health": (f"{base}/api/v1/health", None),
            "property": (f"{base}/api/v1/property", None),
            "availability": (f"{base}/api/v1/availability?{query}", None),
            "quote": (f"{base}/api/v1/quote", stay),
            "calendar_18": (f"{base}/api/v1/calendar?months=18", None),
            "home": (f"{base}/", None),
        }
        results: dict = {}
        web = [server_pid, *descendants(server_pid)]
        served = 0
        for name, (url, body) in endpoints.items():
            warm_up = self.wrk(url, options, body=body, duration=2)  # rules cached, connections open
            if name == "health" and full:
                handles_warm = open_handles(web, database)
            before = cpu_seconds(web)
            loaded = self.wrk(url, options, body=body)
            loaded["cpu_ms_per_request"] = round((cpu_seconds(web) - before) * 1000 / max(1, loaded["requests"]), 4)
            results[name] = loaded
            served += warm_up["requests"] + loaded["requests"]
        if full:
            single = self.wrk(endpoints["calendar_18"][0], options, connections=1, duration=3)
            results["calendar_18"]["p50_ms_one_client"] = single["p50_ms"]
            served += single["requests"]
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
            status: int | str
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

    # --- The channel manager's delays (Channex) ---------------------------------------------------------

    def run_channex(self, label: str, env: dict, data_dir: Path, options) -> dict:
        """The service as `make run` runs it (web, Celery worker and beat, on the product's schedule),
        connected to the local Channex test double run as a process of its own; the delays measured
        from outside both, through their HTTP interfaces."""
        wanted = {**CHANNEX_RUNS, **{k: int(v) for k, v in (pair.split("=") for pair in options["channex_runs"].split(",") if pair)}}
        ids = {name: str(uuid.uuid4()) for name in ("property", "room_type", "rate_plan")}
        api_key, secret = secrets.token_urlsafe(16), secrets.token_urlsafe(24)
        double_command = [sys.executable, "-m", "partner_sync.channex_double", "--api-key", api_key]
        double_command += [arg for name, value in ids.items() for arg in (f"--{name.replace('_', '-')}-id", value)]
        double = subprocess.Popen(double_command, cwd=ROOT, stdout=subprocess.PIPE, text=True, start_new_session=True)
        log = data_dir / "channex-serve.log"
        try:
            api_base = (double.stdout.readline() if double.stdout else "").strip()
            if not api_base.startswith("http://127.0.0.1:"):
                raise CommandError("the Channex test double did not start")
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            server_env = {
                **env,
                "BASE_URL": base,
                "PORT": str(port),
                "CHANNEX_API_BASE": api_base,
                "CHANNEX_API_KEY": api_key,
                "CHANNEX_PROPERTY_ID": ids["property"],
                "CHANNEX_ROOM_TYPE_ID": ids["room_type"],
                "CHANNEX_RATE_PLAN_ID": ids["rate_plan"],
                "CHANNEX_WEBHOOK_SECRET": secret,
            }
            command = [sys.executable, str(ROOT / "manage.py"), "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(options["workers"])]
            with log.open("w") as output:
                process = subprocess.Popen(command, env=server_env, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                self.wait_until_up(base)
                self.stdout.write(f"[channex] the service with its jobs up at {base}, the Channex double at {api_base}; measuring…")
                results = self.measure_channex(base, api_base, api_key, secret, ids["property"], wanted)
            except Exception:
                self.stdout.write(f"[channex] the service's log ends with:\n{log.read_text()[-3000:]}")
                raise
            finally:
                stop_process_group(process)
            if "error" in results:
                # The lines of the service's log that say why (not the tracebacks' frames).
                said = [line for line in log.read_text().splitlines() if line and not line.startswith((" ", "Traceback", "The above", "During handling"))]
                results["error"] += ": " + " / ".join(said[-3:])
                self.stdout.write(f"[channex] {results['error']}")
            return results
        finally:
            double.terminate()
            double.wait(timeout=10)

    def connect_channex(self, session: requests.Session, base: str, api_base: str, api_key: str, secret: str, property_id: str, count: int) -> list:
        """The webhook created as the host creates it (docs/channex.md, step 9: Channex sends back its
        headers), free stays found, and the first full sync arrived at the double; the stays."""
        double = api_base.removesuffix("/api/v1") + "/_double"
        hook: dict[str, Any] = {"property_id": property_id, "callback_url": f"{base}/partner/channex/webhook", "event_mask": "booking"}
        hook |= {"headers": {"X-Channex-Token": secret}, "is_active": True, "send_data": True}
        session.post(f"{api_base}/webhooks", json={"webhook": hook}, headers={"user-api-key": api_key}, timeout=10).raise_for_status()
        stays = self.free_stays(session, base, count)
        if len(stays) < count:
            self.stdout.write(f"[channex] only {len(stays)} free stays of {CHANNEX_STAY_NIGHTS} nights found: fewer samples")

        # The first connection sends the whole window (a full sync): wait until those nights are there.
        def full_sync_arrived() -> bool:
            received = self.double_availability(session, double, stays[0][0], stays[-1][1])
            return all(received.get(str(stay[0] + timedelta(days=i))) == 1 for stay in stays for i in range(CHANNEX_STAY_NIGHTS))

        if stays and not self.wait_for(full_sync_arrived, 180):
            raise CommandError("the first full sync did not reach the Channex double")
        return stays

    def measure_channex(self, base: str, api_base: str, api_key: str, secret: str, property_id: str, wanted: dict) -> dict:
        session = requests.Session()
        double = api_base.removesuffix("/api/v1") + "/_double"
        stays = self.connect_channex(session, base, api_base, api_key, secret, property_id, sum(wanted.values()))
        direct, by_webhook, feed_only = (
            stays[: wanted["direct"]],
            stays[wanted["direct"] : wanted["direct"] + wanted["webhook"]],
            stays[wanted["direct"] + wanted["webhook"] :],
        )

        def hold_reaches_channex(stay: tuple[date, date]) -> float | None:
            time.sleep(random.uniform(0, CHANNEX_SCHEDULE["ari_push_every_s"]))  # any moment of the push's period
            started = time.monotonic()
            answer = session.post(f"{base}/api/v1/reservations", json={"check_in": str(stay[0]), "check_out": str(stay[1])}, timeout=30)
            if answer.status_code != 201:
                self.stdout.write(f"[channex] hold refused ({answer.status_code}): {answer.text[:200]}")
                return None
            seen = self.wait_for(lambda: all(v == 0 for v in self.double_availability(session, double, *stay).values()), 120, every=0.02)
            return time.monotonic() - started if seen else None

        def platform_booking_closes_calendar(stay: tuple[date, date]) -> float | None:
            time.sleep(random.uniform(0, CHANNEX_SCHEDULE["queue_polled_every_s"]))
            created = session.post(f"{double}/bookings", json={"arrival": str(stay[0]), "departure": str(stay[1]), "ota": "BDC"}, timeout=10).json()
            started = time.monotonic()
            webhook = created["webhook"]
            answer = session.post(f"{base}/partner/channex/webhook", json=webhook["body"], headers=webhook["headers"], timeout=10)
            if answer.status_code != 200:
                self.stdout.write(f"[channex] webhook answered {answer.status_code}: {answer.text[:200]}")
            seen = self.wait_for(lambda: not self.site_available(session, base, stay), 120, every=0.02)
            return time.monotonic() - started if seen else None

        direct_delays: list[float | None] = []
        webhook_delays: list[float | None] = []
        lost_delays: list[float | None] = []
        results: dict[str, Any] = {"schedule": CHANNEX_SCHEDULE, "stay_nights": CHANNEX_STAY_NIGHTS}
        try:
            for stay in direct:
                direct_delays.append(hold_reaches_channex(stay))
            for stay in by_webhook:
                webhook_delays.append(platform_booking_closes_calendar(stay))
            lost_delays = self.lost_webhooks(session, base, double, feed_only)
            status = session.get(f"{base}/api/v1/partner/status", timeout=10)
            results["channel_manager_status"] = status.json().get("channel_manager") if status.ok else None
        except requests.RequestException as error:  # the service stopped: what was measured is kept, and why it stopped
            results["error"] = f"the service stopped answering ({error.__class__.__name__})"
        results |= {
            "direct_to_channex": summary(direct_delays, "a direct hold, until Channex has availability 0 for its nights"),
            "platform_by_webhook": summary(
                webhook_delays, "a platform booking (a new revision, then its webhook), until the site's availability answers false"
            ),
            "platform_feed_only": summary(lost_delays, "a platform booking whose webhook is lost: the feed drain alone"),
        }
        return results

    def lost_webhooks(self, session: requests.Session, base: str, double: str, stays: list[tuple[date, date]]) -> list[float | None]:
        """Platform bookings put in the double at random moments of one drain period, no webhook
        sent; each measured from its own moment (they overlap: one drain may bring several)."""
        period = CHANNEX_SCHEDULE["feed_drain_every_s"]
        moments = sorted(random.uniform(0, period) for _ in stays)
        waiting: dict[tuple[date, date], float] = {}
        delays: dict[tuple[date, date], float] = {}
        begun = time.monotonic()
        upcoming = list(zip(moments, stays, strict=True))
        while (upcoming or waiting) and time.monotonic() - begun < period * 3:
            while upcoming and time.monotonic() - begun >= upcoming[0][0]:
                _, stay = upcoming.pop(0)
                session.post(f"{double}/bookings", json={"arrival": str(stay[0]), "departure": str(stay[1]), "ota": "ABB"}, timeout=10).raise_for_status()
                waiting[stay] = time.monotonic()
            for stay, started in list(waiting.items()):
                if not self.site_available(session, base, stay):
                    delays[stay] = time.monotonic() - started
                    del waiting[stay]
            time.sleep(0.1)
        return [delays.get(stay) for stay in stays]

    @staticmethod
    def free_stays(session: requests.Session, base: str, count: int) -> list[tuple[date, date]]:
        """Stays the site answers as free, a night apart, from three weeks on (asked to the service:
        whatever the runs before left taken, a year of use included, is skipped)."""
        stays: list[tuple[date, date]] = []
        day, last = date.today() + timedelta(days=21), date.today() + timedelta(days=480)
        while len(stays) < count and day < last:
            stay = (day, day + timedelta(days=CHANNEX_STAY_NIGHTS))
            if Command.site_available(session, base, stay):
                stays.append(stay)
                day = stay[1] + timedelta(days=1)
            else:
                day += timedelta(days=1)
        return stays

    @staticmethod
    def site_available(session: requests.Session, base: str, stay: tuple[date, date]) -> bool:
        answer = session.get(f"{base}/api/v1/availability", params={"check_in": str(stay[0]), "check_out": str(stay[1]), "guests": "2"}, timeout=10)
        return answer.ok and bool(answer.json().get("available"))

    @staticmethod
    def double_availability(session: requests.Session, double: str, check_in: date, check_out: date) -> dict:
        """The availability the double has received for the nights [check_in, check_out)."""
        params = {"date_from": str(check_in), "date_to": str(check_out - timedelta(days=1))}
        return session.get(f"{double}/availability", params=params, timeout=10).json()

    @staticmethod
    def wait_for(condition, timeout: float, every: float = 0.1) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(every)
        return False

    def print_channex(self, label: str, delays: dict) -> None:
        schedule = delays["schedule"]
        self.stdout.write(
            f"\n== {label}: the channel manager (Channex double), seconds ==  the product's schedule: ARI push every {schedule['ari_push_every_s']} s,"
            f" feed drain every {schedule['feed_drain_every_s']} s, job queue polled every {schedule['queue_polled_every_s']} s"
        )
        if delays.get("error"):
            self.stdout.write(f"  STOPPED  {delays['error']}")
        self.stdout.write(f"{'':<48}{'samples':>8}{'median':>9}{'worst':>9}{'best':>9}")
        for key, name in (
            ("direct_to_channex", "direct hold → Channex availability 0"),
            ("platform_by_webhook", "platform booking → calendar closed (webhook)"),
            ("platform_feed_only", "platform booking → calendar closed (feed only)"),
        ):
            figures = delays[key]
            if not figures["samples"]:
                self.stdout.write(f"{name:<48}{0:>8}")
                continue
            line = f"{name:<48}{len(figures['samples']):>8}{figures['median_s']:>9.2f}{figures['worst_s']:>9.2f}{figures['best_s']:>9.2f}"
            self.stdout.write(line + (f"  ({figures['missed']} not seen within the wait)" if figures["missed"] else ""))

    def print_table(self, label: str, servers: dict) -> None:
        references = [name for name in ("gunicorn", "granian") if name in servers]
        self.stdout.write(f"\n== {label} ==  CPU ms/request and req/s, {', '.join(servers)}")
        self.stdout.write(f"{'endpoint':<14}" + "".join(f"{name + ' CPU':>15}{'req/s':>8}" for name in servers) + f"{'project ÷ cheaper':>19}")
        checks = {}
        for endpoint in ENDPOINTS:
            line = f"{endpoint:<14}" + "".join(
                f"{servers[name][endpoint]['cpu_ms_per_request']:>15.3f}{servers[name][endpoint]['rps']:>8.0f}" for name in servers
            )
            if "project" in servers and references:
                cheaper = min(servers[name][endpoint]["cpu_ms_per_request"] for name in references) or 1e-9
                ratio = round(servers["project"][endpoint]["cpu_ms_per_request"] / cheaper, 2)
                servers["project"][endpoint]["cpu_times_cheaper_reference"] = ratio
                checks[f"{endpoint}: project CPU/request ≤ {CPU_TARGET} × the cheaper reference"] = ratio <= CPU_TARGET
                line += f"{ratio:>19.2f}"
            self.stdout.write(line)
        project = servers.get("project")
        if project:
            b, h = project["hold_burst"], project["handles"]
            self.stdout.write(
                f"project hold burst: {b['clients']} clients, {b['winners']} winner(s), {b['conflicts_409']} × 409, {b['errors_5xx']} × 5xx,"
                f" other {b['other']}, p50 {b['p50_ms']} ms, p99 {b['p99_ms']} ms"
            )
            self.stdout.write(f"project calendar (18 months), one client: p50 {project['calendar_18']['p50_ms_one_client']} ms")
            self.stdout.write(
                f"project web process RSS after the run: {project['memory']['web_process_rss_mb']} MB (largest of {project['memory']['processes']})"
            )
            self.stdout.write(
                f"after {h['requests_served']} requests: {h['after']['open_files']} open files, {h['after']['database_connections']} database connections"
                f" and {h['after']['threads']} threads (once warm: {h['warm']['open_files']}, {h['warm']['database_connections']} and {h['warm']['threads']})"
            )
            checks |= {
                "calendar 18 months p50 < 25 ms (one client)": (project["calendar_18"]["p50_ms_one_client"] or 999) < BUDGETS["calendar_p50_ms"],
                "hold burst: one winner, no 5xx, p99 < 500 ms": b["winners"] == 1 and b["errors_5xx"] == 0 and b["p99_ms"] < BUDGETS["burst_p99_ms"],
                "web RSS < 150 MB": project["memory"]["web_process_rss_mb"] < BUDGETS["web_rss_mb"],
                "no leak: ≤ 1 connection per thread, no other file gained": no_leak(h["warm"], h["after"]),
                f"home page CPU/request ≤ {HOME_TIMES_PROPERTY} × the property endpoint's": project["home"]["cpu_ms_per_request"]
                <= HOME_TIMES_PROPERTY * project["property"]["cpu_ms_per_request"],
            }
            project["budgets_met"] = checks
        for text, ok in checks.items():
            self.stdout.write(f"  {'PASS' if ok else 'MISS'}  {text}")

    def print_growth(self, label: str, before: dict, growth: dict) -> None:
        after = growth["project"]
        self.stdout.write(f"\n== {label}: the project after a year of use ==  {growth['seeded']}")
        self.stdout.write(f"{'endpoint':<14}{'empty CPU':>12}{'a year CPU':>12}{'ratio':>8}{'target':>8}")
        checks = {}
        for endpoint in ENDPOINTS:
            empty, grown = before[endpoint]["cpu_ms_per_request"], after[endpoint]["cpu_ms_per_request"]
            ratio = round(grown / (empty or 1e-9), 2)
            after[endpoint]["times_empty_database"] = ratio
            target = GROWTH_TARGETS.get(endpoint)
            self.stdout.write(f"{endpoint:<14}{empty:>12.3f}{grown:>12.3f}{ratio:>8.2f}{target or '':>8}")
            if target:
                checks[f"{endpoint}: CPU/request after a year ≤ {target} × the empty database's"] = ratio <= target
        checks[f"home page CPU/request after a year ≤ {HOME_TIMES_PROPERTY} × the property endpoint's"] = (
            after["home"]["cpu_ms_per_request"] <= HOME_TIMES_PROPERTY * after["property"]["cpu_ms_per_request"]
        )
        growth["targets_met"] = checks
        for text, ok in checks.items():
            self.stdout.write(f"  {'PASS' if ok else 'MISS'}  {text}")


def summary(delays: list[float | None], what: str) -> dict:
    """Median and worst of the delays seen (seconds); `missed` counts the runs never seen."""
    seen = sorted(round(d, 3) for d in delays if d is not None)
    figures = {"what": what, "samples": seen, "missed": len(delays) - len(seen)}
    if seen:
        figures |= {"median_s": round(statistics.median(seen), 2), "worst_s": seen[-1], "best_s": seen[0]}
    return figures


def seed_a_year() -> dict:
    """A year of use (A_YEAR) added through the service's own interfaces: a listing platform's
    calendar stored as the partner sync stores it, holds made and released through the hold
    service (every guest who looked at a price and left), holds still live. Leaves the bench's
    own dates free: the availability and quote stay (60 days on) and the hold burst (200 days on)."""
    first = today()
    kept_free = [(first + timedelta(days=55), first + timedelta(days=70)), (first + timedelta(days=195), first + timedelta(days=210))]
    # Cycles of six nights: a platform booking, a free night, another booking, three free nights
    # (where the direct guests hold).
    blocks: list[tuple[date, date]] = []
    windows: list[date] = []
    day = first + timedelta(days=3)
    while len(blocks) < A_YEAR["partner_blocks"]:
        cycle_end = day + timedelta(days=6)
        if not any(day < end and start < cycle_end for start, end in kept_free):
            blocks += [(day, day + timedelta(days=1)), (day + timedelta(days=2), day + timedelta(days=3))]
            windows.append(day + timedelta(days=3))
        day = cycle_end
    # The events a listing platform's feed gives (partner_sync parses them; the bench hands them to
    # the same booking service, which keeps booking from importing partner_sync).
    events = [PartnerEvent(uid=f"bench-{n}@platform.example", start=start, end=end, summary="Reserved") for n, (start, end) in enumerate(blocks)]
    replace_partner_blocks(feed_key="bench-platform", events=events)
    live, released = windows[: A_YEAR["live_holds"]], windows[A_YEAR["live_holds"] :]
    for n in range(A_YEAR["released_holds"]):
        check_in = released[n % len(released)]
        hold = hold_stay(check_in=check_in, check_out=check_in + timedelta(days=3), guests=2)
        release_live_hold(hold.pk, actor="bench", reason="the guest left without paying")
    for check_in in live:
        hold_stay(check_in=check_in, check_out=check_in + timedelta(days=3), guests=2)
    return {"partner_blocks": len(events), "released_holds": A_YEAR["released_holds"], "live_holds": len(live)}
