"""Our frames read by the real oslo.messaging and Heat, in the oracle's environment."""

import json

from keel_app.common.context import RequestContext
from keel_app.common.exception import EntityNotFound
from keel_app.compat_oslo.envelope import encode_call, make_call
from keel_app.compat_oslo.failure import serialize_failure
from keel_app.compat_oslo.notification import INFO, Notification, encode_notification
from keel_app.compat_oslo.reply import encode_reply, failure_reply, result_reply
from keel_app.compat_oslo.versions import UnsupportedVersion
from tests import oracle

HEAT_EXMODS = ["heat.common.exception"]


class QuotaBackendDown(Exception):
    pass


def raised(error):
    try:
        raise error
    except Exception as caught:
        return caught


def reraised_by_oslo(failure: str) -> dict:
    return oracle.run_json(
        """
        import json, sys
        from oslo_messaging._drivers.common import deserialize_remote_exception
        import oslo_messaging
        error = deserialize_remote_exception(sys.argv[1], json.loads(sys.argv[2]))
        from heat.common import exception
        print(json.dumps({
            "type": type(error).__name__,
            "is_entity_not_found": isinstance(error, exception.EntityNotFound),
            "is_remote_error": isinstance(error, oslo_messaging.RemoteError),
            "exc_type": getattr(error, "exc_type", None),
            "value": getattr(error, "value", None),
            "first_line": str(error).split("\\n")[0],
        }))
        """,
        failure,
        json.dumps(HEAT_EXMODS),
    )


def test_oslo_client_reraises_our_heat_failure_as_heats_class():
    failure = serialize_failure(raised(EntityNotFound(entity="Stack", name="teststack")))
    assert reraised_by_oslo(failure) == {
        "type": "EntityNotFound_Remote",
        "is_entity_not_found": True,
        "is_remote_error": False,
        "exc_type": None,
        "value": None,
        "first_line": "The Stack (teststack) could not be found.",
    }


def test_oslo_client_gets_a_remote_error_for_other_failures():
    failure = serialize_failure(raised(QuotaBackendDown("quota backend down")))
    assert reraised_by_oslo(failure) == {
        "type": "RemoteError",
        "is_entity_not_found": False,
        "is_remote_error": True,
        "exc_type": "QuotaBackendDown",
        "value": "quota backend down",
        "first_line": "Remote error: QuotaBackendDown quota backend down",
    }


def test_oslo_client_gets_a_remote_error_for_an_unsupported_version():
    failure = serialize_failure(raised(UnsupportedVersion("1.37", method="list_stacks")))
    outcome = reraised_by_oslo(failure)
    assert (outcome["type"], outcome["exc_type"], outcome["value"]) == (
        "RemoteError",
        "UnsupportedVersion",
        "Endpoint does not support RPC version 1.37. Attempted method: list_stacks",
    )


def test_oslo_server_side_reads_our_call_as_heats_context_and_arguments():
    context = RequestContext(
        auth_token="token", user_id="u1", project_id="p1", roles=["member"], request_id="req-1"
    )
    call = make_call(
        context,
        "show_stack",
        {"stack_identity": {"tenant": "p1", "stack_name": "s", "stack_id": "i", "path": ""}},
        version="1.20",
        reply_queue="reply_abc",
    )
    seen = oracle.run_json(
        """
        import json, sys
        from oslo_messaging._drivers import amqp, common
        from heat.common import context
        message = common.deserialize_msg(json.loads(sys.argv[1]))
        unique_id = message.pop("_unique_id")
        rpc_context = amqp.unpack_context(message)
        values = rpc_context.to_dict()
        heat_context = context.RequestContext.from_dict(values)
        print(json.dumps({
            "message": message,
            "msg_id": rpc_context.msg_id,
            "reply_q": rpc_context.reply_q,
            "unique_id": unique_id,
            "auth_token": heat_context.auth_token,
            "user_id": heat_context.user_id,
            "project_id": heat_context.project_id,
            "roles": heat_context.roles,
            "request_id": heat_context.request_id,
        }))
        """,
        encode_call(call).decode(),
    )
    assert seen == {
        "message": {"method": "show_stack", "args": call.args, "version": "1.20"},
        "msg_id": call.msg_id,
        "reply_q": "reply_abc",
        "unique_id": call.unique_id,
        "auth_token": "token",
        "user_id": "u1",
        "project_id": "p1",
        "roles": ["member"],
        "request_id": "req-1",
    }


def test_oslo_reply_waiter_reads_our_replies():
    bodies = [
        encode_reply(result_reply("m1", {"stacks": []})),
        encode_reply(failure_reply("m2", raised(EntityNotFound(entity="Stack", name="x")))),
    ]
    seen = oracle.run_json(
        """
        import json, sys
        from oslo_messaging._drivers import common
        from oslo_messaging._drivers.amqpdriver import ReplyWaiter
        waiter = ReplyWaiter.__new__(ReplyWaiter)
        waiter.allowed_remote_exmods = ["heat.common.exception"]
        from oslo_messaging._drivers.amqp import _MsgIdCache
        waiter.msg_id_cache = _MsgIdCache()
        out = []
        for body in json.loads(sys.argv[1]):
            message = common.deserialize_msg(json.loads(body))
            msg_id = message.pop("_msg_id")
            result, ending = waiter._process_reply(message)
            if isinstance(result, Exception):
                result = [type(result).__mro__[1].__module__, type(result).__mro__[1].__name__]
            out.append([msg_id, result, ending])
        print(json.dumps(out))
        """,
        json.dumps([body.decode() for body in bodies]),
    )
    assert seen == [
        ["m1", {"stacks": []}, True],
        ["m2", ["heat.common.exception", "EntityNotFound"], True],
    ]


def test_oslo_notification_listener_reads_our_notification():
    context = RequestContext(auth_token="token", user_id="u1", user_name="demo", request_id="r")
    body = encode_notification(
        Notification(
            "orchestration.node1",
            "orchestration.stack.create.end",
            INFO,
            {"stack_name": "s"},
            context=context,
        )
    )
    seen = oracle.run_json(
        """
        import json, sys
        from oslo_messaging._drivers import amqp, common
        message = common.deserialize_msg(json.loads(sys.argv[1]))
        message.pop("_unique_id")
        values = amqp.unpack_context(message).to_dict()
        print(json.dumps({"message": sorted(message), "payload": message["payload"],
                          "event_type": message["event_type"],
                          "auth_token": values["auth_token"], "user": values["user"]}))
        """,
        body.decode(),
    )
    assert seen == {
        "message": ["event_type", "message_id", "payload", "priority", "publisher_id", "timestamp"],
        "payload": {"stack_name": "s"},
        "event_type": "orchestration.stack.create.end",
        "auth_token": None,
        "user": "u1",
    }
