"""Errors raised by views and hooks, answered with Heat's fault body."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

import flask
import pytest

from keel_app.common.exception import StackExists
from keel_app.web.faults import fault_body

INTERNAL_ERROR_EXPLANATION = (
    "The server has either erred or is incapable of performing the requested operation."
)


def test_an_unexpected_error_hides_its_message(app: flask.Flask) -> None:
    response = app.test_client().get("/v1/tenant/broken")
    assert response.status_code == 500
    assert response.headers["Content-Type"] == "application/json"
    assert (
        response.get_data()
        == json.dumps(
            {
                "code": 500,
                "title": "Internal Server Error",
                "explanation": INTERNAL_ERROR_EXPLANATION,
                "error": {"type": "RuntimeError", "traceback": None},
            }
        ).encode()
    )


def test_debug_shows_the_traceback(make_app: Callable[..., flask.Flask]) -> None:
    response = make_app(debug=True).test_client().get("/v1/tenant/broken")
    trace = response.get_json()["error"]["traceback"]
    assert trace.startswith("Traceback (most recent call last)")
    assert trace.rstrip().endswith("RuntimeError: a bug in a view")


def test_a_heat_error_shows_its_message_and_mapped_status(app: flask.Flask) -> None:
    response = app.test_client().get("/v1/tenant/missing")
    assert response.status_code == 404
    assert response.get_json() == {
        "code": 404,
        "title": "Not Found",
        "explanation": "The resource could not be found.",
        "error": {
            "type": "EntityNotFound",
            "traceback": None,
            "message": "The Stack (tenant) could not be found.",
        },
    }


def test_a_request_sent_as_xml_gets_the_xml_form(app: flask.Flask) -> None:
    response = app.test_client().get(
        "/v1/tenant/missing", headers={"Content-Type": "application/xml"}
    )
    assert response.status_code == 404
    assert response.headers["Content-Type"] == "application/xml; charset=UTF-8"
    assert response.get_data() == b"<code>404</code>"


def test_a_remote_error_loses_its_suffix_and_keeps_its_mapping() -> None:
    remote_class = type("StackExists_Remote", (StackExists,), {})
    error = remote_class(stack_name="s1")
    body = fault_body(error, debug=False)
    assert (body["code"], body["error"]) == (
        409,
        {"type": "StackExists", "traceback": None, "message": "The Stack (s1) already exists."},
    )


def test_a_remote_traceback_is_split_from_the_message() -> None:
    remote_class = type("KeyError_Remote", (ValueError,), {"safe": True})
    body = fault_body(remote_class("first line\nTraceback: remote frames"), debug=True)
    assert body["error"] == {
        "type": "KeyError",
        "traceback": "Traceback: remote frames",
        "message": "first line",
    }


def test_an_unexpected_error_is_logged_with_the_request_id(
    app: flask.Flask, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        response = app.test_client().get("/v1/tenant/broken")

    request_id = response.headers["x-openstack-request-id"]
    assert [record.getMessage() for record in caplog.records] == [
        f"[{request_id}] Unexpected error occurred serving API: a bug in a view"
    ]
