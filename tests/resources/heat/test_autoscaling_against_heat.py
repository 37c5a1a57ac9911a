"""The scaling types against Heat 27.0.1's own code: the new size of every adjustment,
the batches of a rolling update, the cooldown's decisions on stored metadata, and the
types' schemata and generated templates."""

from __future__ import annotations

import datetime
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from keel_app.common.context import RequestContext
from keel_app.engine.environment import PACKAGED_ENVIRONMENT_DIR
from keel_app.engine.service import catalog, provider_template
from keel_app.engine.settings import EngineSettings
from keel_app.models.base import utcnow
from keel_app.resources.heat import scaling
from keel_app.resources.heat.cooldown import CooldownMixin
from tests import oracle
from tests.engine.resource import keel_side
from tests.engine.resource import test_corpus as resource_corpus
from tests.engine.service.test_catalog import HEAT_ENGINE
from tests.engine.validate import keel_side as validate_side
from tests.engine.validate.heat_runner import run_heat_side

pytestmark = pytest.mark.oracle

TYPES = [
    "OS::Heat::AutoScalingGroup",
    "OS::Heat::ScalingPolicy",
    "AWS::AutoScaling::ScalingPolicy",
    "AWS::AutoScaling::LaunchConfiguration",
]

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


HEAT_ROLLING = """
import itertools, json, sys
from heat.engine.resources.openstack.heat.instance_group import InstanceGroup
from heat.scaling import template


def simulate(size, target, batch_size, minimum):
    counter = itertools.count()
    members = [("m%d" % next(counter), "old") for _ in range(size)]
    history = []
    capacity = len(members)
    target = min(target or capacity, capacity)
    for total, new in InstanceGroup._get_batches(target, capacity, batch_size, minimum):
        definitions = dict(template.member_definitions(
            members, "new", total, new, lambda: "m%d" % next(counter)))
        kept = [(name, definitions.pop(name)) for name, _old in members if name in definitions]
        members = kept + sorted(definitions.items(), key=lambda item: int(item[0][1:]))
        history.append(members)
    return history


print(json.dumps([simulate(*case) for case in json.loads(sys.argv[1])]))
"""


def simulate_rolling_update(
    size: int, target: int, batch_size: int, minimum: int
) -> list[list[list[str]]]:
    """The members (oldest first) after each batch of replacing ``size`` members' "old"
    definition by "new", as an AutoScalingGroup's update does."""
    counter = itertools.count()
    members = [(f"m{next(counter)}", "old") for _ in range(size)]
    history = []
    target = min(target or size, size)
    for total, new in scaling.instance_group_batches(target, size, batch_size, minimum):
        definitions = dict(
            scaling.member_definitions(
                members, "new", total, new, lambda: f"m{next(counter)}", lambda _n, d: d
            )
        )
        kept = [(name, definitions.pop(name)) for name, _old in members if name in definitions]
        members = kept + sorted(definitions.items(), key=lambda item: int(item[0][1:]))
        history.append([list(member) for member in members])
    return history


def test_rolling_updates_replace_the_members_heat_replaces() -> None:
    cases = [list(case) for case in itertools.product(range(5), range(5), range(1, 4), range(4))]

    heat = oracle.run_json(HEAT_ROLLING, json.dumps(cases))

    assert [simulate_rolling_update(*case) for case in cases] == heat
    # With two to keep in service, one member of two keeps the old definition.
    assert simulate_rolling_update(2, 2, 1, 2)[-1] == [["m1", "old"], ["m2", "new"]]


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


def _case(case_id: str, resources: str, calls: list[str]) -> dict[str, Any]:
    template = f"heat_template_version: 2015-04-30\nresources:\n{resources}"
    return {
        "id": case_id,
        "template": template,
        "calls": calls,
        "catalog": keel_side.DEFAULT_CATALOG,
        "expect": "from-heat",
    }


GROUP = """\
  group:
    type: OS::Heat::AutoScalingGroup
    properties:
      resource: {type: OS::Heat::RandomString, properties: {length: 4}}
"""
EVERY_STEP = ["validate_template", "validate", "properties", "update_allowed", "attributes"]
# A group that passes its own checks goes on to validate its nested stack, which this
# harness's stacks cannot build (nor Heat's without a message transport): the scenario
# tests cover that part.
GROUP_STEPS = ["validate_template", "properties", "update_allowed", "attributes"]
VALIDATION_CASES = [
    _case("group-sizes", GROUP + "      min_size: 1\n      max_size: 3\n", GROUP_STEPS),
    _case(
        "group-every-property",
        GROUP
        + "      min_size: 0\n      max_size: 4\n      desired_capacity: 2\n      cooldown: 30\n"
        "      rolling_updates: {max_batch_size: 2, pause_time: 1.5}\n",
        ["properties"],
    ),
    _case("group-min-above-max", GROUP + "      min_size: 4\n      max_size: 3\n", ["validate"]),
    _case(
        "group-desired-above-max",
        GROUP + "      min_size: 1\n      max_size: 3\n      desired_capacity: 4\n",
        ["validate"],
    ),
    _case("group-negative-min", GROUP + "      min_size: -1\n      max_size: 3\n", ["validate"]),
    _case("group-without-sizes", GROUP, ["validate_template", "validate"]),
    _case(
        "group-bad-batch",
        GROUP
        + "      min_size: 1\n      max_size: 3\n      rolling_updates: {max_batch_size: 0}\n",
        ["validate"],
    ),
    _case(
        "policy-percent-with-step",
        "  policy:\n    type: OS::Heat::ScalingPolicy\n    properties:\n"
        "      auto_scaling_group_id: g\n      adjustment_type: percent_change_in_capacity\n"
        "      scaling_adjustment: 10\n      min_adjustment_step: 2\n      cooldown: 1.5\n",
        EVERY_STEP,
    ),
    _case(
        "policy-step-without-percent",
        "  policy:\n    type: OS::Heat::ScalingPolicy\n    properties:\n"
        "      auto_scaling_group_id: g\n      adjustment_type: exact_capacity\n"
        "      scaling_adjustment: 1\n      min_adjustment_step: 2\n",
        ["validate"],
    ),
    _case(
        "policy-unknown-type",
        "  policy:\n    type: OS::Heat::ScalingPolicy\n    properties:\n"
        "      auto_scaling_group_id: g\n      adjustment_type: ExactCapacity\n"
        "      scaling_adjustment: 1\n",
        ["validate"],
    ),
    _case(
        "aws-policy",
        "  policy:\n    type: AWS::AutoScaling::ScalingPolicy\n    properties:\n"
        "      AutoScalingGroupName: g\n      AdjustmentType: PercentChangeInCapacity\n"
        "      ScalingAdjustment: 10\n      MinAdjustmentStep: 1\n",
        EVERY_STEP,
    ),
    _case(
        "aws-policy-step-without-percent",
        "  policy:\n    type: AWS::AutoScaling::ScalingPolicy\n    properties:\n"
        "      AutoScalingGroupName: g\n      AdjustmentType: ChangeInCapacity\n"
        "      ScalingAdjustment: 1\n      MinAdjustmentStep: 1\n",
        ["validate"],
    ),
]


@pytest.fixture(scope="module")
def heat_validation(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    request_path = tmp_path_factory.mktemp("scaling-validation") / "request.json"
    request_path.write_text(json.dumps({"cases": VALIDATION_CASES, "schemas": []}))
    heat_side = Path(resource_corpus.__file__).with_name("heat_side.py")
    return list(json.loads(oracle.run(heat_side.read_text(), str(request_path)))["answers"])


@pytest.mark.parametrize(
    "index", range(len(VALIDATION_CASES)), ids=[case["id"] for case in VALIDATION_CASES]
)
def test_validation_answers_as_heats(heat_validation: list[Any], index: int) -> None:
    assert keel_side.answer(VALIDATION_CASES[index]) == heat_validation[index]


def _validate_case(case_id: str, resources: dict[str, Any]) -> dict[str, Any]:
    template = {"heat_template_version": "2018-08-31", "resources": resources}
    return {"id": case_id, "template": template, "expect": "from-heat"}


def _group(member: dict[str, Any], **sizes: Any) -> dict[str, Any]:
    properties = {"min_size": 1, "max_size": 3, "resource": member, **sizes}
    return {"group": {"type": "OS::Heat::AutoScalingGroup", "properties": properties}}


POLICY = {
    "policy": {
        "type": "OS::Heat::ScalingPolicy",
        "properties": {
            "auto_scaling_group_id": {"get_resource": "group"},
            "adjustment_type": "change_in_capacity",
            "scaling_adjustment": 1,
        },
    }
}
TEMPLATE_CASES = [
    _validate_case("valid-group", _group({"type": "OS::Heat::None"})),
    _validate_case("group-and-policy", {**_group({"type": "OS::Heat::None"}), **POLICY}),
    _validate_case("unknown-member-type", _group({"type": "OS::No::Such"})),
    _validate_case(
        "member-with-a-bad-property",
        _group({"type": "OS::Heat::RandomString", "properties": {"length": "long"}}),
    ),
    _validate_case("member-without-type", _group({"properties": {}})),
    _validate_case("min-above-max", _group({"type": "OS::Heat::None"}, min_size=5)),
    _validate_case("desired-below-min", _group({"type": "OS::Heat::None"}, desired_capacity=0)),
    _validate_case("empty-group", _group({"type": "OS::No::Such"}, min_size=0)),
]


@pytest.fixture(scope="module")
def heat_validate_answers(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    request = {"environment_dir": str(PACKAGED_ENVIRONMENT_DIR), "cases": TEMPLATE_CASES}
    return list(run_heat_side(request, tmp_path_factory.mktemp("scaling-validate"))["answers"])


@pytest.mark.parametrize(
    "index", range(len(TEMPLATE_CASES)), ids=[case["id"] for case in TEMPLATE_CASES]
)
def test_validate_template_answers_as_heats(heat_validate_answers: list[Any], index: int) -> None:
    ours = validate_side.answer_for(TEMPLATE_CASES[index])
    assert validate_side.comparable(ours) == validate_side.comparable(heat_validate_answers[index])
