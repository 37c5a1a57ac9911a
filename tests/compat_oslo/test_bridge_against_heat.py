"""The same engine calls, made by Heat's own EngineClient, answered by keel-bridge and by
Heat 27.0.1's heat-engine reading the same database rows: the answers must be equal.

The stack is created by OpenKeel; heat-engine (on a vhost of its own) then serves it as
if it had created it itself, which is what taking over a Heat database means."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import fleet
from tests.compat_oslo import deployment
from tests.compat_oslo.test_bridge import CONTEXT, NONE_TEMPLATE, TENANT

pytestmark = pytest.mark.oracle

STACK_NAME = "compared"
MISSING = {"stack_name": "nowhere", "stack_id": "0" * 36, "tenant": TENANT, "path": ""}


@pytest.fixture(scope="module")
def peers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    directory: Path = tmp_path_factory.mktemp("against-heat")
    with deployment.deployment(directory) as deployed, fleet.rabbit_vhost() as heat_url:
        ours = deployment.HeatPeer(deployed["oslo_url"])
        try:
            created = ours.request(
                method="create_stack",
                kwargs={
                    "stack_name": STACK_NAME,
                    "template": NONE_TEMPLATE,
                    "params": {},
                    "files": {},
                    "args": {"disable_rollback": True},
                },
                context=CONTEXT,
            )["result"]
            wait_complete(ours, created)
            with deployment.heat_engine(directory, deployed["database_url"], heat_url):
                heats = deployment.HeatPeer(heat_url)
                try:
                    yield {"ours": ours, "heats": heats, "identity": created}
                finally:
                    heats.close()
        finally:
            ours.close()


def wait_complete(peer: deployment.HeatPeer, identity: dict[str, Any]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        (shown,) = peer.request(
            method="show_stack", kwargs={"stack_identity": identity}, context=CONTEXT
        )["result"]
        if (shown["stack_action"], shown["stack_status"]) == ("CREATE", "COMPLETE"):
            return
        time.sleep(0.3)
    raise AssertionError("never complete")


def both(peers: dict[str, Any], method: str, **kwargs: Any) -> tuple[Any, Any]:
    def ask(peer: deployment.HeatPeer) -> Any:
        return peer.request(method=method, kwargs=kwargs, context=CONTEXT)

    return ask(peers["ours"]), ask(peers["heats"])


STACK_CALLS = [
    ("show_stack", {"resolve_outputs": True}),
    ("show_stack", {"resolve_outputs": False}),
    ("get_template", {}),
    ("get_environment", {}),
    ("get_files", {}),
    ("list_outputs", {}),
    ("show_output", {"output_key": "name"}),
    ("list_stack_resources", {}),
    ("list_stack_resources", {"with_detail": True}),
    ("describe_stack_resource", {"resource_name": "first"}),
    ("describe_stack_resources", {"resource_name": None}),
    ("list_events", {}),
]


@pytest.mark.parametrize(
    ("method", "kwargs"), STACK_CALLS, ids=[f"{m}-{k}" for m, k in STACK_CALLS]
)
def test_calls_on_the_stack_answer_as_heat(peers, method, kwargs):
    ours, heats = both(peers, method, stack_identity=peers["identity"], **kwargs)
    if method in ("list_stack_resources", "describe_stack_resources"):
        # Heat lists the rows in the order the database returns them, which for rows
        # OpenKeel wrote is not the template's; the rows themselves must be equal.
        ours, heats = (sorted_rows(answer) for answer in (ours, heats))
    assert ours == heats


def sorted_rows(answer: dict[str, Any]) -> dict[str, Any]:
    return {"result": sorted(answer["result"], key=lambda row: row["resource_name"])}


GLOBAL_CALLS = [
    ("identify_stack", {"stack_name": STACK_NAME}),
    ("list_stacks", {}),
    ("count_stacks", {}),
    ("list_template_versions", {}),
    ("list_template_functions", {"template_version": "2018-08-31"}),
    ("resource_schema", {"type_name": "OS::Heat::None"}),
    ("generate_template", {"type_name": "OS::Heat::None"}),
    ("validate_template", {"template": NONE_TEMPLATE}),
    ("list_software_configs", {}),
    ("show_stack", {"stack_identity": MISSING}),
    ("identify_stack", {"stack_name": "nowhere"}),
    ("resource_schema", {"type_name": "OS::No::Such"}),
]


@pytest.mark.parametrize(
    ("method", "kwargs"), GLOBAL_CALLS, ids=[f"{m}-{k}" for m, k in GLOBAL_CALLS]
)
def test_calls_answer_as_heat(peers, method, kwargs):
    ours, heats = both(peers, method, **kwargs)
    assert ours == heats
