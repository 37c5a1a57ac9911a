import datetime
import json

from keel_app.common.context import RequestContext
from keel_app.compat_oslo.context import notification_context
from keel_app.compat_oslo.envelope import decode_call
from keel_app.compat_oslo.notification import (
    INFO,
    Notification,
    encode_notification,
    heat_publisher_id,
    routing_key,
    stack_event_type,
)
from tests import oracle
from tests.compat_oslo import golden


def test_stack_create_end_is_byte_identical_to_heats():
    frame = golden.load("notification_stack_create_end")
    sent = golden.inner(frame["body"])
    # Heat's generator built its context with a user name, which the wire form lacks.
    wire_context = decode_call(golden.body("call_create_stack")).context
    caller = RequestContext.from_dict(wire_context, user_name="demo")
    notification = Notification(
        publisher_id=heat_publisher_id("golden-host"),
        event_type=stack_event_type("CREATE", "end"),
        priority=INFO,
        payload=sent["payload"],
        context=caller,
        message_id=sent["message_id"],
        timestamp=datetime.datetime.fromisoformat(sent["timestamp"]),
        unique_id=sent["_unique_id"],
    )
    encoded = encode_notification(notification)
    assert sent["payload"] == frame["payload_given"]
    assert golden.inner(encoded) == sent
    assert encoded == frame["body"].encode()


def test_notification_context_carries_no_credentials():
    caller = RequestContext(auth_token="secret", password="pw", trust_id="t", user_name="demo")
    sent = golden.inner(
        encode_notification(Notification("p", "e", INFO, {}, context=caller, unique_id="u"))
    )
    assert sent["_context_auth_token"] is None
    assert sent["_context_password"] is None
    assert sent["_context_trust_id"] is None
    assert sent["_context_username"] == "demo"


def test_notification_without_context_has_no_context_keys():
    sent = golden.inner(encode_notification(Notification("p", "e", INFO, {"a": 1})))
    assert [key for key in sent if key.startswith("_context_")] == []


def test_timestamp_is_pythons_text_of_a_naive_utc_time():
    at = datetime.datetime(2026, 11, 30, 3, 0, 0)
    sent = golden.inner(encode_notification(Notification("p", "e", INFO, {}, timestamp=at)))
    assert sent["timestamp"] == "2026-11-30 03:00:00"


def test_routing_key_is_topic_and_lower_case_priority():
    frame = golden.load("notification_stack_create_end")
    assert frame["routing_key"].endswith(".info")
    assert routing_key("notifications", "ERROR") == "notifications.error"


def test_publisher_id_defaults_to_orchestration_host():
    assert heat_publisher_id("node1") == "orchestration.node1"
    assert heat_publisher_id("node1", "custom") == "custom"


def test_notification_context_is_oslos_redacted_copy_of_heats_context():
    wire_context = decode_call(golden.body("call_create_stack")).context
    theirs = oracle.run_json(
        """
        import json, sys
        from oslo_config import cfg
        cfg.CONF([], project="heat", default_config_files=[])
        from heat.common import context
        values = json.loads(sys.argv[1])
        contexts = [
            context.RequestContext.from_dict(values),
            context.RequestContext.from_dict(values, user_name="demo", domain_name="d"),
        ]
        print(json.dumps([each.redacted_copy().to_dict() for each in contexts]))
        """,
        json.dumps(wire_context),
    )
    ours = [
        notification_context(RequestContext.from_dict(wire_context)).to_dict(),
        notification_context(
            RequestContext.from_dict(wire_context, user_name="demo", domain_name="d")
        ).to_dict(),
    ]
    for mine, heats in zip(ours, theirs, strict=True):
        assert mine == heats
