"""pytest-labelmock: labelmock (a stateful stand-in for the data-labeling task service) in your tests.

The fixtures (`labelmock`, `labelmock_server`, `scale_client`, `patch_scaleapi`) come with the pytest plugin this
package registers; the classes below serve tests and scripts that run a server themselves:

    with LabelmockServer() as server:
        mock = Labelmock(server.base_url)
        mock.call("GET", "/v1/tasks")
"""

from .client import patch_scaleapi, scale_client_for
from .control import ControlError, Labelmock
from .node import NodeNotFound, find_node
from .server import LabelmockServer, ServerError, ServerOptions

__all__ = [
    "ControlError",
    "Labelmock",
    "LabelmockServer",
    "NodeNotFound",
    "ServerError",
    "ServerOptions",
    "find_node",
    "patch_scaleapi",
    "scale_client_for",
]
