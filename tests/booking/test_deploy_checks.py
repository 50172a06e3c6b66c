"""`manage.py check --deploy` passes with an https BASE_URL, and the secret key it generates is
readable by its owner only."""

import os
import subprocess
import sys

from tests.live import ROOT


def test_deploy_checks_pass_with_an_https_base_url(tmp_path):
    env = {**os.environ, "DATA_DIR": str(tmp_path), "BASE_URL": "https://stay.example.com", "DEBUG": "false"}
    env.pop("SECRET_KEY", None)
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
    key = tmp_path / "secret_key"
    assert key.exists() and oct(key.stat().st_mode & 0o777) == "0o600"
