"""Reading a Keystone catalog from the caller's token: which services are there."""

from __future__ import annotations

from keel_app.common.context import RequestContext
from keel_app.engine.resource import service_catalog


def v3_token(*services: tuple[str, str, str | None]) -> dict:
    return {
        "token": {
            "catalog": [
                {
                    "type": service_type,
                    "endpoints": [{"interface": interface, "url": "http://x", "region_id": region}],
                }
                for service_type, interface, region in services
            ]
        }
    }


def test_v3_public_endpoint_makes_the_service_available() -> None:
    context = RequestContext(auth_token_info=v3_token(("compute", "public", "RegionOne")))
    assert service_catalog.service_available(context, "nova") == (True, None)


def test_internal_endpoint_alone_is_not_enough() -> None:
    context = RequestContext(auth_token_info=v3_token(("compute", "internal", "RegionOne")))
    assert service_catalog.service_available(context, "nova") == (
        False,
        "nova compute endpoint is not in service catalog.",
    )


def test_region_of_the_context_must_match() -> None:
    token = v3_token(("compute", "public", "RegionOne"))
    elsewhere = RequestContext(auth_token_info=token, region_name="RegionTwo")
    here = RequestContext(auth_token_info=token, region_name="RegionOne")
    assert service_catalog.service_available(elsewhere, "nova")[0] is False
    assert service_catalog.service_available(here, "nova")[0] is True


def test_last_missing_service_type_is_the_reason() -> None:
    assert service_catalog.service_available(None, "heat") == (
        False,
        "heat cloudformation endpoint is not in service catalog.",
    )


def test_official_name_answers_for_an_alias_but_not_another_alias() -> None:
    official = RequestContext(auth_token_info=v3_token(("block-storage", "public", None)))
    other_alias = RequestContext(auth_token_info=v3_token(("volumev2", "public", None)))
    assert service_catalog.service_available(official, "cinder")[0] is True
    assert service_catalog.service_available(other_alias, "cinder")[0] is False


def test_v2_catalog() -> None:
    token = {
        "access": {
            "serviceCatalog": [
                {"type": "network", "endpoints": [{"publicURL": "http://n", "region": "R"}]}
            ]
        }
    }
    catalog = service_catalog.catalog_from_token(token)
    assert catalog == [
        {
            "type": "network",
            "endpoints": [{"interface": "public", "region": "R", "url": "http://n"}],
        }
    ]
    assert service_catalog.endpoint_exists(catalog, "network", "publicURL")


def test_endpoint_without_url_does_not_count() -> None:
    catalog = [{"type": "image", "endpoints": [{"interface": "public", "url": ""}]}]
    assert not service_catalog.endpoint_exists(catalog, "image")


def test_no_token_is_an_empty_catalog() -> None:
    assert service_catalog.context_catalog(RequestContext()) == []
    assert service_catalog.catalog_from_token("not a token") == []
