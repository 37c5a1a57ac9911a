"""celeryconfig.py points a Celery app at the machine's RabbitMQ and Redis."""

from __future__ import annotations

import celery

import celeryconfig


def _app() -> celery.Celery:
    app = celery.Celery("openkeel-config-check")
    app.config_from_object(celeryconfig)
    return app


def test_broker_is_reachable() -> None:
    app = _app()
    with app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=3)
        assert connection.connected


def test_result_backend_stores_and_reads_a_result() -> None:
    app = _app()
    backend = app.backend
    backend.store_result("openkeel-config-check", {"answer": 42}, "SUCCESS")

    assert backend.get_task_meta("openkeel-config-check")["result"] == {"answer": 42}
    backend.forget("openkeel-config-check")


def test_convergence_steps_are_routed_to_the_engine_worker_queue() -> None:
    app = _app()
    route = app.amqp.router.route({}, "keel.check_resource")

    assert route["queue"].name == "keel.engine_worker"
