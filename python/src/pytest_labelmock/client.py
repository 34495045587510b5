"""The official `scaleapi` client pointed at labelmock: v1 through `api_instance_url`, and `client.v2`, which
ignores it, through its generated Configuration's host (scaleapi-python-client: `ScaleClient.__init__` builds
`V2Api(ApiClient(Configuration(access_token=api_key)))`, whose `configuration.host` defaults to the real
service)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from .control import Labelmock


def point_v2(client: Any, server_url: str) -> None:
    """Sends `client.v2` to labelmock (its requests add /v2/... to the host)."""
    client.v2.api_client.configuration.host = server_url


def scale_client_for(mock: Labelmock, **kwargs: Any) -> Any:
    """A `scaleapi.ScaleClient` for the test's key, v1 and v2 both at labelmock."""
    import scaleapi

    client = scaleapi.ScaleClient(mock.api_key, api_instance_url=mock.base_url, **kwargs)
    point_v2(client, mock.server_url)
    return client


@contextlib.contextmanager
def patch_scaleapi(mock: Labelmock) -> Iterator[Labelmock]:
    """While open, every `scaleapi.ScaleClient` the code under test builds goes to labelmock, as this test's
    tenant: a live key becomes the test's live key, any other the test key (the mode is kept)."""
    import scaleapi

    original = scaleapi.ScaleClient.__init__

    def redirected(self: Any, api_key: str, *args: Any, **kwargs: Any) -> None:
        key = mock.live_key if str(api_key).startswith("live_") else mock.api_key
        # ScaleClient(api_key, source=None, api_instance_url=None, verify=None, proxies=None, cert=None)
        named = dict(zip(("source", "api_instance_url", "verify", "proxies", "cert"), args))
        original(self, key, **{**named, **kwargs, "api_instance_url": mock.base_url})
        point_v2(self, mock.server_url)

    scaleapi.ScaleClient.__init__ = redirected  # type: ignore[method-assign]
    try:
        yield mock
    finally:
        scaleapi.ScaleClient.__init__ = original  # type: ignore[method-assign]
