import json

import pytest

from keel_app.compat_oslo.envelope import Call
from keel_app.compat_oslo.versions import (
    NoSuchMethod,
    UnsupportedVersion,
    check_dispatch,
    version_is_compatible,
)
from tests import oracle

PAIRS = [
    (implemented, requested)
    for implemented in ("1.0", "1.9", "1.36", "2.0", "1.36.1")
    for requested in ("1.0", "1.9", "1.10", "1.36", "1.37", "2.0", "0.9", "1.36.0", "1.36.2")
]


def test_version_rule_is_oslos():
    theirs = oracle.run_json(
        """
        import json
        import sys
        from oslo_messaging._utils import version_is_compatible
        pairs = json.loads(sys.argv[1])
        print(json.dumps([version_is_compatible(a, b) for a, b in pairs]))
        """,
        json.dumps(PAIRS),
    )
    assert [version_is_compatible(a, b) for a, b in PAIRS] == theirs


@pytest.mark.parametrize(
    ("topic", "served", "refused"),
    [
        ("engine", "1.36", "1.37"),
        ("engine_worker", "1.9", "1.10"),
        ("heat-engine-listener", "1.0", "1.1"),
    ],
)
def test_each_topic_serves_up_to_its_version(topic, served, refused):
    check_dispatch(topic, Call(method="m", version=served))
    with pytest.raises(UnsupportedVersion) as raised:
        check_dispatch(topic, Call(method="m", version=refused))
    assert (
        str(raised.value) == f"Endpoint does not support RPC version {refused}. Attempted method: m"
    )


def test_other_major_version_is_refused():
    with pytest.raises(UnsupportedVersion):
        check_dispatch("engine", Call(method="list_stacks", version="2.0"))


def test_missing_version_means_1_0():
    check_dispatch("heat-engine-listener", Call(method="listening"))


def test_a_namespace_is_refused_as_an_unsupported_version():
    with pytest.raises(UnsupportedVersion):
        check_dispatch("engine", Call(method="list_stacks", version="1.0", namespace="other"))


def test_unknown_and_private_methods_are_no_such_method():
    for method in ("no_such_thing", "_private"):
        with pytest.raises(NoSuchMethod) as raised:
            check_dispatch("engine", Call(method=method, version="1.0"), {"list_stacks"})
        assert str(raised.value) == f"Endpoint does not support RPC method {method}"
