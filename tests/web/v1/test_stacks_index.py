from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.stack_templates import (
    BASE_URL,
    NONE_TEMPLATE,
    created,
    stack_url,
    timestamps_of,
)


def listed(client: FlaskClient, query: str = "") -> Any:
    response = client.get(v1("stacks" + query), headers=HEADERS)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def test_the_listing_shows_each_stack_summary(client: FlaskClient, run_engine: Any) -> None:
    identity = created(client, "listed", NONE_TEMPLATE, tags="a,b")
    run_engine()

    listing = listed(client)

    stack = listing["stacks"][0]
    assert listing == {
        "stacks": [
            {
                "id": identity["stack_id"],
                "links": [{"href": stack_url(identity), "rel": "self"}],
                # noauth callers are admins, whom Heat shows each stack's project.
                "project": "project-a",
                "stack_name": "listed",
                "description": "",
                "stack_status": "CREATE_COMPLETE",
                "stack_status_reason": "Stack CREATE completed successfully",
                **timestamps_of(stack),
                "stack_owner": "alice",
                "parent": None,
                "stack_user_project_id": None,
                "tags": ["a", "b"],
            }
        ]
    }


def test_with_count_adds_the_count_of_the_selection(client: FlaskClient) -> None:
    for name in ("one", "two", "three"):
        created(client, name, NONE_TEMPLATE)

    listing = listed(client, "?with_count=true&name=two")

    assert [stack["stack_name"] for stack in listing["stacks"]] == ["two"]
    assert listing["count"] == 1


def test_filters_by_several_names_and_status(client: FlaskClient, run_engine: Any) -> None:
    for name in ("one", "two", "three"):
        created(client, name, NONE_TEMPLATE)
    run_engine()

    listing = listed(client, "?name=one&name=three&status=COMPLETE&sort_keys=name&sort_dir=asc")

    assert [stack["stack_name"] for stack in listing["stacks"]] == ["one", "three"]


def test_filters_by_tags(client: FlaskClient) -> None:
    created(client, "red", NONE_TEMPLATE, tags="warm,bright")
    created(client, "blue", NONE_TEMPLATE, tags="cold,bright")
    created(client, "grey", NONE_TEMPLATE)

    def names(query: str) -> list[str]:
        return sorted(stack["stack_name"] for stack in listed(client, query)["stacks"])

    assert names("?tags=warm,bright") == ["red"]
    assert names("?tags_any=warm,cold") == ["blue", "red"]
    assert names("?not_tags=bright") == ["grey"]
    assert names("?not_tags_any=warm") == ["blue", "grey"]


def test_a_full_page_links_to_the_next_one(client: FlaskClient) -> None:
    identities = [created(client, name, NONE_TEMPLATE) for name in ("a", "b", "c")]

    first = listed(client, "?limit=2&sort_keys=name&sort_dir=asc")
    marker = identities[1]["stack_id"]
    second = listed(client, f"?sort_keys=name&sort_dir=asc&limit=2&marker={marker}")

    assert [stack["stack_name"] for stack in first["stacks"]] == ["a", "b"]
    assert first["links"] == [
        {
            "rel": "next",
            "href": f"{BASE_URL}?limit=2&sort_keys=name&sort_dir=asc&marker={marker}",
        }
    ]
    assert [stack["stack_name"] for stack in second["stacks"]] == ["c"]
    assert "links" not in second


def test_deleted_stacks_are_listed_only_when_asked(client: FlaskClient, run_engine: Any) -> None:
    identity = created(client, "gone", NONE_TEMPLATE)
    run_engine()
    client.delete(f"{v1('stacks')}/gone/{identity['stack_id']}", headers=HEADERS)
    run_engine()

    assert listed(client)["stacks"] == []
    assert [stack["stack_status"] for stack in listed(client, "?show_deleted=True")["stacks"]] == [
        "DELETE_COMPLETE"
    ]


def test_global_tenant_is_denied_by_heats_default_policy(client: FlaskClient) -> None:
    response = client.get(v1("stacks?global_tenant=true"), headers=HEADERS)

    assert response.status_code == 403
    assert response.get_json()["error"] == {
        "type": "Forbidden",
        "traceback": None,
        "message": "You are not authorized to use stacks:global_index.",
    }


def test_a_bad_limit_is_heats_400(client: FlaskClient) -> None:
    response = client.get(v1("stacks?limit=-2"), headers=HEADERS)

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "HTTPBadRequest",
        "traceback": None,
        "message": "Value '-2' is invalid for 'limit' which only accepts non-negative integer.",
    }


def test_detail_shows_every_key_of_each_stack(client: FlaskClient, run_engine: Any) -> None:
    identity = created(client, "detailed", NONE_TEMPLATE)
    run_engine()

    response = client.get(v1("stacks/detail"), headers=HEADERS)

    stack = response.get_json()["stacks"][0]
    assert response.status_code == 200
    assert stack == {
        "id": identity["stack_id"],
        "links": [{"href": stack_url(identity), "rel": "self"}],
        "stack_name": "detailed",
        "description": "",
        "stack_status": "CREATE_COMPLETE",
        "stack_status_reason": "Stack CREATE completed successfully",
        **timestamps_of(stack),
        "stack_owner": "alice",
        "parent": None,
        "stack_user_project_id": None,
        "tags": None,
    }
