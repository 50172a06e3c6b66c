"""The import graph of the project's own packages has no cycles, counting the imports inside
functions too: a lazy import is allowed only where it does not hide a dependency the wrong way
(listed below with the reason), so "one obvious place for everything" stays true.

Read from the source with `ast`, without importing anything."""

import ast
import re
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


def service_modules() -> dict[str, Path]:
    """Every app's services: booking/<app>/services/*.py."""
    return {name: path for name, path in project_modules().items() if re.match(r"booking\.\w+\.services(\.|$)", name)}


def imported_names(tree: ast.AST) -> list[str]:
    """Every module (and `from` name, as module.name) a module imports, wherever it does."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names += [node.module or "", *(f"{node.module}.{alias.name}" for alias in node.names)]
    return names


def test_there_are_services_to_check():
    assert {"booking.reservations.services.holds", "booking.catalog.services.rates", "booking.payments.services.owner_bookings"} <= set(service_modules())


def test_services_return_domain_objects_and_leave_json_to_the_adapters():
    """booking/<app>/services/ answer with models and dataclasses; the interfaces encode them."""
    adapters_only = ("booking.api", "rest_framework", "drf_spectacular", "discovery", "pages")
    found = []
    for name, path in service_modules().items():
        found += [(name, target) for target in imported_names(ast.parse(path.read_text())) if target.startswith(adapters_only)]
    assert found == []


# Services that still write an email's text themselves (issue #39: the outbox is to build each
# email at send time, as booking/*/emails.py do). No other service renders a template.
STILL_WRITE_AN_EMAIL = {
    "booking.payments.services.owner_bookings",
    "booking.payments.services.date_changes",
    "booking.payments.services.balances",
    "booking.payments.services.money_alerts",
    "booking.payments.services.security_deposits",
    "booking.reservations.services.hold_reminders",
}


def test_services_render_no_page_or_template():
    templates = ("django.template", "django.shortcuts")
    found = []
    for name, path in service_modules().items():
        if name in STILL_WRITE_AN_EMAIL:
            continue
        found += [(name, target) for target in imported_names(ast.parse(path.read_text())) if target.startswith(templates)]
    assert found == []


# Where an interface reads its input from: the first part of an error's `loc`.
LOCATIONS = {"body", "query", "path", "header", "arguments"}


def test_services_name_fields_and_leave_their_location_to_the_interfaces():
    """A service's InvalidInput names the field ("check_in", ("extras", 0, "code")); no service
    builds a `loc`, takes a `location` or puts "body"/"query" in a list or tuple."""
    found = []
    for name, path in service_modules().items():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.List, ast.Tuple)):
                found += [(name, node.lineno, e.value) for e in node.elts if isinstance(e, ast.Constant) and e.value in LOCATIONS]
            elif isinstance(node, ast.Dict):
                found += [(name, node.lineno, "loc") for key in node.keys if isinstance(key, ast.Constant) and key.value == "loc"]
            elif isinstance(node, ast.arg) and node.arg in {"location", "loc", "key_location"}:
                found += [(name, node.lineno, node.arg)]
            elif isinstance(node, ast.Attribute) and node.attr in {"single", "located"} and getattr(node.value, "id", "") == "InvalidInput":
                found += [(name, node.lineno, f"InvalidInput.{node.attr}")]
    assert found == []


def test_the_location_check_sees_a_body_location(tmp_path):
    tree = ast.parse('raise InvalidInput.single(["body", "end"], "x", "y")')
    assert any(isinstance(n, ast.List) and any(getattr(e, "value", None) == "body" for e in n.elts) for n in ast.walk(tree))
