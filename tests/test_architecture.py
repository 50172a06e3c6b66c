"""The import graph of the project's own packages has no cycles, counting the imports inside
functions too: a lazy import is allowed only where it does not hide a dependency the wrong way
(listed below with the reason), so "one obvious place for everything" stays true.

Read from the source with `ast`, without importing anything."""

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("booking", "config", "discovery", "pages", "partner_sync")

# Imports that stay inside functions, and why.
ALLOWED_LAZY = {
    # AppConfig.ready: models can be imported only once the app registry is filled.
    ("booking.catalog.apps", "booking.catalog"),
    ("booking.catalog.apps", "booking.catalog.signals"),
    ("booking.reservations.apps", "booking.reservations"),
    ("booking.reservations.apps", "booking.reservations.signals"),
    ("booking.reservations.apps", "booking.reservations.emails"),
    ("booking.payments.apps", "booking.payments"),
    ("booking.payments.apps", "booking.payments.emails"),
    ("booking.apps", "booking.tasks"),
    ("booking.apps", "booking"),
    ("booking.italy.apps", "booking.italy"),
    ("booking.italy.apps", "booking.italy.tasks"),
    ("pages.apps", "pages"),
    ("pages.apps", "pages.inquiries"),
    ("pages.apps", "pages.signals"),
    ("partner_sync.apps", "booking.reservations.services.holds"),
    ("partner_sync.apps", "partner_sync.services"),
    ("partner_sync.apps", "booking.reservations.calendar_changes"),
    ("partner_sync.apps", "partner_sync.channex.push"),
    ("partner_sync.apps", "partner_sync.channex.connection"),
    ("config.admin", "booking.admin"),
    ("config.admin", "booking.admin.dashboard"),
    ("config.admin", "booking.admin.charts"),
    # The MCP and A2A SDKs load on the first agent request: about 45 MB a process that serves only
    # the site never needs (docs/performance.md).
    ("config.asgi", "discovery"),
    ("config.asgi", "discovery.a2a_agent"),
    ("config.asgi", "discovery.mcp_server"),
    ("discovery.views", "discovery"),
    ("discovery.views", "discovery.a2a_agent"),
    ("discovery.views", "discovery.mcp_server"),
    ("discovery.views", "discovery.mcp_extras"),
}


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts:
                continue
            name = ".".join(relative.with_suffix("").parts).removesuffix(".__init__")
            modules[name] = path
    return modules


def import_edges(modules: dict[str, Path]) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(module-level edges, edges from imports inside functions) between project modules."""

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    top, lazy = set(), set()
    for name, path in modules.items():
        tree = ast.parse(path.read_text())
        module_level = {id(node) for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom) and not _in_function(tree, node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                resolved = resolve(target)
                if resolved and resolved != name:
                    (top if id(node) in module_level else lazy).add((name, resolved))
    return top, lazy - top


def _in_function(tree: ast.Module, target: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(child is target for child in ast.walk(node)):
            return True
    return False


def cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    graph = defaultdict(set)
    for source, target in edges:
        graph[source].add(target)
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for successor in graph[node]:
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles_even_through_imports_inside_functions():
    top, lazy = import_edges(project_modules())
    assert cycles(top | lazy) == []


def test_every_import_inside_a_function_has_a_reason():
    _, lazy = import_edges(project_modules())
    assert lazy <= ALLOWED_LAZY, sorted(lazy - ALLOWED_LAZY)


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}) == [["a", "b", "c"]]


# Django's internals: no promise between releases, so code on them breaks silently on an upgrade
# (the project once carried its own HTTP request path and database backend on them). Modules under
# these prefixes, and any name with a leading underscore from Django, are imported only where
# listed below, with the reason.
DJANGO_PRIVATE = ("django.db.backends", "django.core.handlers", "django.db.models.sql", "django.utils.translation.trans_real", "django.utils.autoreload")
ALLOWED_DJANGO_PRIVATE = {
    # The Accept-Language parser of Django's own LocaleMiddleware (no public equivalent): the site's
    # language redirect must pick the language exactly as Django's middleware would.
    ("pages.i18n", "django.utils.translation.trans_real"),
}


def django_private_imports() -> set[tuple[str, str]]:
    found = set()
    for name, path in {**project_modules(), **suite_modules()}.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names if alias.name.startswith("_")]
            else:
                continue
            for target in targets:
                if target.startswith(DJANGO_PRIVATE) or (target.startswith("django.") and any(part.startswith("_") for part in target.split("."))):
                    found.add((name, node.module if isinstance(node, ast.ImportFrom) and not target.rpartition(".")[2].startswith("_") else target))
    return found


def test_django_s_internals_are_imported_only_where_listed():
    assert django_private_imports() <= ALLOWED_DJANGO_PRIVATE, sorted(django_private_imports() - ALLOWED_DJANGO_PRIVATE)


def test_the_private_import_check_sees_a_backend_import(tmp_path, monkeypatch):
    module = tmp_path / "probe.py"
    module.write_text("from django.db.backends.postgresql import base\nfrom django.utils.functional import _lazy_proxy_unpickle\n")
    monkeypatch.setitem(globals(), "project_modules", lambda: {"probe": module})
    monkeypatch.setitem(globals(), "suite_modules", lambda: {})
    assert django_private_imports() == {("probe", "django.db.backends.postgresql"), ("probe", "django.utils.functional._lazy_proxy_unpickle")}


def suite_modules() -> dict[str, Path]:
    return {".".join(path.relative_to(ROOT).with_suffix("").parts): path for path in (ROOT / "tests").rglob("*.py")}


def test_services_return_domain_objects_and_leave_json_to_the_adapters():
    """Every app's services (booking/<app>/services/) answer with models and dataclasses; the interfaces encode them."""
    adapters_only = ("booking.api.presenters", "booking.api.payment_presenters", "booking.api", "rest_framework", "discovery")
    found = []
    for name, path in project_modules().items():
        if ".services." not in f"{name}.":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            targets = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [(name, target) for target in targets if target.startswith(adapters_only)]
    assert found == []


def test_the_service_check_sees_every_app_s_services():
    assert {name.split(".")[1] for name in project_modules() if ".services." in f"{name}."} >= {"catalog", "reservations", "payments"}
