"""Which request bodies count as JSON, and the size limit."""

from __future__ import annotations

import flask

from tests.web.heat_api import MAX_JSON_BODY_SIZE


def posted_body(app: flask.Flask, data: bytes, content_type: str | None) -> flask.Response:
    headers = {"Content-Type": content_type} if content_type else {}
    return app.test_client().post("/v1/tenant/probe", data=data, headers=headers)


def test_a_json_object_reaches_the_view(app: flask.Flask) -> None:
    response = posted_body(app, b'{"stack_name": "s1"}', "application/json")
    assert response.get_json()["body"] == {"stack_name": "s1"}


def test_plain_text_counts_as_json(app: flask.Flask) -> None:
    response = posted_body(app, b'{"a": 1}', "text/plain; charset=utf-8")
    assert response.get_json()["body"] == {"a": 1}


def test_a_body_without_content_type_counts_as_json(app: flask.Flask) -> None:
    assert posted_body(app, b'{"a": 1}', None).get_json()["body"] == {"a": 1}


def test_a_body_not_starting_an_object_is_no_body(app: flask.Flask) -> None:
    assert posted_body(app, b"[1, 2]", "application/json").get_json()["body"] is None


def test_another_content_type_is_no_body(app: flask.Flask) -> None:
    response = posted_body(app, b'{"a": 1}', "application/x-www-form-urlencoded")
    assert response.get_json()["body"] is None


def test_get_names_its_content_type_in_the_query(app: flask.Flask) -> None:
    response = app.test_client().get(
        "/v1/tenant/probe?ContentType=JSON",
        data=b'{"a": 1}',
        headers={"Content-Type": "application/xml"},
    )
    assert response.get_json()["body"] == {"a": 1}


def test_a_body_over_the_limit_is_refused(app: flask.Flask) -> None:
    size = MAX_JSON_BODY_SIZE + 10
    response = posted_body(app, b"{" + b" " * (size - 2) + b"}", "application/json")
    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "RequestLimitExceeded",
        "traceback": None,
        "message": f"Request limit exceeded: JSON body size ({size} bytes) exceeds maximum "
        f"allowed size ({MAX_JSON_BODY_SIZE} bytes).",
    }


def test_malformed_json_is_a_bad_request(app: flask.Flask) -> None:
    response = posted_body(app, b'{"a": tru}', "application/json")
    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "HTTPBadRequest",
        "traceback": None,
        "message": "Expecting value: line 1 column 7 (char 6)",
    }
