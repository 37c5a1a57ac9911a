"""The built-in constraints that need no cloud, value by value, against Heat's own classes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from keel_app.engine.constraints import registry
from tests import oracle

VALUES: dict[str, list[Any]] = {
    "ip_addr": [
        "10.0.0.1",
        "::1",
        "2001:db8::1",
        "1.2.3",
        "1.2.3.4.5",
        "010.1.1.1",
        "a.b.c.d",
        "10.0.0.1 ",
        "",
        5,
        None,
        ["10.0.0.1"],
        "256.1.1.1",
        "::ffff:1.2.3.4",
    ],
    "net_cidr": [
        "10.0.0.0/8",
        "10.0.0.0/255.0.0.0",
        "10.0.0.5/8",
        "10/8",
        "fe80::/64",
        "10.0.0.0/",
        "/8",
        "",
        "10.0.0.0 /8",
        5,
        "1.2.3.4/0",
        "::/0",
    ],
    "ip_or_cidr": ["10.0.0.1", "10.0.0.0/8", "10.0.0.0/99", "x/y", "", 5, None, "fe80::1"],
    "mac_addr": [
        "fa:16:3e:00:00:01",
        "FA:16:3E:00:00:01",
        "fa163e000001",
        "fa16.3e00.0001",
        "fa:16:3e:00:00:0g",
        "",
        5,
    ],
    "iso_8601": [
        "2015-03-31",
        "2015-03-31T12:00:00",
        "2015-03-31T12:00:00.123+05:30",
        "20150331T120000Z",
        "2015-13-01",
        "yesterday",
        "",
        5,
        None,
    ],
    "expiration": [
        "2099-12-31T23:59:59Z",
        "2001-01-01",
        "1999-12-31T23:59:59-05:00",
        " 2099-01-01 ",
        "soon",
        "",
        None,
        5,
    ],
    "timezone": ["UTC", "America/New_York", "Etc/GMT+5", "utc", "Nowhere/City", "/abs", "", None],
    "cron_expression": [
        "*/5 * * * *",
        "0 0 1 1 *",
        "0 0 * * * 0",
        "0 0 30 2 *",
        "a b c d e",
        "* * * * * * * *",
        "0 24 * * *",
        "",
        None,
        "@daily",
    ],
    "dns_name": [
        "example.org",
        "example.org.",
        "a" * 64 + ".org",
        "x." * 130,
        "_srv.example",
        "host-.example",
        "1.2.3.4.",
        "ok-1.example",
        "",
        None,
    ],
    "dns_domain": ["example.org.", "example.org", "-x.org.", "", None, "a..b."],
    "rel_dns_name": ["www", "www.sub", "www.", "a" * 253, "bad_name", "", None],
    "json_string": ['{"a": 1}', "[1, 2", "null", "", None, "{}"],
}


def answers_from_keel() -> list[Any]:
    results = []
    for name, values in VALUES.items():
        for value in values:
            validator = registry.get_constraint(name)()
            try:
                results.append([bool(validator.validate(value, None)), validator.error(value)])
            except Exception as error:
                results.append([type(error).__name__, str(error)])
    return results


HEAT_SOURCE = """
import json, sys, warnings
warnings.simplefilter("ignore")
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.engine import resources
resources.initialise()
env = resources.global_env()
results = []
for name, values in json.loads(sys.argv[1]).items():
    for value in values:
        validator = env.get_constraint(name)()
        try:
            results.append([bool(validator.validate(value, None)), validator.error(value)])
        except Exception as error:
            results.append([type(error).__name__, str(error)])
print(json.dumps(results))
"""


@pytest.mark.oracle
def test_builtin_constraints_judge_and_explain_values_as_heat_does() -> None:
    heat = oracle.run_json(HEAT_SOURCE, json.dumps(VALUES))
    ours = answers_from_keel()
    cases = [(name, value) for name, values in VALUES.items() for value in values]
    differences = [
        (case, mine, theirs)
        for case, mine, theirs in zip(cases, ours, heat, strict=True)
        if mine != theirs
    ]
    assert differences == []
    assert len(cases) > 90
