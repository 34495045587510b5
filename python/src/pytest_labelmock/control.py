"""A test's own tenant of a running labelmock, and its control plane (/_mock) as methods."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any


class ControlError(RuntimeError):
    """A control route answered an error: the message is its status and labelmock's own words."""

    def __init__(self, method: str, path: str, status: int, body: Any):
        error = body.get("error") if isinstance(body, dict) else body
        super().__init__(f"{method} {path} answered {status}: {error}")
        self.status = status
        self.body = body


def completion_setting(text: str) -> dict:
    """The server flag's form (`immediate`, `delay:500`, `reads:3`) as the settings' object."""
    mode, _, amount = text.partition(":")
    if mode == "delay" and amount:
        return {"mode": mode, "delay_ms": int(amount)}
    if mode == "reads" and amount:
        return {"mode": mode, "reads": int(amount)}
    return {"mode": mode}


class Labelmock:
    """One test's keys (a fresh account: its test and live tenants hold nothing yet) and helpers named after the
    control plane. `base_url` is the API root the clients take (`http://127.0.0.1:PORT/v1`); `server_url` has no
    path."""

    def __init__(self, server_url: str, account: str | None = None):
        self.server_url = server_url.rstrip("/")
        self.account = account or uuid.uuid4().hex[:12]
        self.api_key = f"test_{self.account}"
        self.live_key = f"live_{self.account}"
        self.base_url = f"{self.server_url}/v1"

    # --- HTTP -------------------------------------------------------------------------------------------
    def call(self, method: str, path: str, body: Any = None, key: str | None = None, timeout: float = 60) -> Any:
        """Any request as this test's key (the test key unless `key` says otherwise): the parsed JSON answer, or
        ControlError for a 4xx or 5xx."""
        data = None if body is None else json.dumps(body).encode()
        token = base64.b64encode(f"{key or self.api_key}:".encode()).decode()
        headers = {"Authorization": f"Basic {token}"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(f"{self.server_url}{path}", data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as res:
                text = res.read().decode()
        except urllib.error.HTTPError as err:
            text = err.read().decode()
            try:
                answer: Any = json.loads(text)
            except ValueError:
                answer = text
            raise ControlError(method, path, err.code, answer) from None
        return json.loads(text) if text else None

    # --- tasks --------------------------------------------------------------------------------------------
    def complete(self, task_id: str, response: Any = None, **fields: Any) -> dict:
        """Completes a pending task, with `response` (else one synthesized for its type)."""
        body = {**fields, **({"response": response} if response is not None else {})}
        return self.call("POST", f"/_mock/tasks/{_q(task_id)}/complete", body)

    def fail(self, task_id: str, **fields: Any) -> dict:
        """Moves a pending task to error: `error=` its message, `type=` its kind (as /_mock/tasks/{id}/fail)."""
        return self.call("POST", f"/_mock/tasks/{_q(task_id)}/fail", fields)

    def redo(self, task_id: str) -> dict:
        """Takes a completed task back to pending (its response and deliveries recalled)."""
        return self.call("POST", f"/_mock/tasks/{_q(task_id)}/redo", {})

    def timeline(self, task_id: str) -> list:
        """What happened to a task, oldest first: changes, audits, callback attempts, the requests that touched it."""
        return self.call("GET", f"/_mock/tasks/{_q(task_id)}/timeline")["entries"]

    # --- the tenant ---------------------------------------------------------------------------------------
    def advance_clock(self, seconds: float) -> dict:
        """Moves this tenant's virtual clock (delayed completions and callback retries come due)."""
        return self.call("POST", "/_mock/clock/advance", {"ms": round(seconds * 1000)})

    def settings(self, **changes: Any) -> dict:
        """PATCH /_mock/settings with `changes`; `completion="immediate"` is short for {"mode": "immediate"}.
        Without arguments, the settings as they are."""
        if not changes:
            return self.call("GET", "/_mock/settings")
        if isinstance(changes.get("completion"), str):
            changes["completion"] = completion_setting(changes["completion"])
        return self.call("PATCH", "/_mock/settings", changes)

    def reset(self, key: str | None = None) -> dict:
        """Empties this test's tenant (POST /_mock/reset): tasks, projects, batches, settings, journals."""
        return self.call("POST", "/_mock/reset", {}, key=key)

    def release(self) -> None:
        """Empties both tenants of the account, so the server holds nothing for it (the fixture's teardown). The
        test tenant goes first: a server at --max-tenants then has room for the live one's reset."""
        for key in (self.api_key, self.live_key):
            try:
                self.reset(key=key)
            except ControlError as err:
                if err.status != 503:  # a full server: the live tenant was never made, nothing to let go
                    raise

    def fault(self, **rule: Any) -> dict:
        """Adds a fault rule (POST /_mock/faults): `path=`, `method=`, `status=`, `delay_ms=`, `times=`, ..."""
        return self.call("POST", "/_mock/faults", rule)

    def requests(self, **filters: Any) -> list:
        """The request journal, newest first (`method=`, `path=`, `status=`, `task_id=`, `limit=`, ...)."""
        return self.call("GET", f"/_mock/requests{_query(filters)}")["requests"]

    def callbacks(self, **filters: Any) -> list:
        """The callback journal: each delivery and its attempts."""
        return self.call("GET", f"/_mock/callbacks{_query(filters)}")["deliveries"]

    def wait_for(self, event: str, timeout: float = 30, **filters: Any) -> dict:
        """The first matching event (`task.completed`, `callback.delivered`, ... with `task_id=` and the other
        filters), as soon as it happens; ControlError (408) when none comes within `timeout` seconds."""
        query = {"event": event, "timeout_ms": round(timeout * 1000), **filters}
        return self.call("GET", f"/_mock/wait{_query(query)}", timeout=timeout + 30)


def _q(value: str) -> str:
    return urllib.parse.quote(value, safe="")


def _query(values: dict) -> str:
    pairs = [(k, str(v).lower() if isinstance(v, bool) else str(v)) for k, v in values.items() if v is not None]
    return f"?{urllib.parse.urlencode(pairs)}" if pairs else ""
