"""One labelmock server: the bundle this wheel carries, started with Node on a free port of 127.0.0.1, checked
healthy, stopped when done."""

from __future__ import annotations

import os
import re
import subprocess
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from .node import find_node

# The server as the wheel carries it: server/dist/labelmock.mjs, with package.json, fixtures/ and inspector/
# beside it (the bundle finds them from the folder holding package.json).
SERVER_ROOT = Path(__file__).parent / "server"
BUNDLE = SERVER_ROOT / "dist" / "labelmock.mjs"

START_TIMEOUT_S = 60.0


class ServerError(RuntimeError):
    """The server could not start: the message carries what it printed."""


@dataclass
class ServerOptions:
    completion: str | None = None
    data_dir: str | None = None
    extra_args: list[str] = field(default_factory=list)


class SharedServer:
    """A labelmock someone else runs (a shared one, or a router in front of shards): nothing to start or stop.
    `base_url` has no path, as LabelmockServer's."""

    def __init__(self, url: str):
        self.base_url = url.rstrip("/")

    def start(self) -> SharedServer:
        try:
            with urllib.request.urlopen(f"{self.base_url}/_mock/health", timeout=10) as res:
                if res.status == 200:
                    return self
                raise ServerError(f"{self.base_url}/_mock/health answered {res.status}")
        except OSError as err:
            raise ServerError(f"the labelmock at {self.base_url} does not answer /_mock/health: {err}") from None

    def output(self) -> str:
        return ""

    def stop(self) -> None:
        """Another's server: left running."""


class LabelmockServer:
    """A running labelmock. `base_url` has no path (`http://127.0.0.1:PORT`)."""

    def __init__(self, options: ServerOptions | None = None, node: str | None = None):
        self.options = options or ServerOptions()
        self._node = node
        self._process: subprocess.Popen[str] | None = None
        self._output: list[str] = []
        self.base_url = ""

    def command(self) -> list[str]:
        if not BUNDLE.exists():
            raise ServerError(f"{BUNDLE} is missing: this copy of pytest-labelmock was built without its server")
        # --exit-with-parent: a pytest run that is killed takes its servers with it.
        args = [self._node or find_node(), str(BUNDLE), "--port", "0", "--log", "off", "--exit-with-parent"]
        if self.options.completion:
            args += ["--completion", self.options.completion]
        if self.options.data_dir:
            args += ["--data-dir", self.options.data_dir]
        return args + list(self.options.extra_args)

    def start(self) -> LabelmockServer:
        # The flags above decide the port and the address, whatever the environment says.
        env = {k: v for k, v in os.environ.items() if k not in ("PORT", "HOST")}
        self._process = subprocess.Popen(
            self.command(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        self.base_url = self._read_address()
        # The rest of its output is read (and kept, bounded) so a full pipe never blocks the server.
        threading.Thread(target=self._drain, daemon=True).start()
        self._wait_healthy()
        return self

    def _read_address(self) -> str:
        assert self._process is not None and self._process.stdout is not None
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            line = self._process.stdout.readline()
            if not line:
                code = self._process.wait()
                raise ServerError(f"labelmock exited with {code} before listening:\n{''.join(self._output)}")
            self._output.append(line)
            match = re.search(r"listening on (http://\S+)", line)
            if match:
                return match.group(1)
        self.stop()
        raise ServerError(f"labelmock printed no address within {START_TIMEOUT_S:.0f} s:\n{''.join(self._output)}")

    def _drain(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            self._output = (self._output + [line])[-200:]

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.base_url}/_mock/health", timeout=5) as res:
                    if res.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise ServerError(f"{self.base_url}/_mock/health never answered")

    def output(self) -> str:
        """What the server printed (its last 200 lines)."""
        return "".join(self._output)

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> LabelmockServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
