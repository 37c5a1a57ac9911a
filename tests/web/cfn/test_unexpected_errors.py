"""An error no action expected: InternalFailure to the caller, a log line with the request id."""

from __future__ import annotations

import logging

import flask
import pytest

from tests.web.v1.conftest import HEADERS


def test_an_unexpected_error_is_logged_with_the_request_id(
    app: flask.Flask, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> str:
        raise RuntimeError("a bug in an action")

    app.add_url_rule("/broken", "broken", broken)
    with caplog.at_level(logging.ERROR):
        response = app.test_client().get("/v1/broken", headers=HEADERS)

    assert response.status_code == 500
    request_id = response.headers["x-openstack-request-id"]
    assert [record.getMessage() for record in caplog.records] == [
        f"[{request_id}] Unexpected error occurred serving API: a bug in an action"
    ]
