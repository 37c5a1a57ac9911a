"""The bridge's consumer on its own, with handlers of the test's: the call monitor's
heartbeats, duplicate deliveries, and replies to an oslo client of Heat's (the oracle)."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from keel_app.compat_oslo.consumer import Bridge, BridgeOptions
from keel_app.compat_oslo.envelope import Call
from keel_app.compat_oslo.reply import Reply, result_reply
from tests import fleet
from tests.compat_oslo import deployment
from tests.compat_oslo.test_bridge import CONTEXT

pytestmark = pytest.mark.oracle

HOST = "consumer-host"


class SlowEngine:
    """Answers ``wait`` after the seconds it is asked to wait, and counts the calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def handle(self, topic: str, server: str | None, call: Call) -> Reply | None:
        self.calls.append(call.method)
        time.sleep(call.args.get("seconds", 0))
        assert call.msg_id is not None
        return result_reply(call.msg_id, {"waited": call.args.get("seconds", 0), "on": topic})


@pytest.fixture(scope="module")
def slow() -> Iterator[dict[str, Any]]:
    engine = SlowEngine()
    with fleet.rabbit_vhost() as url:
        bridge = Bridge(BridgeOptions(url=url, host=HOST, engine_id="slow-engine"), engine.handle)
        thread = threading.Thread(target=bridge.run)
        thread.start()
        peer = None
        try:
            assert bridge.ready.wait(30)
            peer = deployment.HeatPeer(url)
            yield {"peer": peer, "engine": engine, "url": url, "bridge": bridge}
        finally:
            if peer is not None:
                peer.close()
            bridge.stop()
            thread.join(30)


def wait_call(peer: deployment.HeatPeer, seconds: float, **options: Any) -> dict[str, Any]:
    return peer.request(
        raw=True,
        topic="engine",
        version="1.36",
        method="wait",
        kwargs={"seconds": seconds},
        context=CONTEXT,
        **options,
    )


def test_a_long_call_is_kept_alive_by_heartbeats(slow):
    """oslo gives up after call_monitor_timeout without a heartbeat; the bridge sends one
    every half of it while the call runs."""
    answer = wait_call(slow["peer"], 3, timeout=20, call_monitor_timeout=1)
    assert answer == {"result": {"waited": 3, "on": "engine"}}


def test_a_call_longer_than_its_timeout_times_out(slow):
    answer = wait_call(slow["peer"], 3, timeout=1)
    assert (answer["error"]["type"], answer["error"]["is_timeout"]) == ("MessagingTimeout", True)


def test_calls_run_side_by_side(slow):
    """A slow call does not hold up the next one: the pool runs them concurrently."""
    results: list[dict[str, Any]] = []
    peers = [deployment.HeatPeer(slow["peer"].url) for _ in range(2)]
    try:
        threads = [
            threading.Thread(target=lambda peer=peer: results.append(wait_call(peer, 2)))
            for peer in peers
        ]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
    finally:
        for peer in peers:
            peer.close()
    assert results == [{"result": {"waited": 2, "on": "engine"}}] * 2
    # One after the other they would take four seconds.
    assert elapsed < 3.5


def test_the_bridge_comes_back_after_the_broker_drops_its_connections(slow):
    vhost = slow["url"].rsplit("/", 1)[1]
    subprocess.run(
        ["rabbitmqctl", "-q", "close_all_connections", "--vhost", vhost, "test"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    deadline = time.monotonic() + 30
    answer: dict[str, Any] = {}
    while time.monotonic() < deadline:
        answer = wait_call(slow["peer"], 0, timeout=2)
        if "result" in answer:
            break
    assert answer == {"result": {"waited": 0, "on": "engine"}}


def test_the_bridge_stands_for_the_engines_it_finds_until_they_stay_gone():
    engines = {"engine-a", "engine-b"}
    with fleet.rabbit_vhost() as url:
        options = BridgeOptions(url=url, host=HOST, engine_id="own", discovery_interval=0.2)
        bridge = Bridge(options, lambda topic, server, call: None, lambda: set(engines))
        thread = threading.Thread(target=bridge.run)
        thread.start()
        try:
            assert bridge.ready.wait(30)
            for name in ("engine_worker.engine-a", "heat-engine-listener.engine-b"):
                deployment.wait_for_consumer(url, name, timeout=10)
            engines.discard("engine-a")
            time.sleep(3 * 0.2 + 1.5)
            gone = deployment.queue_consumers(url, "engine_worker.engine-a")
            kept = deployment.queue_consumers(url, "engine_worker.engine-b")
            own = deployment.queue_consumers(url, "heat-engine-listener.own")
        finally:
            bridge.stop()
            thread.join(30)
    assert (gone, kept, own) == (0, 1, 1)
