from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.v1.conftest import HEADERS, v1


def test_build_info_names_the_api_and_engine_revisions(client: FlaskClient) -> None:
    response = client.get(v1("build_info"), headers=HEADERS)

    assert response.status_code == 200
    assert response.get_json() == {
        "api": {"revision": "unknown"},
        "engine": {"revision": "unknown"},
    }


def test_an_admin_is_served_whatever_project_the_url_names(client: FlaskClient) -> None:
    # noauth callers are admins, whose own project stands in for the URL's (Heat's rule).
    response = client.get("/v1/project-b/build_info", headers=HEADERS)

    assert response.status_code == 200


def test_build_info_refuses_post_with_the_allowed_methods(client: FlaskClient) -> None:
    response = client.post(v1("build_info"), headers=HEADERS)

    assert response.status_code == 405
