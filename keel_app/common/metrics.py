"""What an OpenKeel process counts as it works, for Prometheus.

These are counted where the work happens (a convergence step, a SQL statement, a retry)
and live in the process's default registry. The gauges of the whole deployment (stacks
by status, locks, table sizes, queue depth) are read when a scraper asks, by the
collectors that ``keel_app.cli.metrics_endpoint`` registers.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import Counter, Histogram

RESOURCE_STEPS = Counter(
    "keel_resource_steps",
    "Convergence steps (check_resource) this process ran, by outcome.",
    ["outcome"],
)
RESOURCE_STEP_SECONDS = Histogram(
    "keel_resource_step_seconds",
    "Seconds a convergence step took in this process, from its start to its last commit.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
DATABASE_STATEMENTS = Counter(
    "keel_database_statements",
    "SQL statements this process sent, by their first keyword.",
    ["verb"],
)
DATABASE_RETRIES = Counter(
    "keel_database_retries",
    "Database work run again after a deadlock or a lost connection, by what was retried.",
    ["kind"],
)
# Bound once: a statement's count is on the hot path of every step.
_STATEMENT_COUNTERS = {
    verb: DATABASE_STATEMENTS.labels(verb)
    for verb in ("SELECT", "INSERT", "UPDATE", "DELETE", "OTHER")
}


@contextmanager
def timed_step() -> Iterator[None]:
    """Count one convergence step and observe its duration, failed or not."""
    started = time.perf_counter()
    outcome = "error"
    try:
        yield
        outcome = "done"
    finally:
        RESOURCE_STEP_SECONDS.observe(time.perf_counter() - started)
        RESOURCE_STEPS.labels(outcome).inc()


def count_statement(statement: str) -> None:
    counter = _STATEMENT_COUNTERS.get(statement.lstrip()[:6].upper())
    (counter or _STATEMENT_COUNTERS["OTHER"]).inc()
