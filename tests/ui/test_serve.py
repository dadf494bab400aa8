"""``drawlab app``: the dashboard listens on this computer only unless told otherwise.

The server is started for real on a free port; the addresses it listens on are read from
the kernel's socket tables (``/proc/net/tcp``, ``tcp6``), then it is stopped.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cli
from tests.paths import REPOSITORY
from ui import launch

ROOT = REPOSITORY
LISTEN = "0A"  # the TCP state of a listening socket in /proc/net/tcp


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _address(hex_ip: str) -> str:
    raw = bytes.fromhex(hex_ip)
    if len(raw) == 4:
        return socket.inet_ntop(socket.AF_INET, raw[::-1])
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))  # host order per word
    return socket.inet_ntop(socket.AF_INET6, words)


def listening(port: int) -> set[str]:
    """The local addresses with a socket listening on ``port``."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                local, state = fields[1], fields[3]
                ip, hex_port = local.split(":")
                if state == LISTEN and int(hex_port, 16) == port:
                    found.add(_address(ip))
    return found


def serve(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], int, set[str]]:
    """Start ``drawlab app`` on a free port; wait until it listens; return what it binds."""
    port = free_port()
    env = {**os.environ, "DRAWLAB_SAMPLES": ""}
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys, cli; sys.exit(cli.main(sys.argv[1:]))", "app",
         "--db", str(tmp_path / "served.duckdb"), "--port", str(port), *extra],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        bound = listening(port)
        if bound:
            return proc, port, bound
        time.sleep(0.2)
    raise AssertionError(f"the server did not listen on {port}: {stop(proc)}")


def stop(proc: subprocess.Popen[str]) -> str:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
    return out or ""


@pytest.mark.slow
def test_the_dashboard_listens_on_loopback_only_by_default(tmp_path: Path) -> None:
    proc, port, bound = serve(tmp_path)
    out = stop(proc)
    assert bound == {"127.0.0.1"}
    assert out.splitlines()[:2] == [
        f"DrawLab dashboard at http://127.0.0.1:{port} (database {tmp_path / 'served.duckdb'})",
        "Only this computer can open it; `drawlab app --host ADDRESS` shares it.",
    ]
    assert "Network URL" not in out


@pytest.mark.slow
def test_host_shares_it_deliberately_and_says_so(tmp_path: Path) -> None:
    proc, _, bound = serve(tmp_path, "--host", "0.0.0.0")
    out = stop(proc)
    assert bound == {"0.0.0.0"}
    assert out.splitlines()[1] == (
        "Shared on 0.0.0.0: anyone who can reach this address can read every hand in the "
        "database and import files into it. There is no password."
    )


def test_make_run_calls_drawlab_app_on_loopback() -> None:
    makefile = (ROOT / "Makefile").read_text()
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert run.strip().splitlines()[1:] == ["\t$(BIN)/drawlab app --port $(PORT) --host $(HOST)"]
    assert "\nHOST ?= 127.0.0.1\n" in makefile
    config = (ROOT / ".streamlit" / "config.toml").read_text()
    assert '\naddress = "127.0.0.1"\n' in config  # a bare `streamlit run` too


def test_the_server_command_always_names_its_address() -> None:
    argv = launch.command("127.0.0.1", 8600)
    assert argv[1:5] == ["-m", "ui.server", "run", str(ROOT / "app.py")]
    assert argv[argv.index("--server.address") + 1] == "127.0.0.1"
    assert argv[argv.index("--server.port") + 1] == "8600"
    assert [launch.is_loopback(h) for h in ("127.0.0.1", "::1", "localhost", "0.0.0.0",
                                             "192.168.1.5", "example.org")] == [
        True, True, True, False, False, False]
    assert launch.url("::1", 8501) == "http://[::1]:8501"


def test_a_relative_db_is_made_absolute_for_the_server(tmp_path: Path) -> None:
    env = launch.environment("x.duckdb", base={})
    assert env == {"DRAWLAB_DB": str(Path("x.duckdb").resolve())}
    assert launch.environment(None, base={"A": "1"}) == {"A": "1"}


def test_a_bad_port_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["app", "--port", "0"]) == 2
    assert capsys.readouterr().err == "error: --port must be 1 to 65535\n"
