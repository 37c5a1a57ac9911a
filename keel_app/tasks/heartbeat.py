"""An engine's service row: registered at start, reported every ``periodic_interval``.

``openstack orchestration service list`` and ``keel-manage service list`` read these
rows; other engines read them to find the node to ask whether this engine is alive.
A clean stop soft-deletes the row; a killed process just stops reporting.
"""

from __future__ import annotations

import logging
import socket
import threading

from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from keel_app.models.maintenance import services

LOG = logging.getLogger(__name__)

# The names Heat's engine registers under, which operators' tools filter on.
BINARY = "heat-engine"
TOPIC = "engine"


class Heartbeat:
    """The service row of one engine process and the thread that keeps it fresh."""

    def __init__(self, database: Database, settings: EngineSettings, interval: int):
        self.database = database
        self.settings = settings
        self.interval = interval
        self.hostname = socket.gethostname()
        self.service_id: str | None = None
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> str:
        cleaned = services.clean_host_services(self.database, self.settings.host, BINARY)
        if cleaned:
            LOG.info("Removed the rows of %d dead engines of this host", len(cleaned))
        self.service_id = services.register_service(
            self.database,
            engine_id=self.settings.engine_id,
            host=self.settings.host,
            hostname=self.hostname,
            binary=BINARY,
            topic=TOPIC,
            report_interval=self.interval,
        )
        self._thread = threading.Thread(target=self._run, name="keel-heartbeat", daemon=True)
        self._thread.start()
        return self.service_id

    def _run(self) -> None:
        while not self._stopped.wait(self.interval):
            try:
                services.report_service(self.database, self.service_id or "")
            except Exception:  # the next beat tries again; a beat must not kill the thread
                LOG.exception("Service %s heartbeat failed", self.service_id)

    def stop(self) -> None:
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout=self.interval + 5)
        if self.service_id is not None:
            services.delete_service(self.database, self.service_id)
