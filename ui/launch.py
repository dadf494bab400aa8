"""Starting the dashboard: the Streamlit server ``drawlab app`` (and so ``make run``) runs.

The dashboard reads every stored hand and writes uploads into the database, and it asks
for no password, so it listens on the loopback address unless the user names another one:
sharing it with a network is a choice made on the command line (``--host``), and the
start says so. No Streamlit import here: this module only builds the command and its
words, so it is tested without starting a server.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app.py"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8501


def is_loopback(host: str) -> bool:
    """Only this computer can reach ``host`` (``127.0.0.1``, ``::1``, ``localhost``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


def url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def command(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> list[str]:
    """The Streamlit command line, run by ``ui.server`` (Streamlit with the pages'
    libraries imported while it starts): the address is always given, never Streamlit's
    default (every interface)."""
    return [
        sys.executable, "-m", "ui.server", "run", str(APP),
        "--server.address", host,
        "--server.port", str(port),
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip


def environment(db: str | None, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The server's environment: ``DRAWLAB_DB`` made absolute, as the server runs in the
    repository (where ``.streamlit/config.toml`` is read from)."""
    from analysis.storage.db import ENV_VAR

    env = dict(os.environ if base is None else base)
    if db:
        env[ENV_VAR] = str(Path(db).expanduser().resolve())
    return env


def banner(host: str, port: int, db_path: str) -> list[str]:
    """What the start prints before the server's own lines."""
    lines = [f"DrawLab dashboard at {url(host, port)} (database {db_path})"]
    if is_loopback(host):
        lines.append("Only this computer can open it; `drawlab app --host ADDRESS` shares it.")
    else:
        lines.append(
            f"Shared on {host}: anyone who can reach this address can read every hand in "
            "the database and import files into it. There is no password."
        )
    lines.append("Stop it with Ctrl+C.")
    return lines
