"""list_stack_resources, describe_stack_resources and list_events on a created stack."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from keel_app.engine.service import resources as service
from keel_app.engine.service import stacks as stack_service
from keel_app.models import Event

TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "word": {"type": "OS::Heat::RandomString", "properties": {"length": 6}},
        "label": {
            "type": "OS::Heat::Value",
            "properties": {"value": {"get_attr": ["word", "value"]}},
        },
        "marker": {"type": "OS::Heat::None"},
    },
}
ENVIRONMENT = {
    "parameters": {},
    "parameter_defaults": {},
    "resource_registry": {},
    "event_sinks": [],
    "encrypted_param_names": [],
}


@pytest.fixture
def identity(context, settings, database, queue) -> dict[str, str]:
    identity = stack_service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name="web",
        template=TEMPLATE,
        params=ENVIRONMENT,
        files={},
        args={},
    )
    queue.run_until_idle()
    return identity


def _names(answers: list[dict[str, Any]]) -> list[str]:
    return [answer["resource_name"] for answer in answers]


def test_resources_filtered_by_type_and_name(context, settings, database, identity) -> None:
    def listed(**arguments: Any) -> list[str]:
        return _names(
            service.list_stack_resources(
                context, settings, database, None, stack_identity=identity, **arguments
            )
        )

    # In the order of their rows, as Heat reads them.
    assert listed() == ["marker", "label", "word"]
    assert listed(filters={"type": "Heat::None"}) == ["marker"]
    assert listed(filters={"name": ["word", "marker"]}) == ["marker", "word"]
    assert listed(filters={"status": "COMPLETE", "action": "CREATE"}) == [
        "marker",
        "label",
        "word",
    ]
    assert listed(filters={"status": "FAILED"}) == []


def test_detailed_listing_shows_attributes(context, settings, database, identity) -> None:
    detailed = service.list_stack_resources(
        context, settings, database, None, stack_identity=identity, with_detail=True
    )

    _marker, label, word = detailed
    assert len(word["attributes"]["value"]) == 6
    assert label["attributes"] == {"value": word["attributes"]["value"]}
    assert (label["description"], label["metadata"]) == ("", {})


def test_describe_stack_resources_by_name(context, settings, database, identity) -> None:
    described = service.describe_stack_resources(
        context, settings, database, None, stack_identity=identity, resource_name="marker"
    )
    everything = service.describe_stack_resources(
        context, settings, database, None, stack_identity=identity, resource_name=None
    )

    assert _names(described) == ["marker"]
    assert _names(everything) == ["word", "label", "marker"]


def test_events_paged_filtered_and_shown_one_by_one(context, settings, database, identity) -> None:
    every = service.list_events(context, settings, database, None, stack_identity=identity)
    with database.transaction() as session:
        stored = session.scalars(sa.select(Event).order_by(Event.id.desc())).all()
        uuids = [row.uuid for row in stored]

    assert [event["event_identity"]["path"].rsplit("/", 1)[-1] for event in every] == uuids
    page = service.list_events(
        context, settings, database, None, stack_identity=identity, limit=2, marker=uuids[0]
    )
    assert [event["event_identity"]["path"].rsplit("/", 1)[-1] for event in page] == uuids[1:3]
    oldest_first = service.list_events(
        context, settings, database, None, stack_identity=identity, sort_dir="asc"
    )
    assert oldest_first == list(reversed(every))
    (one,) = service.list_events(
        context, settings, database, None, stack_identity=identity, filters={"uuid": uuids[-1]}
    )
    assert (one["resource_name"], one["resource_status"], one["resource_properties"]) == (
        "web",
        "IN_PROGRESS",
        {},
    )
    in_progress = service.list_events(
        context,
        settings,
        database,
        None,
        stack_identity=identity,
        filters={"resource_status": "IN_PROGRESS"},
    )
    assert {event["resource_status"] for event in in_progress} == {"IN_PROGRESS"}
