"""Every file README.md and docs/ name exists: a path in the text (`booking/reservations/models.py`,
`config/web.py`, any `….py`) or a link to another page. A doc that names a moved or deleted file
misleads the next reader; this keeps the docs true to the tree. A path in another project (the UCP
specification's) is written from that project's name (`ucp/docs/specification/…`), so it is not
taken for one of ours."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted(ROOT.glob("*/README.md"))]
TOP = sorted(entry.name for entry in ROOT.iterdir() if entry.is_dir() and not entry.name.startswith("."))
# A path: from one of the repository's folders, or any path with a slash that ends in a file's
# extension; checked when it starts at one of our folders or is Python (always ours).
PATH = re.compile(
    r"(?<![\w/.:@~-])((?:"
    + "|".join(map(re.escape, TOP))
    + r")/[\w.*/-]*[\w*/]|[\w-]+(?:/[\w.*-]+)+\.(?:py|md|toml|json|html|css|js|po|csv|txt|ya?ml|sh))(?![\w{<])"
)
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
NOT_IN_THE_TREE = ("var/", "bench-results/", "staticfiles/", ".venv/")  # written by the service or the tools, git-ignored


def named_paths(doc: Path) -> set[str]:
    text = doc.read_text()
    found = {match.group(1) for match in PATH.finditer(text)}
    ours = {path for path in found if path.split("/")[0] in TOP or path.endswith(".py")}
    return {path for path in ours if not path.startswith(NOT_IN_THE_TREE)}


def linked_paths(doc: Path) -> set[Path]:
    targets = (match.group(1) for match in LINK.finditer(doc.read_text()))
    return {doc.parent / target for target in targets if not re.match(r"[a-z]+:", target)}


def exists(path: str) -> bool:
    return any(ROOT.glob(path.rstrip("/"))) if "*" in path else (ROOT / path).exists()


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: str(doc.relative_to(ROOT)))
def test_every_path_a_doc_names_exists(doc):
    missing = sorted(path for path in named_paths(doc) if not exists(path))
    missing += sorted(str(path.relative_to(ROOT)) for path in linked_paths(doc) if not path.exists())
    assert not missing, f"{doc.relative_to(ROOT)} names files the repository does not have: {missing}"


def test_the_paths_are_found():
    """The pattern finds the paths the README names (the check above checks something)."""
    assert {"config/web.py", "booking/api/validation.py"} <= named_paths(ROOT / "README.md")
