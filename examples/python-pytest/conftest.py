"""pytest fixtures that run labelmock for a test session: start the bin on a free port, wait for its
health route, give each test a key of its own (a fresh, empty tenant), stop the server at the end.

Set LABELMOCK_BIN to the command that starts labelmock (default: `npx --no-install labelmock`, for an
app that installed it with `npm i -D labelmock`)."""

import os
import re
import shlex
import subprocess
import time
import urllib.request
import uuid

import pytest


def _start(command):
    process = subprocess.Popen(
        [*command, "--port", "0", "--log", "off"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            raise RuntimeError(f"labelmock exited with {process.returncode}")
        match = re.search(r"listening on (http://\S+)", line)
        if match:
            return process, match.group(1)
    process.kill()
    raise RuntimeError("labelmock printed no address within 60 s")


def _wait_healthy(base):
    for _ in range(100):
        try:
            with urllib.request.urlopen(f"{base}/_mock/health", timeout=2) as res:
                if res.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{base}/_mock/health never answered")


@pytest.fixture(scope="session")
def labelmock_url():
    """The base URL of a labelmock started for this session (no /v1)."""
    command = shlex.split(os.environ.get("LABELMOCK_BIN", "npx --no-install labelmock"))
    process, base = _start(command)
    try:
        _wait_healthy(base)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture
def api_key():
    """A key of its own per test: a new, empty tenant, so tests never see each other's tasks."""
    return f"test_{uuid.uuid4().hex[:12]}"
