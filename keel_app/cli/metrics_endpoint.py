"""The ``/metrics`` endpoint of OpenKeel's processes, for Prometheus to scrape.

Every process shows what it counted itself (``keel_app.common.metrics``: convergence
steps and their latency, SQL statements, retries). A process that looks after the
deployment (``keel-api``, ``keel all-in-one``) also reads, at each scrape, the database's
gauges (stacks by action and status, actions in flight and their age, long-held resource
locks, table sizes) and, with a broker, the depth of the engines' queues.
``--metrics-port`` starts the endpoint: a port per process, so each ``keel-worker`` of a
host takes its own.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Iterable, Iterator
from typing import Any

from prometheus_client import REGISTRY, start_http_server
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from keel_app.models.database import Database
from keel_app.models.maintenance import deployment_gauges

LOG = logging.getLogger(__name__)

DEFAULT_LOCK_AGE = 60.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("metrics (Prometheus)")
    group.add_argument(
        "--metrics-port",
        type=int,
        help="serve /metrics on this port (0 picks a free one; unset, no endpoint)",
    )
    group.add_argument("--metrics-host", default="127.0.0.1", help="the endpoint's address")
    group.add_argument(
        "--metrics-lock-age",
        type=float,
        default=DEFAULT_LOCK_AGE,
        help="seconds after which a held resource lock counts as long-held (default 60)",
    )


class DeploymentCollector(Collector):
    """The database's gauges, read at each scrape."""

    def __init__(self, database: Database, lock_age_seconds: float) -> None:
        self.database = database
        self.lock_age_seconds = lock_age_seconds

    def describe(self) -> Iterable[Metric]:
        # Nothing up front: registering must not read the database.
        return []

    def collect(self) -> Iterator[Metric]:
        gauges = deployment_gauges.read(self.database, self.lock_age_seconds)
        stacks = GaugeMetricFamily(
            "keel_stacks", "Live stacks by action and status.", labels=["action", "status"]
        )
        for (action, status), count in sorted(gauges.stacks.items()):
            stacks.add_metric([action, status], count)
        yield stacks
        in_flight = GaugeMetricFamily(
            "keel_stack_actions_in_flight", "Stacks IN_PROGRESS, by action.", labels=["action"]
        )
        oldest = GaugeMetricFamily(
            "keel_stack_action_oldest_age_seconds",
            "Seconds since the oldest IN_PROGRESS stack of an action last changed.",
            labels=["action"],
        )
        for action, (count, age) in sorted(gauges.in_flight.items()):
            in_flight.add_metric([action], count)
            oldest.add_metric([action], age)
        yield in_flight
        yield oldest
        yield GaugeMetricFamily(
            "keel_resource_locks_held_long",
            f"Resource locks held for more than {self.lock_age_seconds:g} seconds.",
            value=gauges.long_held_locks,
        )
        rows = GaugeMetricFamily("keel_table_rows", "Rows of a growing table.", labels=["table"])
        rows.add_metric(["event"], gauges.event_rows)
        rows.add_metric(["raw_template"], gauges.raw_template_rows)
        yield rows


class BrokerCollector(Collector):
    """Messages waiting in the engines' shared queues, read at each scrape."""

    def __init__(self, broker_url: str, queue_names: Iterable[str]) -> None:
        self.broker_url = broker_url
        self.queue_names = tuple(queue_names)

    def describe(self) -> Iterable[Metric]:
        return []

    def collect(self) -> Iterator[Metric]:
        from kombu import Connection
        from kombu.exceptions import OperationalError

        depth = GaugeMetricFamily(
            "keel_broker_queue_messages", "Messages ready in a queue.", labels=["queue"]
        )
        try:
            with Connection(self.broker_url, connect_timeout=2) as connection:
                for name in self.queue_names:
                    depth.add_metric([name], _queue_depth(connection, name))
        except (OSError, OperationalError) as error:
            LOG.warning("broker queue depth unavailable: %s", error)
            return
        yield depth


def _queue_depth(connection: Any, name: str) -> int:
    # A passive declare of a queue nobody declared yet closes its channel: one channel each.
    channel = connection.channel()
    try:
        return int(channel.queue_declare(queue=name, passive=True).message_count)
    except Exception:  # noqa: BLE001 (the queue does not exist yet: nothing waits in it)
        return 0
    finally:
        try:
            channel.close()
        except Exception:  # noqa: BLE001 (the broker closed it already)
            pass


def deployment_collectors(conf: Any, arguments: argparse.Namespace) -> list[Collector]:
    """The database's gauges and the engines' queues of heat.conf's deployment."""
    if arguments.metrics_port is None:
        return []
    from keel_app.rpc.celery_transport import ENGINE_QUEUE
    from keel_app.tasks.app import configure
    from keel_app.tasks.dispatcher import WORKER_QUEUE

    database = Database.from_conf(conf)
    broker_url = configure(conf).conf.broker_url
    return [
        DeploymentCollector(database, arguments.metrics_lock_age),
        BrokerCollector(broker_url, (ENGINE_QUEUE, WORKER_QUEUE)),
    ]


def serve(arguments: argparse.Namespace, collectors: Iterable[Collector] = ()) -> int | None:
    """Start the endpoint if ``--metrics-port`` asks for one; the port it listens on."""
    if arguments.metrics_port is None:
        return None
    for collector in collectors:
        REGISTRY.register(collector)
    server, _thread = start_http_server(arguments.metrics_port, addr=arguments.metrics_host)
    port = int(server.server_port)
    LOG.info("metrics on http://%s:%d/metrics", arguments.metrics_host, port)
    return port
