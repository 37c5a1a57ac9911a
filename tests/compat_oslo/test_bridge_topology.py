"""The bridge declares what Heat's engine declares: oslo.messaging's own RPC servers for
Heat's three topics in one vhost, the bridge in another, and the broker's lists of
queues, exchanges and bindings of the two compared."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from keel_app.common import config
from keel_app.compat_oslo import topology
from keel_app.compat_oslo.consumer import Bridge, BridgeOptions
from tests import fleet, oracle
from tests.compat_oslo.deployment import rabbit_url

pytestmark = pytest.mark.oracle

HOST = "engine-host"
ENGINE_ID = "5d3c9a4e-engine"

HEAT_SERVERS = """
import sys
from oslo_config import cfg
from heat.common import config, messaging
import oslo_messaging
cfg.CONF(["--config-file", sys.argv[4]], project="heat", default_config_files=[])
messaging.setup(sys.argv[1])
servers = []
for topic, server in (("engine", sys.argv[2]), ("engine_worker", sys.argv[3]),
                      ("heat-engine-listener", sys.argv[3])):
    target = oslo_messaging.Target(topic=topic, server=server)
    servers.append(messaging.get_rpc_server(target, object()))
for server in servers:
    server.start()
print("started", flush=True)
sys.stdin.readline()
for server in servers:
    server.stop()
    server.wait()
"""

FANOUT_NAME = re.compile(r"_fanout_[0-9a-f]{32}$")


def broker_lists(vhost_url: str) -> dict[str, set[tuple[str, ...]]]:
    vhost = vhost_url.rsplit("/", 1)[1]

    def listed(kind: str, *columns: str) -> set[tuple[str, ...]]:
        output = subprocess.run(
            ["rabbitmqctl", "-q", kind, "-p", vhost, *columns],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout
        rows = [line.split("\t") for line in output.splitlines()[1:]]
        return {tuple(FANOUT_NAME.sub("_fanout_*", cell) for cell in row) for row in rows}

    return {
        "queues": listed("list_queues", "name", "durable", "auto_delete", "arguments"),
        "exchanges": {
            row
            for row in listed("list_exchanges", "name", "type", "durable", "auto_delete")
            if not row[0].startswith("amq.") and row[0]
        },
        "bindings": listed(
            "list_bindings", "source_name", "destination_name", "routing_key", "destination_kind"
        ),
    }


@contextlib.contextmanager
def heat_servers(vhost_url: str, conf_path: Path) -> Iterator[None]:
    """oslo.messaging's RPC servers for Heat's topics, running until the block ends."""
    arguments = [rabbit_url(vhost_url), HOST, ENGINE_ID, str(conf_path)]
    process = subprocess.Popen(
        [str(oracle.python()), "-c", HEAT_SERVERS, *arguments],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    try:
        assert process.stdout is not None and process.stdout.readline() == "started\n"
        yield
    finally:
        process.communicate("\n", timeout=60)


@contextlib.contextmanager
def running_bridge(vhost_url: str, conf_path: Path) -> Iterator[None]:
    queue_options = topology.options_from_conf(config.load(["--config-file", str(conf_path)]))
    bridge = Bridge(
        BridgeOptions(url=vhost_url, host=HOST, engine_id=ENGINE_ID, queue_options=queue_options),
        handle=lambda topic, server, call: None,
    )
    thread = threading.Thread(target=bridge.run)
    thread.start()
    try:
        assert bridge.ready.wait(30)
        yield
    finally:
        bridge.stop()
        thread.join(30)


RABBIT_OPTIONS = {
    "defaults": "",
    "durable": "amqp_durable_queues = true\nrabbit_transient_queues_ttl = 600\n",
    "quorum": "rabbit_quorum_queue = true\nrabbit_transient_quorum_queue = true\n",
    "auto-delete": "amqp_auto_delete = true\nrabbit_ha_queues = true\n",
}


@pytest.fixture(params=list(RABBIT_OPTIONS))
def conf_path(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    path = tmp_path / "heat.conf"
    path.write_text("[oslo_messaging_rabbit]\n" + RABBIT_OPTIONS[request.param])
    return path


def test_while_serving_the_queues_exchanges_and_bindings_are_heats(conf_path):
    with fleet.rabbit_vhost() as heat_vhost, fleet.rabbit_vhost() as bridge_vhost:
        with heat_servers(heat_vhost, conf_path), running_bridge(bridge_vhost, conf_path):
            heats = broker_lists(heat_vhost)
            assert broker_lists(bridge_vhost) == heats
    assert len(heats["queues"]) == 9


def test_with_heats_defaults_nothing_is_durable_and_fanouts_expire(tmp_path):
    conf_path = tmp_path / "heat.conf"
    conf_path.write_text("")
    with fleet.rabbit_vhost() as heat_vhost, fleet.rabbit_vhost() as bridge_vhost:
        with heat_servers(heat_vhost, conf_path), running_bridge(bridge_vhost, conf_path):
            ours = broker_lists(bridge_vhost)
    assert ("engine_worker." + ENGINE_ID, "false", "false", "[]") in ours["queues"]
    assert ("engine_fanout_*", "false", "false", '[{"x-expires",1800000}]') in ours["queues"]


def test_after_a_clean_stop_what_is_left_is_what_heat_leaves(tmp_path):
    conf_path = tmp_path / "heat.conf"
    conf_path.write_text("")
    with fleet.rabbit_vhost() as heat_vhost, fleet.rabbit_vhost() as bridge_vhost:
        with heat_servers(heat_vhost, conf_path), running_bridge(bridge_vhost, conf_path):
            pass
        heats = broker_lists(heat_vhost)
        assert broker_lists(bridge_vhost) == heats
    assert not [row for row in heats["queues"] if "_fanout_" in row[0]]
