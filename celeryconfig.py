"""Celery settings of the OpenKeel worker fleet, read by ``app.config_from_object``.

Each value can be overridden from the environment (``KEEL_BROKER_URL``,
``KEEL_RESULT_BACKEND``) so one file serves development, CI and production.
Convergence steps are idempotent per (resource, traversal), which is what makes late
acknowledgement safe: a task lost with its worker is delivered again, never dropped.
"""

import os

broker_url = os.environ.get("KEEL_BROKER_URL", "amqp://guest:guest@127.0.0.1:5672//")
result_backend = os.environ.get("KEEL_RESULT_BACKEND", "redis://127.0.0.1:6379/0")

task_serializer = "json"
result_serializer = "json"
accept_content = ["json"]
timezone = "UTC"
enable_utc = True

# Queue names follow Heat's RPC topics so operators recognise them, with a prefix:
# oslo.messaging's queues of those topics (Heat's, the bridge's) share the broker.
task_default_queue = "keel.engine"
task_routes = {
    "keel.check_resource": {"queue": "keel.engine_worker"},
    "keel.check_resource_batch": {"queue": "keel.engine_worker"},
    "keel.check_resource_delete_snapshot": {"queue": "keel.engine_worker"},
}

task_acks_late = True
task_reject_on_worker_lost = True
worker_prefetch_multiplier = 1

# Flower follows the fleet through task events.
worker_send_task_events = True
task_send_sent_event = False

broker_connection_retry_on_startup = True
result_expires = 3600
