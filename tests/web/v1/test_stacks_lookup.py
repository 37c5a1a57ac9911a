from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.stack_templates import NONE_TEMPLATE, created, stack_url


def redirect_of(client: FlaskClient, method: str, path: str, **headers: str) -> Any:
    return client.open(v1(path), method=method, headers={**HEADERS, **headers})


def test_a_stack_named_is_found_at_its_canonical_url(client: FlaskClient) -> None:
    identity = created(client, "named", NONE_TEMPLATE)

    response = redirect_of(client, "GET", "stacks/named")

    location = stack_url(identity)
    assert response.status_code == 302
    assert response.headers["Location"] == location
    assert response.headers["Content-Type"] == "text/plain; charset=UTF-8"
    assert response.get_data(as_text=True) == (
        f"302 Found\n\nThe resource was found at {location}; "
        "you should be redirected automatically.  "
    )


def test_a_stack_is_found_by_its_id_with_the_path_and_query_kept(client: FlaskClient) -> None:
    identity = created(client, "by-id", NONE_TEMPLATE)

    response = redirect_of(client, "GET", f"stacks/{identity['stack_id']}/resources?b=2&a=1&b=3")

    assert response.status_code == 302
    assert response.headers["Location"] == f"{stack_url(identity)}/resources?b=2&a=1&b=3"


def test_a_lookup_answers_json_to_who_accepts_it(client: FlaskClient) -> None:
    identity = created(client, "json", NONE_TEMPLATE)

    response = redirect_of(client, "DELETE", "stacks/json", Accept="application/json")

    location = stack_url(identity)
    assert response.status_code == 302
    assert response.get_json() == {
        "message": f'The resource was found at <a href="{location}">{location}</a>;\n'
        "you should be redirected automatically.\n\n",
        "code": "302 Found",
        "title": "Found",
    }


def test_a_lookup_of_an_unknown_stack_is_not_found(client: FlaskClient) -> None:
    response = redirect_of(client, "GET", "stacks/nowhere")

    assert response.status_code == 404
    assert response.get_json() == {
        "code": 404,
        "title": "Not Found",
        "explanation": "The resource could not be found.",
        "error": {
            "type": "EntityNotFound",
            "traceback": None,
            "message": "The Stack (nowhere) could not be found.",
        },
    }


def test_show_of_a_stack_under_another_name_is_not_found(client: FlaskClient) -> None:
    identity = created(client, "real", NONE_TEMPLATE)

    response = client.get(v1(f"stacks/other/{identity['stack_id']}"), headers=HEADERS)

    assert response.status_code == 404
    assert response.get_json()["error"]["message"] == "The Stack (other) could not be found."
