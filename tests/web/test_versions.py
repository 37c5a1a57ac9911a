"""The versions document and version negotiation."""

from __future__ import annotations

import flask


def test_the_versions_document_links_to_v1(app: flask.Flask) -> None:
    response = app.test_client().get("/")
    assert response.status_code == 300
    assert response.get_json() == {
        "versions": [
            {
                "id": "v1.0",
                "status": "CURRENT",
                "links": [{"rel": "self", "href": "http://localhost/v1/"}],
            }
        ]
    }


def test_the_link_keeps_the_mount_point(app: flask.Flask) -> None:
    response = app.test_client().get("/", base_url="https://cloud.example.com/orchestration/")
    link = response.get_json()["versions"][0]["links"][0]["href"]
    assert link == "https://cloud.example.com/orchestration/v1/"


def test_v1_routes_are_served_below_v1(app: flask.Flask) -> None:
    assert app.test_client().get("/v1/tenant/probe").status_code == 200


def test_the_media_type_selects_v1_without_the_prefix(app: flask.Flask) -> None:
    response = app.test_client().get(
        "/tenant/probe", headers={"Accept": "application/vnd.openstack.orchestration-v1.0"}
    )
    assert response.status_code == 200


def test_options_lists_the_declared_methods(app: flask.Flask) -> None:
    response = app.test_client().options("/v1/tenant/probe")
    assert (response.status_code, response.headers["Allow"]) == (204, "GET,POST")


def test_a_path_that_is_not_utf8_is_a_bad_request(app: flask.Flask) -> None:
    response = app.test_client().get("/v1/tenant/probe", environ_overrides={"PATH_INFO": "/\xff"})
    assert response.status_code == 400
