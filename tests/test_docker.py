"""The container setup, checked without a Docker engine: docker/compose.yaml parses, every
long-running service has a health check and runs a command that names something real, the
Dockerfile copies files that exist, and .env.example and docs/operations.md list every variable
the settings read."""

from __future__ import annotations

import importlib
import re
import runpy
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCKER = ROOT / "docker"
APP_SERVICES = {
    *("web", "worker", "worker-hard", "worker-push", "worker-analysis", "beat", "migrate"),
}
LONG_RUNNING = {
    *("postgres", "redis", "web", "worker", "worker-hard", "worker-push", "worker-analysis"),
    "beat",
}
WORKERS = ("worker", "worker-hard", "worker-push", "worker-analysis")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


def _command(service: dict[str, Any]) -> list[str]:
    command = service["command"]
    return shlex.split(command) if isinstance(command, str) else [str(c) for c in command]


def _healthcheck_text(service: dict[str, Any]) -> str:
    test = service["healthcheck"]["test"]
    return " ".join(test) if isinstance(test, list) else test


def test_every_service_exists_and_the_long_running_ones_have_health_checks(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    assert set(services) == LONG_RUNNING | {"migrate"}
    assert services["postgres"]["image"].split(":")[1].startswith("16")
    assert services["redis"]["image"].split(":")[1].startswith("7")
    for name in LONG_RUNNING:
        check = services[name].get("healthcheck")
        assert check and check.get("test"), f"{name} has no health check"
        assert check["test"][0] in ("CMD", "CMD-SHELL"), name
    assert "pg_isready" in _healthcheck_text(services["postgres"])
    assert "redis-cli ping" in _healthcheck_text(services["redis"])
    assert "/healthz" in _healthcheck_text(services["web"])
    for name in WORKERS:
        assert "inspect ping" in _healthcheck_text(services[name])
    # The one-off migration runs to completion before anything that uses the schema.
    assert services["migrate"]["restart"] == "no"
    for name in ("web", *WORKERS, "beat"):
        deps = services[name]["depends_on"]
        assert deps["migrate"]["condition"] == "service_completed_successfully", name
        assert deps["postgres"]["condition"] == "service_healthy", name
        assert deps["redis"]["condition"] == "service_healthy", name


def test_app_services_share_the_image_and_the_production_environment(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    for name in APP_SERVICES:
        service = services[name]
        assert service["build"]["dockerfile"] == "docker/Dockerfile"
        assert (DOCKER / service["build"]["context"] / service["build"]["dockerfile"]).is_file()
        env = service["environment"]
        assert (
            env["DATABASE_URL"].startswith("postgres://")
            and "@postgres:5432/" in env["DATABASE_URL"]
        )
        assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379/")
        assert env["CACHE_URL"].startswith("redis://redis:6379/")
        assert env["CACHE_URL"] != env["CELERY_BROKER_URL"]
        assert ":?" in env["DJANGO_SECRET_KEY"]  # compose refuses to start without one
        assert env["DJANGO_DEBUG"] == "false"
        assert "127.0.0.1" in env["DJANGO_ALLOWED_HOSTS"]  # the health check's host


def test_web_runs_gunicorn_on_the_real_asgi_application(compose: dict[str, Any]) -> None:
    command = _command(compose["services"]["web"])
    assert command[0] == "gunicorn"
    module, _, attribute = command[1].partition(":")
    assert module == "baloot_site.asgi"  # HTTP and the WebSocket streams
    asgi = importlib.import_module(module)
    assert callable(getattr(asgi, attribute))
    assert any(arg.startswith("--bind=0.0.0.0:8000") for arg in command)
    worker_class = next(a for a in command if a.startswith("--worker-class="))
    worker_module, _, worker_name = worker_class.partition("=")[2].rpartition(".")
    assert callable(getattr(importlib.import_module(worker_module), worker_name))


@pytest.mark.parametrize(
    ("service", "role"),
    [
        ("worker", "worker"),
        ("worker-hard", "worker"),
        ("worker-push", "worker"),
        ("worker-analysis", "worker"),
        ("beat", "beat"),
    ],
)
def test_celery_services_name_the_real_app(
    compose: dict[str, Any], service: str, role: str
) -> None:
    command = _command(compose["services"][service])
    assert command[:2] == ["celery", "-A"]
    from celery import Celery

    app = importlib.import_module(f"{command[2]}.celery").app
    assert isinstance(app, Celery)
    assert command[3] == role
    if role == "beat":
        # beat is there to publish the deadline sweep, which the worker must know
        from django.conf import settings

        from games import tasks
        from live.push import tasks as push_tasks

        scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
        assert tasks.sweep_deadlines.name in scheduled
        assert push_tasks.sweep_outbox.name in scheduled  # consumed by the push worker
        assert tasks.sweep_analyses.name in scheduled  # consumed by the analysis worker


def _option(command: list[str], name: str) -> str:
    (value,) = [arg.partition("=")[2] for arg in command if arg.startswith(f"{name}=")]
    return value


def _queues() -> dict[str, str]:
    """Each worker's queue, as the task modules name them (from CELERY_TASK_ROUTES)."""
    from games import tasks
    from live.push import tasks as push_tasks

    return {
        "worker": tasks.DEFAULT_QUEUE,
        "worker-hard": tasks.HARD_BOT_QUEUE,
        "worker-push": push_tasks.PUSH_QUEUE,
        "worker-analysis": tasks.ANALYSIS_QUEUE,
    }


@pytest.mark.parametrize(
    ("service", "node"),
    [
        ("worker", "celery"),
        ("worker-hard", "hard"),
        ("worker-push", "push"),
        ("worker-analysis", "analysis"),
    ],
)
def test_each_worker_consumes_its_own_queue_and_its_health_check_pings_it(
    compose: dict[str, Any], service: str, node: str
) -> None:
    """The hard bots' turns and push delivery are routed to queues of their own
    (CELERY_TASK_ROUTES): the default worker must not take them, and the hard and push workers
    must take nothing else."""
    command = _command(compose["services"][service])
    assert _option(command, "--queues") == _queues()[service]
    assert _option(command, "--hostname") == f"{node}@%h"
    assert f"-d {node}@$$HOSTNAME" in _healthcheck_text(compose["services"][service])
    assert command[command.index("-O") + 1] == "fair"
    assert "BALOOT_HARD_BOT_TIME_BUDGET" in compose["services"][service]["environment"]


def test_make_run_supervises_a_worker_for_each_queue() -> None:
    """scripts/supervise.py (make run) starts, and restarts, one worker per queue."""
    # Its globals, as a script (it is not a package module; its main() does not run).
    supervise = runpy.run_path(str(ROOT / "scripts" / "supervise.py"))
    queues = {
        name: _option(command, "--queues")
        for name, command in supervise["COMMANDS"].items()
        if "worker" in command
    }
    assert queues == _queues()
    assert supervise["NICENESS"] == {
        "worker-hard": supervise["HARD_WORKER_NICENESS"],
        "worker-analysis": supervise["ANALYSIS_WORKER_NICENESS"],
    }
    assert 0 < supervise["HARD_WORKER_NICENESS"] < supervise["ANALYSIS_WORKER_NICENESS"]


def test_migrate_runs_django_migrate(compose: dict[str, Any]) -> None:
    command = _command(compose["services"]["migrate"])
    assert command[:3] == ["python", "manage.py", "migrate"]
    assert (ROOT / "manage.py").is_file()


def test_dockerfile_is_slim_non_root_installs_from_pyproject_and_copies_real_files() -> None:
    text = (DOCKER / "Dockerfile").read_text()
    lines = [
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    ]
    assert lines[0] == "FROM python:3.11-slim"
    copies = [shlex.split(line)[1:-1] for line in lines if line.startswith("COPY ")]
    assert copies
    for sources in copies:
        for source in sources:
            assert (ROOT / source).exists(), f"Dockerfile copies missing {source}"
    assert "pip install ." in text
    assert "collectstatic --noinput" in text
    user = [line for line in lines if line.startswith("USER ")]
    assert user and user[-1] != "USER root"
    entrypoint = re.search(r'^ENTRYPOINT \["([^"]+)"\]', text, re.M)
    assert entrypoint and f"/usr/local/bin/{entrypoint.group(1)}" in text
    assert 'CMD ["gunicorn", "baloot_site.asgi:application"' in text
    # uvicorn's worker with proxy headers off (tests/security/test_client_address_server.py)
    assert "baloot_site.workers.ProxyHeadersOffUvicornWorker" in text
    script = DOCKER / "entrypoint.sh"
    assert script.read_text().startswith("#!/bin/sh")
    assert 'exec "$@"' in script.read_text()


def test_the_package_ships_its_templates() -> None:
    # A regular install (the image's) only carries non-Python files pyproject names.
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["games"]
    templates = [p.relative_to(ROOT / "games") for p in (ROOT / "games").rglob("*.html")]
    assert templates
    for template in templates:
        assert template.parts[0] == "templates" and "templates/**/*.html" in patterns, template


def test_env_example_lists_every_variable_the_settings_read() -> None:
    settings_text = (ROOT / "baloot_site" / "settings.py").read_text()
    read = set(re.findall(r'env(?:\.\w+)?\(\s*"([A-Z][A-Z0-9_]+)"', settings_text))
    read |= set(re.findall(r'os\.environ\.get\(\s*"([A-Z][A-Z0-9_]+)"', settings_text))
    assert {"DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "DJANGO_SECRET_KEY"} <= read
    example = (ROOT / ".env.example").read_text()
    listed = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", example, re.M))
    assert read - listed == set(), f".env.example misses {sorted(read - listed)}"


def test_the_operations_guide_documents_every_variable_the_code_reads() -> None:
    # The settings' variables and the ones `make run`'s supervisor reads (HOST, PORT), each in
    # the configuration tables of docs/operations.md, where an operator looks them up.
    settings_text = (ROOT / "baloot_site" / "settings.py").read_text()
    read = set(re.findall(r'env(?:\.\w+)?\(\s*"([A-Z][A-Z0-9_]+)"', settings_text))
    read |= set(re.findall(r'os\.environ\.get\(\s*"([A-Z][A-Z0-9_]+)"', settings_text))
    supervisor = (ROOT / "scripts" / "supervise.py").read_text()
    read |= set(re.findall(r'os\.environ\.get\(\s*"([A-Z][A-Z0-9_]+)"', supervisor))
    assert {"DATABASE_URL", "DATABASE_POOL", "HOST", "PORT", "PROMETHEUS_MULTIPROC_DIR"} <= read
    documented = _table_variables(ROOT / "docs" / "operations.md")
    assert read - documented == set(), f"docs/operations.md misses {sorted(read - documented)}"
    # The README's short table has what a newcomer sets first, where `make run` serves included.
    assert {"HOST", "PORT", "DATABASE_URL", "CELERY_BROKER_URL"} <= _table_variables(
        ROOT / "README.md"
    )


def _table_variables(path: Path) -> set[str]:
    """The variables a Markdown file's tables name in their first column."""
    names: set[str] = set()
    for line in path.read_text().splitlines():
        if line.startswith("| `"):
            names |= set(re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1]))
    return names


def test_moderation_ships_its_templates_too() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["moderation"]
    templates = list((ROOT / "moderation").rglob("*.html"))
    assert templates and "templates/**/*.html" in patterns


def test_the_image_copies_every_package() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = [p.rstrip("*") for p in config["tool"]["setuptools"]["packages"]["find"]["include"]]
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    for package in packages:
        assert f"COPY {package} ./{package}" in dockerfile, package
