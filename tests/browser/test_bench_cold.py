"""The browser benchmark's cold servers (``benchmarks.bench_browser.cold_servers``): the
never-seen browser's visits each at a new port, the returning browser's at the port of
the last of those, whose scripts it holds."""

from __future__ import annotations

from benchmarks.bench_browser import NEW, RETURNING, ColdServer, cold_servers


def test_a_returning_browser_visits_new_servers_at_the_port_it_saw() -> None:
    servers = cold_servers(3)
    port = servers[2].port
    assert isinstance(port, int)
    assert servers == [ColdServer(NEW, None), ColdServer(NEW, None), ColdServer(NEW, port),
                       ColdServer(RETURNING, port), ColdServer(RETURNING, port),
                       ColdServer(RETURNING, port)]  # fmt: skip


def test_later_visits_come_after_and_one_server_at_least() -> None:
    servers = cold_servers(1, later=10)
    port = servers[0].port
    assert servers == [ColdServer(NEW, port), ColdServer(RETURNING, port),
                       ColdServer(f"{RETURNING}, 10 s after the start", port, 10.0)]  # fmt: skip
    assert [s.name for s in cold_servers(0)] == [NEW]
