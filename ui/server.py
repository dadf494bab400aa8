"""The dashboard's server process: Streamlit's own, with the pages' libraries imported
and the overview's first run done while it starts, so that the first visit waits for
neither.

``drawlab app`` runs ``python -m ui.server run app.py ...`` (``ui.launch.command``): the
arguments are Streamlit's command line.  Streamlit runs a page's script only when a
browser opens it, so the first visit of a process used to import pandas, DuckDB, plotly
and our statistics, then fill the page's caches (``ui.data``: the offers, figures, curves
and summaries, seconds at a million hands), before it drew anything.  Here a thread
imports them while the server starts and then visits the server itself, once, over its
own websocket as a browser does (``first_visit``): the same app.py runs the default page
with the default filters, so the cache holds what a browser's first run asks for, and no
second copy of the page's choices exists.  The visit gives way to a browser: it is not
made when one came first, and it stops its run and leaves when one comes (what it
computed stays cached; a value being computed is computed once, the browser's run waiting
for it); nor on a first start, whose import of the samples is the page's to show.  A visit that
fails costs one line in the server's output and nothing else.
"""

from __future__ import annotations

import logging
import re
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

from ui import launch

LOG = logging.getLogger("drawlab.server")
STREAM = "/_stcore/stream"  # Streamlit's websocket, what a browser's page talks over
HEALTH = "/_stcore/health"
METRICS = "/_stcore/metrics?families=session_events"  # the cheap family, not the caches' sizes
CONNECTS = re.compile(r'^session_events_total\{type="connect"\} (\d+)$', re.MULTILINE)
POLL = 0.25  # seconds between two looks for a browser during the visit
# Seconds, once the server answers and the libraries are imported, left to a browser
# opened with the server: the visit is for a dashboard left waiting, and a run beside a
# browser's first one delayed its first words (tests/browser/test_first_start.py).
GRACE = 5.0
READY_SECONDS = 120.0  # the server's start, at most
VISIT_SECONDS = 600.0  # the first run at ten million hands on a busy machine, at most


def warm() -> None:
    """Import what the overview's first run needs (its libraries and our modules)."""
    import duckdb  # noqa: F401
    import pandas  # noqa: F401
    import plotly.graph_objects  # noqa: F401
    import pyarrow  # noqa: F401

    from analysis.statistics import figures, offers  # noqa: F401
    from ui import charts, data, labels, memory_panel, scope, state  # noqa: F401


def address(argv: Sequence[str]) -> str:
    """The server's address, from Streamlit's command line (``ui.launch.command`` always
    names both); an address meaning every interface is reached on loopback."""

    def given(option: str, default: str) -> str:
        args = list(argv)
        return args[args.index(option) + 1] if option in args[:-1] else default

    host = given("--server.address", launch.DEFAULT_HOST)
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return launch.url(host, int(given("--server.port", str(launch.DEFAULT_PORT))))


def wait_ready(url: str, seconds: float = READY_SECONDS) -> None:
    """Until the server answers its health check (``TimeoutError`` after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url + HEALTH, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not answer in {seconds:.0f} s") from None
        time.sleep(0.2)


def connects(url: str) -> int:
    """How many sessions (browsers' pages, this thread's visit) have connected to the
    server since it started: Streamlit's own count, from its metrics."""
    with urllib.request.urlopen(url + METRICS, timeout=5) as answer:
        found = CONNECTS.search(answer.read().decode())
    return int(found.group(1)) if found else 0


def run_page(url: str, seconds: float, give_way: Callable[[], bool]) -> bool:
    """Open the app's default page as a browser does and wait for its run to finish
    (True), or leave as soon as ``give_way()`` says so (False): a session of
    Streamlit's, over ``STREAM`` with its ``BackMsg`` and ``ForwardMsg``, that asks for
    one run with no query, every widget at its default."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.sync.client import connect
    from websockets.typing import Subprotocol

    request, stop = BackMsg(), BackMsg(stop_script=True)
    request.rerun_script.SetInParent()
    deadline = time.monotonic() + seconds
    with connect("ws" + url.removeprefix("http") + STREAM, subprotocols=[Subprotocol("streamlit")],
                 max_size=None, open_timeout=30) as socket:  # fmt: skip
        socket.send(request.SerializeToString())
        while True:
            try:
                frame = socket.recv(timeout=POLL)
            except TimeoutError:
                if give_way():  # its run stopped at its next element, not left running
                    socket.send(stop.SerializeToString())
                    return False
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no run of the page over in {seconds:.0f} s") from None
                continue
            msg = ForwardMsg()
            msg.ParseFromString(frame if isinstance(frame, bytes) else b"")
            if (msg.WhichOneof("type") == "script_finished"
                    and msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY):  # fmt: skip
                return True


def first_visit(url: str, database: str) -> bool:
    """The overview's first run, by this process before any browser: only while no
    browser is there, leaving as one comes (what it computed stays cached), so a
    browser's first words never wait for it (tests/browser/test_first_start.py): a
    browser opened with the server (within ``GRACE``) runs the page itself.  Not on
    a first start (no ``database`` file yet): its import of the samples, which no visit
    can stop, is the page's to do and to show."""
    if not Path(database).exists():
        return False
    quiet_until = time.monotonic() + GRACE
    while connects(url) == 0:
        if time.monotonic() >= quiet_until:
            return run_page(url, VISIT_SECONDS, lambda: connects(url) > 1)
        time.sleep(POLL)
    return False


def start(argv: Sequence[str], ready_seconds: float = READY_SECONDS) -> None:
    """The thread's work: the imports, then the first visit; a failure is told in one
    line and leaves the server as it was (its first browser fills the caches instead)."""
    try:
        warm()
        from analysis.storage.db import resolve_path  # imported by warm(), not before

        url = address(argv)
        wait_ready(url, ready_seconds)
        first_visit(url, resolve_path())
    except Exception as exc:  # whatever it is, the server goes on without the warm-up
        LOG.warning("DrawLab: the overview's first run before any browser failed (%s: %s); "
                    "the first visit will run it.", type(exc).__name__, exc)  # fmt: skip


def main() -> None:
    from streamlit.web import cli

    threading.Thread(target=start, args=(sys.argv[1:],), name="drawlab-warm",
                     daemon=True).start()  # fmt: skip
    sys.exit(cli.main(prog_name="streamlit"))


if __name__ == "__main__":
    main()
