"""CORS as heat-api answers it: the ``[cors]`` options of heat.conf, with Heat's defaults."""

from __future__ import annotations

from collections.abc import Callable

import flask

ORIGIN = "https://dashboard.example.com"
CORS_CONF = f"[cors]\nallowed_origin = {ORIGIN}\nmax_age = 600\n"


def preflight(app: flask.Flask, origin: str, method: str = "POST", headers: str = "") -> dict:
    request_headers = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers:
        request_headers["Access-Control-Request-Headers"] = headers
    response = app.test_client().options("/v1/project-a/stacks", headers=request_headers)
    # The route's own OPTIONS answer (204) is kept, with the filter's headers added.
    assert response.status_code == 204
    return {key: value for key, value in response.headers.items() if key.startswith("Access")}


def test_a_listed_origin_gets_the_preflight_headers(make_app: Callable[..., flask.Flask]) -> None:
    app = make_app(extra=CORS_CONF)

    assert preflight(app, ORIGIN, headers="X-Auth-Token,Content-Type") == {
        "Access-Control-Allow-Origin": ORIGIN,
        "Access-Control-Allow-Credentials": "true",
        "Access-Control-Max-Age": "600",
        "Access-Control-Allow-Methods": "POST",
        "Access-Control-Allow-Headers": "X-Auth-Token,Content-Type",
    }


def test_an_origin_not_listed_gets_none(make_app: Callable[..., flask.Flask]) -> None:
    app = make_app(extra=CORS_CONF)

    assert preflight(app, "https://elsewhere.example.com") == {}


def test_a_header_outside_heats_defaults_is_not_allowed(
    make_app: Callable[..., flask.Flask],
) -> None:
    app = make_app(extra=CORS_CONF)

    assert preflight(app, ORIGIN, headers="X-Secret-Header") == {}


def test_a_method_outside_heats_defaults_is_not_allowed(
    make_app: Callable[..., flask.Flask],
) -> None:
    app = make_app(extra=CORS_CONF)

    assert preflight(app, ORIGIN, method="TRACE") == {}


def test_an_actual_request_exposes_heats_headers(make_app: Callable[..., flask.Flask]) -> None:
    app = make_app(extra=CORS_CONF)

    response = app.test_client().get(
        "/v1/project-a/probe",
        headers={"Origin": ORIGIN, "X-Auth-User": "alice", "X-Auth-Project": "project-a"},
    )

    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert response.headers["Access-Control-Expose-Headers"] == (
        "X-Auth-Token,X-Subject-Token,X-Service-Token,X-OpenStack-Request-ID"
    )


def test_without_cors_configuration_options_still_get_a_bare_200(
    make_app: Callable[..., flask.Flask],
) -> None:
    response = make_app().test_client().options("/no/such/route", headers={"Origin": ORIGIN})

    assert (response.status_code, response.data, response.headers.get("Content-Type")) == (
        200,
        b"",
        None,
    )
    assert "Access-Control-Allow-Origin" not in response.headers
