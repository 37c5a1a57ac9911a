import pytest

from keel_app.compat_oslo.reply import (
    Reply,
    decode_reply,
    encode_reply,
    failure_reply,
    final_outcome,
    heartbeat,
    result_reply,
)
from tests.compat_oslo import golden


@pytest.mark.parametrize("name", golden.REPLIES)
def test_decoded_reply_encodes_back_to_the_same_bytes(name):
    body = golden.reply_frame(name)["body"].encode()
    assert encode_reply(decode_reply(body)) == body


def test_result_reply_is_the_message_oslos_server_sends():
    sent = golden.inner(golden.reply_frame("reply_list_stacks")["body"])
    reply = result_reply(sent["_msg_id"], sent["result"])
    reply.unique_id = sent["_unique_id"]
    assert golden.inner(encode_reply(reply)) == sent
    assert sent["ending"] is True and sent["failure"] is None


def test_result_reply_decodes_to_the_result():
    reply = decode_reply(golden.reply_frame("reply_list_stacks")["body"])
    assert reply.ending
    assert reply.outcome() == [
        {
            "stack_identity": {
                "tenant": "c3b1fbd2a0bd4b0b9f0b3d6d8a7a5f10",
                "stack_name": "teststack",
                "stack_id": "7a3c2b0e-3d51-4b8e-9d1a-2f0c9e4a6b11",
                "path": "",
            },
            "stack_name": "teststack",
        }
    ]


def test_failure_reply_is_framed_as_oslos_server_frames_it():
    sent = golden.inner(golden.reply_frame("reply_entity_not_found")["body"])
    reply = failure_reply(sent["_msg_id"], ValueError("x"))
    message = golden.inner(encode_reply(reply))
    assert list(message) == list(sent)
    assert (message["result"], message["ending"], message["_msg_id"]) == (
        None,
        True,
        sent["_msg_id"],
    )


def test_legacy_two_message_reply_yields_the_result_at_the_ending():
    replies = [Reply(msg_id="m", result={"a": 1}, ending=False), Reply(msg_id="m", ending=True)]
    assert final_outcome(replies) == (True, {"a": 1})


def test_heartbeat_alone_does_not_end_the_call():
    beat = decode_reply(encode_reply(heartbeat("m")))
    assert (beat.result, beat.failure, beat.ending, beat.msg_id) == (None, None, False, "m")
    assert final_outcome([beat]) == (False, None)


def test_failure_ends_the_call_with_the_exception():
    reply = decode_reply(golden.reply_frame("reply_builtin_error")["body"])
    ended, outcome = final_outcome([heartbeat("m"), reply])
    assert ended
    assert isinstance(outcome, ValueError)
    assert str(outcome) == "no abandon today"
