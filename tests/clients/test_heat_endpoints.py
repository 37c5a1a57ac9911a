"""The CFN metadata URL handed to servers, as Heat's heat client plugin makes it: the
configured ``heat_metadata_server_url``, else the catalog's cloudformation endpoint,
always ending in ``/v1/``."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from keel_app.clients.heat_endpoints import HeatClientPlugin, HeatEndpointSettings


def catalog_token(cfn_url: str) -> dict[str, object]:
    return {
        "token": {
            "catalog": [
                {
                    "type": "cloudformation",
                    "endpoints": [
                        {"interface": "public", "region_id": "RegionOne", "url": cfn_url}
                    ],
                }
            ]
        }
    }


def plugin(configured: str | None, cfn_url: str = "http://cfn.example:8000/v1") -> HeatClientPlugin:
    context = SimpleNamespace(
        region_name=None, auth_token="token", auth_token_info=catalog_token(cfn_url)
    )
    settings = HeatEndpointSettings(metadata_server_url=configured)
    return HeatClientPlugin(context, settings, keystone=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("configured", "expected"),
    [
        ("http://metadata.example:8000", "http://metadata.example:8000/v1/"),
        ("http://metadata.example:8000/v1", "http://metadata.example:8000/v1/"),
        ("http://metadata.example:8000/v1/", "http://metadata.example:8000/v1/"),
    ],
)
def test_the_configured_url_ends_in_the_version_path(configured: str, expected: str) -> None:
    assert plugin(configured).get_cfn_metadata_server_url() == expected


def test_without_one_the_catalogs_cloudformation_endpoint() -> None:
    found = plugin(None, "http://cfn.example:8000/v1").get_cfn_metadata_server_url()

    assert found == "http://cfn.example:8000/v1/"
