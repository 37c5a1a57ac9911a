"""The scaling types against Heat 27.0.1's own code: the new size of every adjustment,
the batches of a rolling update, the cooldown's decisions on stored metadata, and the
types' schemata and generated templates."""

from __future__ import annotations

import datetime
import itertools
import json
from typing import Any

import pytest

from keel_app.common.context import RequestContext
from keel_app.engine.service import catalog, provider_template
from keel_app.engine.settings import EngineSettings
from keel_app.models.base import utcnow
from keel_app.resources.heat import scaling
from keel_app.resources.heat.cooldown import CooldownMixin
from tests import oracle
from tests.engine.service.test_catalog import HEAT_ENGINE

pytestmark = pytest.mark.oracle

TYPES = ["OS::Heat::AutoScalingGroup", "OS::Heat::ScalingPolicy", "AWS::AutoScaling::ScalingPolicy"]

HEAT_ARITHMETIC = """
import itertools, json, sys
from heat.engine.resources.openstack.heat.instance_group import InstanceGroup
from heat.scaling import scalingutil
request = json.loads(sys.argv[1])
capacities = [
    scalingutil.calculate_new_capacity(current, adjustment, kind, step, *bounds)
    for current, adjustment, kind, step, bounds in itertools.product(*request["capacities"])
]
batches = [
    list(InstanceGroup._get_batches(*case)) for case in itertools.product(*request["batches"])
]
print(json.dumps({"capacities": capacities, "batches": batches}))
"""

HEAT_COOLDOWN = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from heat.engine import resource
from heat.scaling.cooldown import CooldownMixin


class Group(CooldownMixin):
    name = "group"

    def __init__(self, metadata):
        self.metadata = metadata

    def metadata_get(self):
        return json.loads(json.dumps(self.metadata))

    def metadata_set(self, metadata):
        self.metadata = metadata


answers = []
for metadata, cooldown in json.loads(sys.argv[1]):
    group = Group(metadata)
    try:
        group._check_scaling_allowed(cooldown)
        answers.append({"metadata": group.metadata})
    except resource.NoActionRequired as refusal:
        answers.append({"refused": str(refusal)})
print(json.dumps(answers))
"""


class Group(CooldownMixin):
    name = "group"

    def __init__(self, metadata: dict[str, Any]) -> None:
        self.metadata = metadata

    def metadata_get(self, refresh: bool = False) -> Any:
        return json.loads(json.dumps(self.metadata))

    def metadata_set(self, metadata: Any) -> None:
        self.metadata = metadata


def test_every_adjustment_gives_heats_new_size() -> None:
    capacity_axes: list[list[Any]] = [
        [0, 1, 2, 3, 7, 10],
        [-150, -50, -33, -10, -1, 0, 1, 2, 10, 33, 50, 150, 2.5],
        [*scaling.ADJUSTMENT_TYPES, *scaling.CFN_ADJUSTMENT_TYPES, "unknown"],
        [None, 0, 1, 3],
        [[0, 10], [2, 8]],
    ]
    batch_axes = [list(range(5)), list(range(5)), list(range(1, 4)), list(range(4))]

    heat = oracle.run_json(
        HEAT_ARITHMETIC, json.dumps({"capacities": capacity_axes, "batches": batch_axes})
    )

    ours = [
        scaling.calculate_new_capacity(current, adjustment, kind, step, *bounds)
        for current, adjustment, kind, step, bounds in itertools.product(*capacity_axes)
    ]
    assert ours == heat["capacities"]
    assert len(ours) == 6 * 13 * 7 * 4 * 2
    assert [
        [list(batch) for batch in scaling.instance_group_batches(*case)]
        for case in itertools.product(*batch_axes)
    ] == heat["batches"]


def test_the_cooldown_decides_as_heats_on_stored_metadata() -> None:
    now = utcnow()

    def at(seconds: int) -> str:
        return (now + datetime.timedelta(seconds=seconds)).isoformat()

    stored: list[dict[str, Any]] = [
        {},
        {"scaling_in_progress": True},
        {"scaling_in_progress": False},
        {"cooldown_end": {at(600): "change_in_capacity : 1"}, "scaling_in_progress": False},
        {"cooldown_end": {at(-600): "change_in_capacity : 1"}, "scaling_in_progress": False},
        # Written by older releases: the last adjustment's time as the key.
        {at(-30): "ChangeInCapacity : 1"},
        {at(-3000): "ChangeInCapacity : 1"},
        {"cooldown": {at(-30): "ChangeInCapacity : 1"}},
        {"cooldown": {at(-3000): "ChangeInCapacity : 1"}},
    ]
    cases = [[metadata, cooldown] for metadata in stored for cooldown in (None, 0, -5, 60)]

    heat = oracle.run_json(HEAT_COOLDOWN, json.dumps(cases))

    ours = []
    for metadata, cooldown in cases:
        group = Group(metadata)
        try:
            group._check_scaling_allowed(cooldown)
            ours.append({"metadata": group.metadata})
        except Exception as refusal:
            ours.append({"refused": str(refusal)})
    assert ours == heat
    assert {
        "refused": "The resource group could not perform scaling action: due to cooldown, "
        "cooldown 60"
    } in ours


SETTINGS = EngineSettings()
CONTEXT = RequestContext(project_id="p", user_id="u", roles=["admin"], is_admin=True)


def _call(function: Any, **arguments: Any) -> Any:
    return function(CONTEXT, SETTINGS, None, None, **arguments)


@pytest.fixture(scope="module")
def heat_answers() -> dict[str, Any]:
    return oracle.run_json(HEAT_ENGINE, json.dumps({"versions": [], "types": TYPES}))


@pytest.mark.parametrize("type_name", TYPES)
def test_the_schema_is_heats(heat_answers: dict[str, Any], type_name: str) -> None:
    ours = _call(catalog.resource_schema, type_name=type_name, with_description=True)

    assert ours == heat_answers["schemata"][type_name]


@pytest.mark.parametrize("template_type", ["cfn", "hot"])
@pytest.mark.parametrize("type_name", TYPES)
def test_the_generated_template_is_heats(
    heat_answers: dict[str, Any], type_name: str, template_type: str
) -> None:
    ours = _call(
        provider_template.generate_template, type_name=type_name, template_type=template_type
    )

    assert ours == heat_answers["generated"][f"{type_name} {template_type}"]
