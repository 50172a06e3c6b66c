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
docs/performance.md has the figures; the JSON is written under bench-results/ (git-ignored).
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

from booking.selectors import today
from booking.services.blocks import PartnerEvent, replace_partner_blocks
from booking.services.holds import hold_stay
from booking.services.reservations import release_live_hold

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
        runs["sqlite"], growth["sqlite"] = self.run_database(None, options)
        if not options["skip_postgres"]:
            url = self.fresh_postgres(options["postgres_url"])
            if url:
                runs["postgresql"], growth["postgresql"] = self.run_database(url, options)
        for label, servers in runs.items():
            self.print_table(label, servers)
            if grown := growth.get(label):
                self.print_growth(label, servers["project"], grown)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        report = {
            "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
            "options": {k: options[k] for k in ("duration", "connections", "workers", "burst")},
            "budgets": {**BUDGETS, "cpu_target_times_cheaper_reference": CPU_TARGET},
            "runs": runs,
            "after_a_year": growth,
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

    def run_database(self, database_url: str | None, options) -> tuple[dict, dict | None]:
        """The demo property loaded once, then served by each server in turn; then, with a year of
        use added, by the project again."""
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
            for server in options["servers"].split(","):
                port = free_port()
                base = f"http://127.0.0.1:{port}"
                server_env = {**env, "BASE_URL": base, "PORT": str(port)}
                command = server_commands(port=port, workers=options["workers"], threads=settings.WEB_THREADS)[server]
                results[server] = self.run_server(server, command, server_env, base, options, database=database_url or str(data_dir / "db.sqlite3"))
            if options["no_growth"] or "project" not in results:
                return results, None
            seeded = subprocess.run([*manage, "bench", "--seed-a-year"], env=env, cwd=ROOT, check=True, capture_output=True, text=True)
            self.stdout.write(f"[{label}] a year of use added: {seeded.stdout.strip()}")
            if database_url:
                self.settle_postgres(database_url)
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            command = server_commands(port=port, workers=options["workers"], threads=settings.WEB_THREADS)["project"]
            after = self.run_server("project", command, {**env, "BASE_URL": base, "PORT": str(port)}, base, options, database="", full=False)
            return results, {"seeded": json.loads(seeded.stdout.strip().splitlines()[-1]), "project": after}
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
