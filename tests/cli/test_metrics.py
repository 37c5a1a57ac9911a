"""Prometheus metrics of ``keel all-in-one``, ``keel-api`` and ``keel-worker``, scraped over
HTTP while stacks are created, as Prometheus scrapes them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests
from kombu import Connection, Queue
from prometheus_client.parser import text_string_to_metric_families

from keel_app.cli.metrics_endpoint import BrokerCollector
from keel_app.web.spare_ports import free_port
from tests import databases, fleet
from tests.cli.distributed import wait_for_http
from tests.models.api.factories import migrated_database

HOST = "127.0.0.1"
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(port: int) -> Samples:
    text = requests.get(f"http://{HOST}:{port}/metrics", timeout=10).text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def none_stack(count: int) -> dict:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {f"r{index}": {"type": "OS::Heat::None"} for index in range(count)},
    }


SLOW_STACK = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "slow": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": "v", "action_wait_secs": {"create": 6}},
        }
    },
}


def create(base: str, name: str, template: dict) -> str:
    answer = requests.post(
        f"{base}/stacks", json={"stack_name": name, "template": template}, timeout=60
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["stack"]["id"])


def wait_for(condition: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def status_of(base: str, name: str) -> str:
    return str(requests.get(f"{base}/stacks/{name}", timeout=30).json()["stack"]["stack_status"])


def completed(base: str, name: str) -> Callable[[], bool]:
    return lambda: not status_of(base, name).endswith("IN_PROGRESS")


@pytest.fixture(scope="module")
def all_in_one(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """The API's base URL and the metrics port of a ``keel all-in-one``."""
    directory = tmp_path_factory.mktemp("metrics-all-in-one")
    port, metrics_port = free_port(HOST), free_port(HOST)
    with open(directory / "all-in-one.log", "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "keel_app.cli.keel", "all-in-one", "--port", str(port),
             "--cfn-port", "0", "--state-dir", str(directory / "state"),
             "--metrics-port", str(metrics_port), "--metrics-lock-age", "1"],
            stdout=subprocess.DEVNULL,
            stderr=log,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )  # fmt: skip
    try:
        wait_for_http(f"http://{HOST}:{port}/", process, directory / "all-in-one.log")
        yield f"http://{HOST}:{port}/v1/admin", metrics_port
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_create_moves_the_step_and_statement_counts(all_in_one: tuple[str, int]) -> None:
    base, metrics_port = all_in_one
    before = scrape(metrics_port)

    create(base, "counted", none_stack(30))
    wait_for(completed(base, "counted"))
    # The step that completes the stack is counted when it returns, a moment after the
    # stack shows COMPLETE: scrape until it is.
    after: Samples = {}

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    def steps_counted() -> bool:
        after.clear()
        after.update(scrape(metrics_port))
        return moved("keel_resource_steps_total", outcome="done") >= 30

    wait_for(steps_counted, timeout=10)
    assert moved("keel_resource_step_seconds_count") >= 30
    assert moved("keel_database_statements_total", verb="INSERT") >= 60
    assert moved("keel_database_statements_total", verb="SELECT") > 0
    assert value(after, "keel_stacks", action="CREATE", status="COMPLETE") >= 1
    assert moved("keel_table_rows", table="event") >= 62
    assert moved("keel_table_rows", table="raw_template") >= 1


def test_an_action_in_flight_shows_its_age_and_its_long_held_lock(
    all_in_one: tuple[str, int],
) -> None:
    base, metrics_port = all_in_one
    create(base, "in-flight", SLOW_STACK)
    time.sleep(2.5)

    during = scrape(metrics_port)
    wait_for(completed(base, "in-flight"))
    after = scrape(metrics_port)

    assert value(during, "keel_stack_actions_in_flight", action="CREATE") == 1
    assert value(during, "keel_stack_action_oldest_age_seconds", action="CREATE") >= 1
    assert value(during, "keel_resource_locks_held_long") == 1
    assert value(after, "keel_stack_actions_in_flight", action="CREATE") == 0
    assert value(after, "keel_resource_locks_held_long") == 0


@pytest.fixture
def distributed(tmp_path: Path) -> Iterator[tuple[str, int, int]]:
    """keel-api and one keel-worker on MariaDB and RabbitMQ: the API's base URL and the
    metrics ports of the API and of the worker."""
    worker_metrics, api_metrics, api_port = free_port(HOST), free_port(HOST), free_port(HOST)
    with (
        fleet.rabbit_vhost() as vhost_url,
        fleet.broker(vhost_url),
        databases.fresh_database("mysql", tmp_path) as database_url,
    ):
        migrated_database(database_url).dispose()
        conf = fleet.write_heat_conf(tmp_path, database_url)
        workers = fleet.Fleet(conf, vhost_url, tmp_path)
        workers.start(1, extra_arguments=("--metrics-port", str(worker_metrics)))
        with open(tmp_path / "keel-api.log", "wb") as log:
            api = subprocess.Popen(
                [sys.executable, "-m", "keel_app.cli.api", "--config-file", str(conf),
                 "--port", str(api_port), "--cfn-port", "0",
                 "--metrics-port", str(api_metrics)],
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "KEEL_BROKER_URL": vhost_url},
            )  # fmt: skip
        try:
            wait_for_http(f"http://{HOST}:{api_port}/", api, tmp_path / "keel-api.log")
            yield f"http://{HOST}:{api_port}/v1/admin", api_metrics, worker_metrics
        finally:
            api.terminate()
            api.wait(timeout=30)
            workers.stop()


def test_the_fleet_shows_its_queues_and_each_worker_its_steps(
    distributed: tuple[str, int, int],
) -> None:
    base, api_metrics, worker_metrics = distributed
    before = scrape(worker_metrics)

    create(base, "fleet", none_stack(20))
    wait_for(completed(base, "fleet"))
    worker_after, api_after = scrape(worker_metrics), scrape(api_metrics)

    steps = value(worker_after, "keel_resource_steps_total", outcome="done")
    assert steps - value(before, "keel_resource_steps_total", outcome="done") >= 20
    assert value(api_after, "keel_stacks", action="CREATE", status="COMPLETE") == 1
    assert ("keel_broker_queue_messages", (("queue", "keel.engine_worker"),)) in api_after
    assert value(api_after, "keel_broker_queue_messages", queue="keel.engine_worker") == 0


def test_queue_depth_counts_the_messages_waiting() -> None:
    # Confirmed publishes: a message is in its queue before the collector asks, rather
    # than still on its way when the collector's own connection reads the count.
    confirmed = {"confirm_publish": True}
    with (
        fleet.rabbit_vhost() as vhost_url,
        Connection(vhost_url, transport_options=confirmed) as connection,
    ):
        queue = Queue("keel.engine_worker")
        producer = connection.Producer()
        for number in range(3):
            producer.publish({"n": number}, routing_key=queue.name, declare=[queue])
        collector = BrokerCollector(vhost_url, ["keel.engine_worker", "keel.engine"])

        (family,) = list(collector.collect())

    assert {sample.labels["queue"]: sample.value for sample in family.samples} == {
        "keel.engine_worker": 3,
        "keel.engine": 0,
    }
