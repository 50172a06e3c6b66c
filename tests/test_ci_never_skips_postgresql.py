"""`make test` under CI=true fails when PostgreSQL cannot be reached, rather than skipping the run
that alone holds the lock-control race, the exclusion constraint and the pool tests (issue 28)."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNREACHABLE = "postgres://postgres@127.0.0.1:1/nothing_listens_here"

pytestmark = pytest.mark.skipif(not shutil.which("make"), reason="make is not installed")


def make_test_postgres(*, ci: str) -> subprocess.CompletedProcess:
    # On the command line, CI= overrides the environment's (CI systems set CI=true themselves).
    args = ["make", "--no-print-directory", "-s", "-o", ".venv/.installed-test", "test-postgres", f"TEST_POSTGRES_URL={UNREACHABLE}", f"CI={ci}"]
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_under_ci_an_unreachable_postgresql_fails_with_a_clear_message():
    result = make_test_postgres(ci="true")
    assert result.returncode != 0
    assert "not reachable, and CI never skips it" in result.stderr


def test_outside_ci_it_is_skipped_and_says_so():
    result = make_test_postgres(ci="")
    assert result.returncode == 0 and "the PostgreSQL run is skipped" in result.stdout
