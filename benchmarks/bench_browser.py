"""Click to settled page, in a real browser: what a user of the dashboard waits for.

    python -m benchmarks.bench_browser [--sizes samples,million] [--repeat 4] [--cold 3]
        [--later 0] [--apps mine=.,main=/tmp/base38s] [--root /tmp/bench38s] [--out FILE.json]

The query benchmarks (``bench_dashboard``) time the data calls; a user waits for the whole
script run Streamlit does on every click, the messages to the browser and the browser's
drawing.  This drives Debian's ``chromium`` with Playwright over the dashboard served as
the browser tests serve it (``tests.browser.serve.dashboard``) and times, for each
interaction, from the click (or the key) to the settled page:

- the server said the run it started is over: a ``script_finished`` message (a whole run,
  or a fragment's) read off the page's websocket, and then
- the page is still: no running indicator (``stStatusWidget``), no element left stale
  from the run before (``data-stale="true"``), no skeleton or spinner, and nothing in the
  document changed for ``QUIET_MS``; the time taken is that of the last change.

Interactions: the cold overview (a new server, its first visit: ``--cold`` servers) in a
browser that never saw the dashboard, and again in one that did (``cold_servers``; with
``--later``, also a visit that many seconds after the server's start), the
overview in a new tab of a warm server, then in one tab the hero, the money kind, the
game, stakes, dates and position each changed and changed back (``--repeat`` clicks each,
so the first of each value is uncached and the others are Streamlit's cache), opening a
hand by id in the replayer, stepping a street, a drill's tick, answer and next question,
and the Review, Live session and HUD pages opened from the navigation.

Sizes: ``samples``, the bundled samples as a first start imports them (``make run``), and
``million``, 1,000,000 hands copied (``bench_scale.replicate``: ten copies of a real import
of 100,000) with the bundled samples imported beside them as the user's own hands, so the
hero has several money kinds, games and stakes to switch between.  Both databases are made
once and kept under ``--root``; each server gets a copy (drills and settings write to it).

``--apps name=folder,...`` serves each folder's dashboard in turn (an untouched copy of
another commit, to compare), alternating at each size, each started as a user starts it
(``drawlab app``).  On a shared machine the wall clock is what the other work left over:
each interaction also counts the CPU seconds of the server's process and of the browser's
processes (``/proc``), which do not depend on the load, and when the server's run was
over.  Prints, per interaction, the median and the longest seconds and the median CPU
seconds at each size and app, and writes every figure to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path

import duckdb
from playwright.sync_api import BrowserContext, Page, WebSocket, sync_playwright
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from benchmarks import bench_scale
from tests.browser.serve import CHROMIUM, dashboard, free_port
from tests.paths import REPOSITORY

SAMPLES = REPOSITORY / "sample_histories"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]  # fmt: skip
TIMEOUT_MS = 180_000
QUIET_MS = 150  # the document unchanged this long, nothing running: settled
BASE_HANDS, COPIES = 100_000, 10
# Every change to the document is stamped (a MutationObserver from the page's start).
STAMP = """
window.__dlChanged = performance.now();
new MutationObserver(() => { window.__dlChanged = performance.now(); })
  .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""
BUSY = ('[data-testid="stStatusWidget"], [data-stale="true"], [data-testid="stSkeleton"], '
        '[data-testid="stSpinner"]')  # fmt: skip
SETTLED = f"""([since, quiet]) => {{
  const now = performance.now();
  if (document.querySelector('{BUSY}') !== null) {{ window.__dlChanged = now; return false; }}
  const last = Math.max(window.__dlChanged, since);
  return now - last >= quiet ? last : false;
}}"""


TICKS = os.sysconf("SC_CLK_TCK")
PROFILE_MARK = f"bench-browser-{os.getpid()}"  # in the browser's command line


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds of these processes (all their threads), from /proc."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


def processes(marker: str) -> list[int]:
    """The processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def family(pids: list[int]) -> list[int]:
    """These processes and all their descendants."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found: set[int] = set()  # a child may carry the mark too: counted once
    todo = list(pids)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo += children.get(pid, [])
    return sorted(found)


@dataclass(frozen=True)
class Cpu:
    """The server's and the browser's processes, by a mark of their command lines (the
    browser's children counted too): their CPU seconds do not depend on what else the
    machine runs, the wall clock does."""

    server: str
    browser: str

    def now(self) -> tuple[float, float]:
        return (cpu_seconds(processes(self.server)),
                cpu_seconds(family(processes(self.browser))))  # fmt: skip


def server_mark(url: str) -> str:
    """What the command line of the server at ``url`` holds: its port."""
    return f"--server.port\0{url.rsplit(':', 1)[1]}\0"


class Runs:
    """The script runs the server said were over, read off a page's websocket."""

    def __init__(self, page: Page, cpu: Cpu) -> None:
        self.cpu = cpu
        self.done = 0  # whole runs and fragment runs, not those stopped for a rerun
        self.whole = 0
        self.over_at = 0.0  # ``time.perf_counter`` when the last one was read
        page.on("websocket", self._socket)

    def _socket(self, ws: WebSocket) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        if isinstance(payload, str):
            return
        msg = ForwardMsg()
        try:
            msg.ParseFromString(payload)
        except Exception:  # a frame that is no ForwardMsg says nothing about runs
            return
        if msg.WhichOneof("type") != "script_finished":
            return
        if msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
            self.whole += 1
        elif msg.script_finished != ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
            return
        self.done += 1
        self.over_at = time.perf_counter()

    def count(self, whole: bool) -> int:
        return self.whole if whole else self.done


@dataclass(frozen=True)
class Timing:
    """One interaction: the settled page, and when the server's run was over (both in
    seconds from the action; the difference is the browser's drawing after the run)."""

    settled: float
    run_over: float
    server_cpu: float = 0.0
    browser_cpu: float = 0.0


def _settled(page: Page, since: float) -> float:
    last = page.wait_for_function(SETTLED, arg=[since, QUIET_MS], polling=20,
                                  timeout=TIMEOUT_MS).json_value()  # fmt: skip
    return float(last)


def timed(page: Page, runs: Runs, act: Callable[[], object], whole: bool = False) -> Timing:
    """From ``act`` (a click, a key) to the settled page: the run it started over
    (``whole``: a whole run, as a page switch needs) and the document still."""
    before = runs.count(whole)
    start = float(page.evaluate("performance.now()"))
    clock = time.perf_counter()
    server, browser = runs.cpu.now()
    act()
    while runs.count(whole) == before:
        if time.perf_counter() - clock > TIMEOUT_MS / 1000:
            raise TimeoutError("no script run finished after the action")
        page.wait_for_timeout(5)
    since = float(page.evaluate("performance.now()"))
    settled = (_settled(page, since) - start) / 1000
    server_after, browser_after = runs.cpu.now()
    return Timing(settled, runs.over_at - clock, server_after - server, browser_after - browser)


def opened(page: Page, runs: Runs, url: str) -> Timing:
    """From asking for ``url`` in this tab to its settled page (the navigation's own
    clock: a new document starts its ``performance.now`` at the request)."""
    before = runs.whole
    clock = time.perf_counter()
    server, browser = runs.cpu.now()
    page.goto(url, wait_until="commit")
    while runs.whole == before:
        if time.perf_counter() - clock > TIMEOUT_MS / 1000:
            raise TimeoutError(f"{url}: no script run finished")
        page.wait_for_timeout(5)
    settled = _settled(page, 0) / 1000
    server_after, browser_after = runs.cpu.now()
    return Timing(settled, runs.over_at - clock, server_after - server, browser_after - browser)


@dataclass
class Figures:
    """Every time taken, by interaction, in the order first met."""

    seconds: dict[str, list[float]] = field(default_factory=dict)
    run_over: dict[str, list[float]] = field(default_factory=dict)
    server_cpu: dict[str, list[float]] = field(default_factory=dict)
    browser_cpu: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, timing: Timing) -> None:
        self.seconds.setdefault(name, []).append(round(timing.settled, 3))
        self.run_over.setdefault(name, []).append(round(timing.run_over, 3))
        self.server_cpu.setdefault(name, []).append(round(timing.server_cpu, 3))
        self.browser_cpu.setdefault(name, []).append(round(timing.browser_cpu, 3))
        print(f"    {name}: {timing.settled:.2f} s (the run over at {timing.run_over:.2f}; "
              f"CPU: server {timing.server_cpu:.2f} s, browser {timing.browser_cpu:.2f} s)",
              flush=True)  # fmt: skip


# --- the databases ---------------------------------------------------------------------


def samples_database(root: Path, log: Path) -> Path:
    """The bundled samples as the dashboard's first start imports them, made once."""
    made = root / "browser_samples.duckdb"
    if made.exists():
        return made
    partial = root / "browser_samples.partial.duckdb"
    for p in (partial, Path(f"{partial}.wal")):
        p.unlink(missing_ok=True)
    with dashboard(partial, log, samples=str(SAMPLES)) as url, browsing() as ctx:
        page = ctx.new_page()
        opened(page, Runs(page, Cpu(server_mark(url), PROFILE_MARK)), url)
    partial.rename(made)
    return made


def million_database(root: Path) -> Path:
    """1,000,000 hands copied from a real import of 100,000, and the bundled samples
    imported beside them, made once (``bench_scale`` makes and keeps the import)."""
    made = root / "browser_million.duckdb"
    if made.exists():
        return made
    from analysis.pipeline.importer import import_paths
    from analysis.storage import db

    source = root / f"scale_h{BASE_HANDS}.duckdb"
    if not source.exists():
        bench_scale.main(["--hands", str(BASE_HANDS), "--files", "4", "--root", str(root),
                          "--only", "import"])  # fmt: skip
    partial = root / "browser_million.partial.duckdb"
    bench_scale.replicate(source, partial, COPIES)
    bench_scale.cells_current(partial)
    con = db.connect(partial)
    try:
        import_paths(con, [SAMPLES])
    finally:
        con.close()
    partial.rename(made)
    return made


def hand_ids(database: Path) -> list[str]:
    """Two site hand ids of the hero's first game, to open by id."""
    con = duckdb.connect(str(database), read_only=True)
    try:
        rows = con.execute(
            "SELECT hand_id FROM hands WHERE site = 'pokerstars' AND status = 'ok' "
            "ORDER BY id DESC LIMIT 2").fetchall()  # fmt: skip
    finally:
        con.close()
    return [str(r[0]) for r in rows]


# --- the browser -----------------------------------------------------------------------


@contextmanager
def browsing() -> Iterator[BrowserContext]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing: run `make browser`"
    profile = Path(os.environ.get("TMPDIR", "/tmp")) / PROFILE_MARK
    shutil.rmtree(profile, ignore_errors=True)
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=ARGS,
            viewport={"width": 1400, "height": 1000},
        )  # fmt: skip
        ctx.set_default_timeout(TIMEOUT_MS)
        ctx.add_init_script(STAMP)
        try:
            yield ctx
        finally:
            ctx.close()
            shutil.rmtree(profile, ignore_errors=True)


def option(page: Page, key: str, index: int) -> Callable[[], None]:
    """Open the select box ``key``; the returned action picks its ``index``-th option."""
    page.locator(f".st-key-{key} input").click()
    choice = page.get_by_role("option").nth(index)
    choice.wait_for()
    return lambda: choice.click()


def options(page: Page, key: str) -> int:
    page.locator(f".st-key-{key} input").click()
    page.get_by_role("option").first.wait_for()
    n = page.get_by_role("option").count()
    page.keyboard.press("Escape")
    return n


def nav(page: Page, title: str) -> Callable[[], None]:
    link = page.locator('[data-testid="stSidebarNavLink"]', has_text=title).first
    return lambda: link.click()


def click(page: Page, selector: str) -> Callable[[], None]:
    return lambda: page.locator(selector).first.click()


# --- the interactions ------------------------------------------------------------------

FILTERS = (("hero", "hero"), ("f_money", "money kind"), ("f_game", "game"),
           ("f_stakes", "stakes"), ("f_position", "position"))  # fmt: skip


def overview(page: Page, runs: Runs, url: str, figures: Figures, repeat: int) -> None:
    """The overview in a new tab of a warm server, then each filter changed and changed
    back (the first pick of each value is a new cache key; the later ones hit it)."""
    figures.add("overview, a new tab", opened(page, runs, url))
    for key, name in FILTERS:
        if options(page, key) < 2:
            print(f"    {name}: one choice only, not timed", flush=True)
            continue
        for i in range(repeat):
            figures.add(name, timed(page, runs, option(page, key, 1 - i % 2)))
    for i in range(repeat):
        figures.add("dates", timed(page, runs, dates(page, narrow=i % 2 == 0)))


def dates(page: Page, narrow: bool) -> Callable[[], None]:
    """The last day of the range one day earlier (or back): the field sends its value
    when the focus leaves it, so the action is a click on the page's title."""
    page.get_by_role("spinbutton", name="day, Dates end date").click()
    page.keyboard.press("ArrowDown" if narrow else "ArrowUp")
    title = page.get_by_role("heading", name="Overview & statistics")
    return lambda: title.click()


def replayer(page: Page, runs: Runs, ids: list[str], figures: Figures, repeat: int) -> None:
    """A hand opened by its site id, then stepped street by street."""
    timed(page, runs, nav(page, "Replayer"), whole=True)
    timed(page, runs, lambda: page.get_by_text("Search by id").click())
    box = page.get_by_label("Hand id")
    for i in range(repeat):
        box.fill(ids[i % len(ids)])
        figures.add("hand by id", timed(page, runs, lambda: box.press("Enter")))
    for _ in range(repeat):
        figures.add("a street on", timed(page, runs, click(page, ".st-key-b_next_street button")))


def drills(page: Page, runs: Runs, figures: Figures, repeat: int) -> None:
    """Which hand wins: a hand ticked, the answer, the next question."""
    timed(page, runs, nav(page, "Drills"), whole=True)
    for _ in range(repeat):
        tick = partial(page.get_by_role("checkbox", name="Wins").first.check, force=True)
        figures.add("drill: a tick", timed(page, runs, tick))
        figures.add(
            "drill: answer",
            timed(page, runs, lambda: page.get_by_role("button", name="Answer").click()),
        )
        figures.add(
            "drill: next question",
            timed(page, runs, lambda: page.get_by_role("button", name="Next question").click()),
        )


def pages(page: Page, runs: Runs, figures: Figures, repeat: int) -> None:
    """The Review, Live session and HUD pages opened from the navigation, in turn."""
    for _ in range(repeat):
        for title, name in (
            ("Review", "review page"),
            ("Live session", "live page"),
            ("HUD", "HUD page"),
        ):
            figures.add(name, timed(page, runs, nav(page, title), whole=True))


# --- a run -----------------------------------------------------------------------------


GROUPS = ("overview", "replayer", "drills", "pages")


NEW, RETURNING = "cold overview", "cold overview, a returning browser"


@dataclass(frozen=True)
class ColdServer:
    """A new server for the cold overview: its figure's name, its port (None: a free
    one), and the seconds between its answering and the browser's visit."""

    name: str
    port: int | None
    later: float = 0.0


def cold_servers(cold: int, later: float = 0.0) -> list[ColdServer]:
    """The servers started for the cold overview.

    A browser keeps Streamlit's scripts (hashed names, cached for a year) and their
    compiled code by address, and a user's dashboard is always at the same one
    (``drawlab app``'s port).  ``NEW``: each server at a port this browser never saw,
    the first visit of a browser; ``RETURNING``: a new server at the port of the last
    ``NEW`` one, whose scripts the browser holds, as when a user starts the dashboard
    again; with ``later``, as many again visited ``later`` seconds after the server
    answered (a user who does not click at once).  The last goes on to the other
    interactions."""
    port = free_port()
    servers = [ColdServer(NEW, None) for _ in range(max(cold, 1) - 1)]
    servers += [ColdServer(NEW, port)] + [ColdServer(RETURNING, port) for _ in range(cold)]
    if later > 0:
        name = f"{RETURNING}, {later:g} s after the start"
        servers += [ColdServer(name, port, later) for _ in range(cold)]
    return servers


def measure(
    app: Path,
    database: Path,
    work: Path,
    cold: int,
    repeat: int,
    only: tuple[str, ...] = GROUPS,
    later: float = 0.0,
) -> Figures:
    """Every interaction (of the groups ``only``) on ``app``'s dashboard over a copy of
    ``database``."""
    figures = Figures()
    ids = hand_ids(database)
    copy = work / "bench.duckdb"
    with browsing() as ctx:
        for i, server in enumerate(servers := cold_servers(cold, later)):
            for p in (copy, Path(f"{copy}.wal")):
                p.unlink(missing_ok=True)
            shutil.copyfile(database, copy)
            with dashboard(copy, work / "streamlit.log", root=app, port=server.port) as url:
                time.sleep(server.later)
                cpu = Cpu(server_mark(url), PROFILE_MARK)
                page = ctx.new_page()
                runs = Runs(page, cpu)
                figures.add(server.name, opened(page, runs, url))
                page.close()
                if i < len(servers) - 1:
                    continue
                page = ctx.new_page()
                runs = Runs(page, cpu)
                if "overview" in only:
                    overview(page, runs, url, figures, repeat)
                else:
                    opened(page, runs, url)
                if "replayer" in only:
                    replayer(page, runs, ids, figures, repeat)
                if "drills" in only:
                    drills(page, runs, figures, repeat)
                if "pages" in only:
                    pages(page, runs, figures, repeat)
                page.close()
    return figures


def table(results: dict[str, Figures]) -> str:
    """Interaction by interaction, for each run: the median and longest seconds to the
    settled page, and the median CPU seconds of the server and of the browser."""
    names = list(dict.fromkeys(n for f in results.values() for n in f.seconds))
    head = f"{'interaction':<22}" + "".join(f"{run:>28}" for run in results)
    sub = f"{'median':>7}{'max':>7}{'srvCPU':>7}{'brCPU':>7}"
    lines = [head, f"{'':<22}" + sub * len(results)]
    for name in names:
        row = f"{name:<22}"
        for f in results.values():
            got = f.seconds.get(name)
            if not got:
                row += f"{'-':>7}" * 4
                continue
            row += (f"{statistics.median(got):>7.2f}{max(got):>7.2f}"
                    f"{statistics.median(f.server_cpu[name]):>7.2f}"
                    f"{statistics.median(f.browser_cpu[name]):>7.2f}")  # fmt: skip
        lines.append(row)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--sizes", default="samples,million")
    ap.add_argument(
        "--apps",
        default=f"mine={REPOSITORY}",
        help="name=folder,...: each folder's app.py served in turn",
    )
    ap.add_argument("--repeat", type=int, default=4, help="clicks per interaction (even)")
    ap.add_argument("--cold", type=int, default=3, help="new servers for the cold overview")
    ap.add_argument("--root", type=Path, default=Path("/tmp/bench38s"))
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--only", default=",".join(GROUPS), help="of " + ",".join(GROUPS))
    ap.add_argument("--later", type=float, default=0.0,
                    help="also the cold overview this many seconds after the start")  # fmt: skip
    args = ap.parse_args(argv)
    args.root.mkdir(parents=True, exist_ok=True)
    apps = dict(item.split("=", 1) for item in args.apps.split(","))
    results: dict[str, Figures] = {}
    for size in args.sizes.split(","):
        work = args.root / "browser-run"
        work.mkdir(exist_ok=True)
        database = (samples_database(args.root, work / "first-start.log") if size == "samples"
                    else million_database(args.root))  # fmt: skip
        for name, folder in apps.items():
            load = os.getloadavg()[0]
            print(f"{size} · {name} ({folder}), load average {load:.1f}", flush=True)
            results[f"{size} · {name}"] = measure(Path(folder).resolve(), database, work,
                                                  args.cold, args.repeat,
                                                  tuple(args.only.split(",")),
                                                  args.later)  # fmt: skip
    print(table(results))
    out = args.out or args.root / f"browser-{datetime.now():%Y%m%d-%H%M%S}.json"
    out.write_text(json.dumps({k: {"settled": f.seconds, "run_over": f.run_over,
                                   "server_cpu": f.server_cpu, "browser_cpu": f.browser_cpu}
                               for k, f in results.items()}, indent=1) + "\n",
                   encoding="utf-8")  # fmt: skip
    print(f"figures written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
