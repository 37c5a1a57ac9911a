"""Identifiers against Heat 27.0.1's: every form of every identifier in a table."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

from keel_app.common import identifier
from keel_app.common.identifier import EventIdentifier, HeatIdentifier, ResourceIdentifier
from tests import oracle

pytestmark = pytest.mark.oracle

SIGNAL_URL_BASE = "http://heat.example:8000/v1/waitcondition"


def explore(identifier_module: Any, table: dict[str, list[Any]]) -> dict[str, Any]:
    """Every form of the table's identifiers; runs here and, as source, in the oracle."""
    import json

    heat_identifier = identifier_module.HeatIdentifier
    resource_identifier = identifier_module.ResourceIdentifier
    event_identifier = identifier_module.EventIdentifier

    def attempt(action):
        try:
            return {"value": action()}
        except Exception as error:
            return {"raised": type(error).__name__, "str": str(error)}

    def forms(ident):
        url = f"{SIGNAL_URL_BASE}{ident.arn_url_path()}?Timestamp=1"
        found = {
            "class": type(ident).__name__,
            "dict": dict(ident),
            "repr": repr(ident),
            "list": list(ident),
            "length": len(ident),
            "arn": ident.arn(),
            "arn_url_path": ident.arn_url_path(),
            "url_path": ident.url_path(),
            "stack_path": ident.stack_path(),
            "from_arn": attempt(lambda: dict(type(ident).from_arn(ident.arn()))),
            "from_arn_url": attempt(lambda: dict(heat_identifier.from_arn_url(url))),
            "unknown_item": attempt(lambda: ident["nope"]),
            "contains": ["tenant" in ident, "nope" in ident],
        }
        for name in ("tenant", "stack_name", "stack_id", "path", "resource_name", "event_id"):
            found[name] = attempt(lambda name=name: getattr(ident, name))
        for method in ("stack", "resource"):
            if hasattr(type(ident), method):
                found[method] = attempt(lambda method=method: dict(getattr(ident, method)()))
        return found

    def parse(parser, text):
        parsed = parser(text)
        return {"class": type(parsed).__name__, "dict": dict(parsed)}

    return json.loads(
        json.dumps(
            {
                "stacks": [
                    attempt(lambda a=a: forms(heat_identifier(*a))) for a in table["stacks"]
                ],
                "resources": [
                    attempt(lambda a=a: forms(resource_identifier(*a))) for a in table["resources"]
                ],
                "events": [
                    attempt(lambda a=a: forms(event_identifier(*a))) for a in table["events"]
                ],
                "arns": [
                    attempt(lambda a=a: parse(heat_identifier.from_arn, a)) for a in table["arns"]
                ],
                "resource_arns": [
                    attempt(lambda a=a: parse(resource_identifier.from_arn, a))
                    for a in table["arns"]
                ],
                "arn_urls": [
                    attempt(lambda a=a: parse(heat_identifier.from_arn_url, a))
                    for a in table["arn_urls"]
                ],
            }
        )
    )


TABLE: dict[str, list[Any]] = {
    "stacks": [
        ["3d5d6a1d3c9b4e4b", "wordpress", "e7b4c1b2-8f0e-4b53-a1c1-7a8e9f6b2c3d", ""],
        ["t", "wordpress", "e7b4", "/resources/server"],
        ["t", "wordpress", "e7b4", "resources/server"],
        ["tenant with space", "my stack", "id with space", ""],
        ["tënant", "stäck ☃", "ïd", "/resources/sërver ☃"],
        ["t:colon", "name:colon", "id:colon", "/resources/a:b"],
        ["t", "s", "id/with/slash", "/resources/r"],
        ["t%25", "n%20", "i%", "/p%2F/q"],
        ["t", "a?b#c&d=e", "id+plus", "/x?y#z"],
        ["t", "s", 42, "/resources/r/events/e"],
        ["t", "s", "i", "/"],
        ["t", "", "", ""],
        ["t", "bad/name", "i", ""],
    ],
    "resources": [
        ["t", "s", "i", "", "server"],
        ["t", "s", "i", "/", "server"],
        ["t", "s", "i", "/resources/group/resources/nested", None],
        ["t", "s", "i", "/resources/group", "member 0"],
        ["t", "s", "i", "", "rés ☃"],
        ["t", "s", "i", "", "a/b"],
    ],
    "events": [
        ["t", "s", "i", "/resources/server", "ev-1"],
        ["t", "s", "i", "/resources/server/", "ev 2"],
        ["t", "s", "i", "/resources/server/events/ev-3", None],
        ["t", "s", "i", "", "ev-4"],
    ],
    "arns": [
        "arn:openstack:heat::t:stacks/s/i",
        "arn:openstack:heat::t:stacks/s/i/resources/r",
        "arn:openstack:heat:RegionOne:t%3Ax:stacks/my%20stack/i%2Fd/resources/a%20b",
        "ARN:openstack:heat::t:stacks/s/i",
        "arn:openstack:heat::t:stacks/s:x/i:y/p:q",
        "arn:openstack:heat::t:stacks/s",
        "arn:openstack:heat::t:stack/s/i",
        "arn:aws:heat::t:stacks/s/i",
        "arn:openstack:nova::t:stacks/s/i",
        "urn:openstack:heat::t:stacks/s/i",
        "arn:openstack:heat::t",
        "arn:openstack:heat::t:stacks/a%2Fb/i",
        "",
    ],
    "arn_urls": [
        f"{SIGNAL_URL_BASE}/arn%3Aopenstack%3Aheat%3A%3At%3Astacks%2Fs%2Fi%2Fresources%2Fr",
        f"{SIGNAL_URL_BASE}/arn%3Aopenstack%3Aheat%3A%3At%3Astacks/s/i?Signature=x",
        "https://h/arn%3aopenstack%3aheat%3a%3at%3astacks%2fs%2fi",
        "https://h/ARN%3AOPENSTACK%3AHEAT%3A%3At%3Astacks%2Fs%2Fi",
        "ftp://h/arn%3Aopenstack%3Aheat%3A%3At%3Astacks%2Fs%2Fi",
        "http:///arn%3Aopenstack%3Aheat%3A%3At%3Astacks%2Fs%2Fi",
        "http://h",
        "http://h/v1/stacks/s/i",
        "not a url",
    ],
}

ORACLE_SOURCE = """
import json, sys
from typing import Any
from heat.common import identifier
SIGNAL_URL_BASE = sys.argv[2]
EXPLORE
print(json.dumps(explore(identifier, json.loads(sys.argv[1]))))
"""


@pytest.fixture(scope="module")
def heat() -> dict[str, Any]:
    source = ORACLE_SOURCE.replace("EXPLORE", inspect.getsource(explore))
    return oracle.run_json(source, json.dumps(TABLE), SIGNAL_URL_BASE)


@pytest.fixture(scope="module")
def ours() -> dict[str, Any]:
    return explore(identifier, json.loads(json.dumps(TABLE)))


@pytest.mark.parametrize(
    ("family", "index"),
    [(family, index) for family, rows in TABLE.items() for index in range(len(rows))],
)
def test_matches_heat(heat: dict[str, Any], ours: dict[str, Any], family: str, index: int) -> None:
    assert ours[family][index] == heat[family][index]


def test_table_exercises_both_outcomes(heat: dict[str, Any]) -> None:
    outcomes = {"raised" in row for rows in heat.values() for row in rows}
    assert outcomes == {True, False}


def test_equal_to_plain_dict_and_to_other_identifier_kinds() -> None:
    stack = HeatIdentifier("t", "s", "i", "/resources/r")
    assert stack == {"tenant": "t", "stack_name": "s", "stack_id": "i", "path": "/resources/r"}
    assert ResourceIdentifier("t", "s", "i", "", "r") == stack
    assert EventIdentifier("t", "s", "i", "/resources/r", "e").resource() == stack
    assert stack != HeatIdentifier("t", "s", "i")


def test_stack_name_with_slash_is_rejected_with_heats_message() -> None:
    with pytest.raises(ValueError, match='^Stack name may not contain "/"$'):
        HeatIdentifier("t", "a/b", "i")
