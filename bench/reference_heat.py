"""The reference Heat 27.0.1 of ../shared/tools/reference-heat, for the benchmarks that
compare with it: its environment once its up.sh has started it, and ``ReferenceHeat``,
a deployment of bench/convergence.py that sends the stacks to its heat-api through
python-heatclient, as a project member's client does.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

from heatclient import client as heat_client
from heatclient import exc as heat_exc
from keystoneauth1 import loading, session

ROOT = Path(__file__).resolve().parents[1]
REFERENCE_HEAT = ROOT.parent / "shared" / "tools" / "reference-heat"
REF_DIR = Path(os.environ.get("REF_DIR", "/var/tmp/reference-heat"))

# Heat's status is read through its API, which costs heat-api and heat-engine a request
# each time: a poll every 0.1 s keeps that cost small and the reading within 0.1 s.
POLL_SECONDS = 0.1
# Heat 27 can leave a stack IN_PROGRESS for good (past about 1,000 events a stack, its
# engine's events fail): a phase that has made no event for this long has stalled.
STALL_SECONDS = 120.0
EVENT_CHECK_SECONDS = 5.0


def environment(user: str = "admin") -> dict[str, str]:
    """The OS_* variables (and the rest of env.sh) of ``user``, Heat started if it was not."""
    done = subprocess.run(
        ["bash", "-c", f"{REFERENCE_HEAT}/up.sh >&2 && . {REF_DIR}/env.sh {user} && env -0"],
        capture_output=True,
        check=True,
    )
    pairs = (item.split("=", 1) for item in done.stdout.decode().split("\0") if "=" in item)
    return dict(pairs)


class ReferenceHeat:
    """Heat's heat-api and heat-engine, sent the stacks by the demo project's member."""

    name = "Heat 27.0.1 (reference-heat: heat-api, heat-engine, MariaDB, RabbitMQ)"
    counter = None

    def __init__(self) -> None:
        variables = environment("demo")
        auth = loading.get_plugin_loader("password").load_from_options(
            auth_url=variables["OS_AUTH_URL"],
            username=variables["OS_USERNAME"],
            password=variables["OS_PASSWORD"],
            project_name=variables["OS_PROJECT_NAME"],
            user_domain_name=variables["OS_USER_DOMAIN_NAME"],
            project_domain_name=variables["OS_PROJECT_DOMAIN_NAME"],
        )
        self.client = heat_client.Client(
            "1", session=session.Session(auth=auth), region_name=variables["OS_REGION_NAME"]
        )
        # The token and the endpoint are looked up here, not in the first phase's time.
        self.client.stacks.list(limit=1)

    def create(self, name: str, template: dict[str, Any], files: dict[str, str]) -> dict:
        created = self.client.stacks.create(
            stack_name=name, template=template, files=files, parameters={}
        )
        return {"stack_name": name, "stack_id": created["stack"]["id"]}

    def update(self, identity: dict, template: dict[str, Any], files: dict[str, str]) -> None:
        self.client.stacks.update(
            identity["stack_id"], template=template, files=files, parameters={}
        )

    def delete(self, identity: dict) -> None:
        self.client.stacks.delete(identity["stack_id"])

    def wait(self, stack_id: str, action: str) -> str:
        """The stack's status once ``action`` has ended, or ``STALLED(status)``."""
        last_event, last_change = self._latest_event(stack_id), time.monotonic()
        next_check = last_change + EVENT_CHECK_SECONDS
        while True:
            status = self._status(stack_id)
            if status.startswith(action) and not status.endswith("IN_PROGRESS"):
                return status
            now = time.monotonic()
            if now >= next_check:
                next_check = now + EVENT_CHECK_SECONDS
                event = self._latest_event(stack_id)
                if event != last_event:
                    last_event, last_change = event, now
                elif now - last_change > STALL_SECONDS:
                    return f"STALLED({status})"
            time.sleep(POLL_SECONDS)

    def _status(self, stack_id: str) -> str:
        try:
            return str(self.client.stacks.get(stack_id, resolve_outputs=False).stack_status)
        except heat_exc.HTTPNotFound:
            return "DELETE_COMPLETE"  # a deleted stack is no longer found by its id

    def _latest_event(self, stack_id: str) -> str | None:
        try:
            events = self.client.events.list(stack_id, limit=1, sort_dir="desc")
        except heat_exc.HTTPNotFound:
            return None
        return events[0].id if events else None

    def tasks_run(self) -> int:
        return 0  # Heat's RPC casts are not counted

    def rss_mb(self) -> float:
        return 0.0

    def close(self) -> None:
        pass
