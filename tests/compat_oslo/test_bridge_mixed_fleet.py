"""A mixed fleet: Heat 27.0.1's own heat-engine beside keel-bridge and a keel-worker, on
one RabbitMQ vhost and one MariaDB database, as during a host-by-host switch. The two
kinds of engine find each other alive the way Heat's engines do (``listening`` on
``heat-engine-listener``), and stacks whose calls and steps are shared out between them
complete."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from keel_app.common.context import RequestContext
from keel_app.compat_oslo import caller
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from keel_app.models.service import Service
from keel_app.tasks.dispatcher import CeleryDispatcher
from tests import fleet
from tests.compat_oslo import deployment
from tests.compat_oslo.test_bridge import CONTEXT

pytestmark = pytest.mark.oracle

HEAT_HOST = "heat-mixed-host"
# Heat's engine stores the caller's password instead of asking Keystone for a trust.
MIXED_CONTEXT = {**CONTEXT, "password": "secret-of-bridger"}
TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "one": {"type": "OS::Heat::None"},
        "two": {"type": "OS::Heat::None", "depends_on": "one"},
        "three": {"type": "OS::Heat::None", "depends_on": "one"},
        "four": {"type": "OS::Heat::None", "depends_on": ["two", "three"]},
    },
}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    directory: Path = tmp_path_factory.mktemp("mixed")
    with deployment.deployment(directory) as deployed:
        with deployment.heat_engine(
            directory,
            deployed["database_url"],
            deployed["oslo_url"],
            host=HEAT_HOST,
            defaults="deferred_auth_method = password\n",
        ) as heat_process:
            peer = deployment.HeatPeer(deployed["oslo_url"])
            try:
                yield {**deployed, "peer": peer, "heat_process": heat_process}
            finally:
                peer.close()


def heat_engine_id(mixed: dict[str, Any]) -> str:
    engine = sa.create_engine(mixed["database_url"], poolclass=sa.NullPool)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            with engine.connect() as connection:
                found = connection.scalars(
                    sa.select(Service.engine_id).where(
                        Service.host == HEAT_HOST, Service.deleted_at.is_(None)
                    )
                ).all()
            if found:
                return found[0]
            time.sleep(0.5)
    finally:
        engine.dispose()
    raise AssertionError("heat-engine never registered")


def request(mixed: dict[str, Any], method: str, **kwargs: Any) -> Any:
    answer = mixed["peer"].request(method=method, kwargs=kwargs, context=MIXED_CONTEXT)
    assert "error" not in answer, answer
    return answer["result"]


def test_openkeel_finds_a_live_heat_engine_listening(mixed):
    url = mixed["oslo_url"]
    assert caller.engine_listening(url, heat_engine_id(mixed), timeout=5) is True


def test_openkeel_finds_an_engine_nobody_runs_dead(mixed):
    started = time.monotonic()
    assert caller.engine_listening(mixed["oslo_url"], "no-such-engine", timeout=2) is False
    assert 2 <= time.monotonic() - started < 5


def test_a_keel_dispatcher_asks_heat_engines_before_taking_their_locks(mixed):
    database = Database(mixed["database_url"])
    try:
        dispatcher = CeleryDispatcher(
            EngineSettings(auth_encryption_key=fleet.ENCRYPTION_KEY),
            database,
            lambda engine_id: caller.engine_listening(mixed["oslo_url"], engine_id, timeout=5),
        )
        context = RequestContext(user_id="user-bridge", project_id="project-bridge")
        assert (
            dispatcher.is_engine_alive(context, heat_engine_id(mixed)),
            dispatcher.is_engine_alive(context, "no-such-engine"),
        ) == (True, False)
    finally:
        database.dispose()


def test_stacks_served_by_both_kinds_of_engine_complete(mixed):
    names = [f"mixed-{number}" for number in range(6)]
    identities = [
        request(
            mixed,
            "create_stack",
            stack_name=name,
            template=TEMPLATE,
            params={},
            files={},
            args={"disable_rollback": True},
        )
        for name in names
    ]
    deadline = time.monotonic() + 120
    states: dict[str, str] = {}
    while time.monotonic() < deadline:
        states = {
            row["stack_name"]: f"{row['stack_action']}_{row['stack_status']}"
            for row in request(mixed, "list_stacks")
            if row["stack_name"] in names
        }
        if set(states.values()) == {"CREATE_COMPLETE"} and len(states) == len(names):
            break
        time.sleep(0.5)
    assert states == dict.fromkeys(names, "CREATE_COMPLETE")
    resources = request(mixed, "list_stack_resources", stack_identity=identities[0])
    assert sorted((row["resource_name"], row["resource_status"]) for row in resources) == [
        ("four", "COMPLETE"),
        ("one", "COMPLETE"),
        ("three", "COMPLETE"),
        ("two", "COMPLETE"),
    ]
