import json

import pytest

from keel_app.common.context import RequestContext
from keel_app.compat_oslo.envelope import (
    Call,
    NotACall,
    UnsupportedEnvelopeVersion,
    decode_call,
    encode_call,
    frame_properties,
    make_call,
    topic_routing_key,
)
from tests.compat_oslo import golden

TOKEN = "gAAAAABnGoldenToken"
STACK_IDENTITY = {
    "tenant": "c3b1fbd2a0bd4b0b9f0b3d6d8a7a5f10",
    "stack_name": "teststack",
    "stack_id": "7a3c2b0e-3d51-4b8e-9d1a-2f0c9e4a6b11",
    "path": "",
}


def test_list_stacks_call_decodes_to_a_call():
    message = golden.inner(golden.body("call_list_stacks"))
    call = decode_call(golden.body("call_list_stacks"))
    assert call == Call(
        method="list_stacks",
        args={
            "limit": None,
            "sort_keys": None,
            "marker": None,
            "sort_dir": None,
            "filters": {"status": "COMPLETE"},
            "show_deleted": False,
            "show_nested": False,
            "show_hidden": False,
            "tags": None,
            "tags_any": None,
            "not_tags": None,
            "not_tags_any": None,
        },
        version="1.33",
        namespace=None,
        context={
            key[len("_context_") :]: value
            for key, value in message.items()
            if key.startswith("_context_")
        },
        msg_id=message["_msg_id"],
        reply_queue=message["_reply_q"],
        timeout=None,
        unique_id=message["_unique_id"],
    )
    assert call.is_call
    assert call.reply_queue.startswith("reply_")


def test_show_stack_call_carries_identity_and_version():
    call = decode_call(golden.body("call_show_stack"))
    assert (call.method, call.version, call.is_call) == ("show_stack", "1.20", True)
    assert call.args == {"stack_identity": STACK_IDENTITY, "resolve_outputs": True}


def test_create_stack_call_carries_every_argument_of_heats_client():
    call = decode_call(golden.body("call_create_stack"))
    assert (call.method, call.version) == ("create_stack", "1.36")
    assert list(call.args) == [
        "stack_name",
        "template",
        "params",
        "files",
        "environment_files",
        "files_container",
        "args",
        "owner_id",
        "nested_depth",
        "user_creds_id",
        "stack_user_project_id",
        "parent_resource_name",
        "template_id",
    ]
    assert call.args["args"] == {"timeout_mins": 60, "disable_rollback": True}


def test_check_resource_cast_decodes_as_a_cast():
    call = decode_call(golden.body("cast_check_resource"))
    assert (call.method, call.version, call.is_call) == ("check_resource", "1.9", False)
    assert (call.msg_id, call.reply_queue, call.timeout) == (None, None, None)
    assert call.unique_id
    assert call.args["data"]["input_data"]["tuple:(41, True, 'resource')"]["attrs"] == {
        "output": "one",
        "tuple:('show', 'value')": "one",
    }
    assert call.args["node_type"] == "resource"


def test_context_of_a_call_becomes_the_callers_request_context():
    context = decode_call(golden.body("call_show_stack")).request_context()
    assert context.auth_token == TOKEN
    assert context.user_id == "5a4c0a6b1e3e4b7a9e1f2d3c4b5a6978"
    assert context.project_id == STACK_IDENTITY["tenant"]
    assert context.roles == ["member", "reader"]
    assert context.request_id == "req-0b5f3c1e-8f1d-4c55-9a3b-6c0d1e2f3a4b"
    assert context.region_name == "RegionOne"
    assert context.is_admin is False


@pytest.mark.parametrize("name", golden.CALLS)
def test_decoded_call_encodes_back_to_the_same_bytes(name):
    assert encode_call(decode_call(golden.body(name))) == golden.body(name)


@pytest.mark.parametrize("name", golden.CALLS)
def test_call_built_from_a_request_context_is_what_heats_client_sends(name):
    sent = decode_call(golden.body(name))
    call = make_call(
        RequestContext.from_dict(sent.context),
        sent.method,
        sent.args,
        version=sent.version,
        reply_queue=sent.reply_queue,
    )
    call.msg_id, call.unique_id = sent.msg_id, sent.unique_id
    encoded = encode_call(call)
    assert golden.inner(encoded) == golden.inner(golden.body(name))
    assert encoded == golden.body(name)


def test_message_without_envelope_decodes_as_the_same_call():
    enveloped = golden.body("cast_check_resource")
    bare = json.dumps(golden.inner(enveloped)).encode()
    assert decode_call(bare) == decode_call(enveloped)


def test_newer_envelope_version_is_refused_with_oslos_message():
    body = json.dumps({"oslo.version": "3.0", "oslo.message": "{}"})
    with pytest.raises(UnsupportedEnvelopeVersion) as raised:
        decode_call(body)
    assert str(raised.value) == (
        "Specified RPC envelope version, 3.0, not supported by this endpoint."
    )


def test_message_without_method_is_not_a_call():
    with pytest.raises(NotACall):
        decode_call(b'{"oslo.version": "2.0", "oslo.message": "{\\"args\\": {}}"}')


def test_namespace_is_sent_only_when_set():
    call = Call(method="listening", namespace="listener", unique_id="u")
    assert golden.inner(encode_call(call)) == {
        "method": "listening",
        "args": {},
        "namespace": "listener",
        "_unique_id": "u",
    }


@pytest.mark.parametrize(
    ("name", "timeout"), [("call_show_stack", 60), ("cast_check_resource", None)]
)
def test_frame_properties_are_the_rabbit_drivers(name, timeout):
    properties = dict(golden.load(name)["properties"])
    assert properties.pop("application_headers") == {}
    assert frame_properties(timeout) == properties


def test_routing_key_is_the_topic_or_topic_dot_server():
    assert golden.load("cast_check_resource")["routing_key"] == topic_routing_key("engine_worker")
    assert topic_routing_key("engine_worker", "e1d2") == "engine_worker.e1d2"
