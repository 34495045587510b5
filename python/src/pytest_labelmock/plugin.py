"""The pytest plugin (entry point `pytest11: labelmock`): options, the `labelmock` marker and the fixtures."""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterator
from typing import Any

import pytest

from .client import patch_scaleapi as _patch_scaleapi
from .client import scale_client_for
from .control import Labelmock
from .node import NodeNotFound
from .server import LabelmockServer, ServerError, ServerOptions, SharedServer

_OPTIONS = {
    "completion": "completion mode of test keys: manual, immediate, delay or reads (the server's --completion)",
    "data_dir": "keep state in this folder (--data-dir); each pytest-xdist worker gets a folder of its own in it",
    "args": "more flags for the server, as one shell-quoted string (e.g. '--latency 50 --unknown-params strict')",
    "url": "use the labelmock (or router) running at this URL instead of starting one; each test still gets an "
    "account of its own (also LABELMOCK_URL)",
}

# Where a shared server is named when no option says: CI jobs pointed at one labelmock for the whole fleet.
_URL_ENVIRONMENT = "LABELMOCK_URL"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("labelmock", "labelmock: a stateful stand-in for the data-labeling task service")
    for name, help_text in _OPTIONS.items():
        flag = f"--labelmock-{name.replace('_', '-')}"
        group.addoption(flag, dest=f"labelmock_{name}", default=None, help=help_text)
        parser.addini(f"labelmock_{name}", help_text)


def pytest_configure(config: pytest.Config) -> None:
    shared = _shared_url(config)
    for name in ("data_dir", "args"):
        if shared and _option(config, name):
            flag = f"--labelmock-{name.replace('_', '-')}"
            raise pytest.UsageError(f"{flag} sets up a server the plugin starts; the one at {shared} is another's")
    config.addinivalue_line(
        "markers",
        "labelmock(**settings, faults=[...]): this test's tenant settings, as PATCH /_mock/settings takes them "
        '(completion="immediate" is short for {"mode": "immediate"}), and fault rules as POST /_mock/faults takes '
        "them",
    )


# The test's account, kept on its item so a failing test's report can show what it sent.
_ACCOUNT = pytest.StashKey["Labelmock"]()
# Requests of a failing test's account shown in its report.
_REPORTED_REQUESTS = 20


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """A failing test that used `labelmock` gets a report section with its account's last requests, newest first
    (before its teardown lets the account go)."""
    outcome = yield
    report = outcome.get_result()
    mock = item.stash.get(_ACCOUNT, None)
    if mock is None or not report.failed or report.when == "teardown":
        return
    report.sections.append(("labelmock requests", _requests_text(mock)))


def _requests_text(mock: Labelmock) -> str:
    try:
        requests = mock.requests(limit=_REPORTED_REQUESTS)
    except Exception as err:  # the server may be what failed: say so, never hide the test's own failure
        return f"(the request journal could not be read: {err})"
    if not requests:
        return "(no request of this test's account was journaled)"
    lines = [f"{mock.api_key} at {mock.server_url}: the last {len(requests)} request(s), newest first"]
    for entry in requests:
        fault = " (fault injected)" if entry.get("fault") else ""
        lines.append(f"  {entry['time']}  {entry['method']} {entry['path']} -> {entry['status']}{fault}")
        if entry["status"] >= 400 and isinstance(entry.get("response_body"), (dict, str)):
            body = entry["response_body"]
            error = body.get("error", body) if isinstance(body, dict) else body
            lines.append(f"      {str(error)[:300]}")
    return "\n".join(lines)


def _option(config: pytest.Config, name: str) -> str | None:
    value = config.getoption(f"labelmock_{name}") or config.getini(f"labelmock_{name}")
    return str(value) if value else None


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def _shared_url(config: pytest.Config) -> str | None:
    return _option(config, "url") or os.environ.get(_URL_ENVIRONMENT) or None


@pytest.fixture(scope="session")
def labelmock_server(pytestconfig: pytest.Config) -> Iterator[LabelmockServer | SharedServer]:
    """A labelmock server for this session: one per pytest-xdist worker, on a free port, stopped at the end; or,
    with --labelmock-url (LABELMOCK_URL), the one running there, left running."""
    shared = _shared_url(pytestconfig)
    if shared:
        try:
            yield SharedServer(shared).start()
        except ServerError as err:
            pytest.fail(str(err), pytrace=False)
        return
    data_dir = _option(pytestconfig, "data_dir")
    options = ServerOptions(
        completion=_option(pytestconfig, "completion"),
        data_dir=os.path.join(data_dir, _worker()) if data_dir else None,
        extra_args=shlex.split(_option(pytestconfig, "args") or ""),
    )
    server = LabelmockServer(options)
    try:
        server.start()
    except (NodeNotFound, ServerError) as err:
        pytest.fail(str(err), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def labelmock(
    labelmock_server: LabelmockServer | SharedServer, request: pytest.FixtureRequest, pytestconfig: pytest.Config
) -> Iterator[Labelmock]:
    """This test's own account on the session's server: `api_key` (test mode) and `live_key` reach tenants that
    hold nothing yet, so tests never see each other's data and need no reset. The `labelmock` marker's
    settings and fault rules are applied first. At teardown both tenants are emptied, so the server lets the
    account go: a session of any length holds only its running tests' accounts."""
    mock = Labelmock(labelmock_server.base_url)
    completion = _option(pytestconfig, "completion")
    if completion and isinstance(labelmock_server, SharedServer):
        # A shared server was started with its own --completion: this run's is this test's tenant setting.
        mock.settings(completion=completion)
    marker = request.node.get_closest_marker("labelmock")
    if marker is not None:
        if marker.args:
            raise pytest.UsageError("@pytest.mark.labelmock takes settings as keywords: labelmock(completion=...)")
        settings = dict(marker.kwargs)
        faults = settings.pop("faults", [])
        if settings:
            mock.settings(**settings)
        for rule in faults:
            mock.fault(**rule)
    request.node.stash[_ACCOUNT] = mock
    try:
        yield mock
    finally:
        mock.release()


@pytest.fixture
def scale_client(labelmock: Labelmock) -> Any:
    """The official client (`scaleapi.ScaleClient`) for this test's key, its v1 calls and `client.v2` at labelmock.
    Skipped when scaleapi is not installed."""
    pytest.importorskip("scaleapi", reason="scale_client needs the official client: pip install scaleapi")
    return scale_client_for(labelmock)


@pytest.fixture
def patch_scaleapi(labelmock: Labelmock) -> Iterator[Labelmock]:
    """Every `scaleapi.ScaleClient` built during the test (by the code under test, with whatever key and URL it
    has) goes to labelmock as this test's tenant. Skipped when scaleapi is not installed."""
    pytest.importorskip("scaleapi", reason="patch_scaleapi needs the official client: pip install scaleapi")
    with _patch_scaleapi(labelmock) as mock:
        yield mock
