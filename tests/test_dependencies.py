"""The lock files `make run` and `make test` install from pin every package (direct or not), and
agree with the versions pyproject.toml pins: a dependency changed in one place only is caught here.
`make lock` regenerates them."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pins(lock: str) -> dict[str, str]:
    return {name.lower().replace("_", "-"): version for name, version in re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;]+)", (ROOT / lock).read_text(), re.M)}


def declared(extra: str | None = None) -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = project["dependencies"] + (project["optional-dependencies"][extra] if extra else [])
    found = {}
    for requirement in requirements:
        name, _, version = requirement.partition("==")
        assert version, f"{requirement} is not pinned with =="
        found[re.sub(r"\[.*\]", "", name).lower().replace("_", "-")] = version
    return found


def test_the_run_lock_pins_every_dependency_at_pyprojects_version():
    locked = pins("requirements.lock")
    assert {name: locked.get(name) for name in declared()} == declared()


def test_the_test_lock_pins_the_test_dependencies_too():
    locked = pins("requirements-test.lock")
    assert {name: locked.get(name) for name in declared("test")} == declared("test")


def test_every_locked_line_is_an_exact_pin():
    for lock in ("requirements.lock", "requirements-test.lock"):
        lines = [line for line in (ROOT / lock).read_text().splitlines() if line and not line.startswith((" ", "#"))]
        assert lines and all(re.match(r"^[A-Za-z0-9_.\[\],-]+==\S+$", line) for line in lines), lock
