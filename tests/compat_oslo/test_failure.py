import json

from keel_app.common.exception import EntityNotFound, StackValidationFailed
from keel_app.compat_oslo.failure import (
    RemoteError,
    deserialize_failure,
    failure_data,
    serialize_failure,
)
from keel_app.compat_oslo.versions import UnsupportedVersion
from tests.compat_oslo import golden

COMPARED = ("class", "module", "message", "args", "kwargs")


class QuotaBackendDown(Exception):
    """Stands for any error of ours that is not one of Heat's classes."""


def raised(error):
    try:
        raise error
    except Exception as caught:
        return caught


def test_heat_exception_is_serialised_as_heats_engine_serialises_it():
    sent = golden.failure_of("reply_entity_not_found")
    ours = json.loads(serialize_failure(raised(EntityNotFound(entity="Stack", name="teststack"))))
    assert list(ours) == list(sent)
    assert {key: ours[key] for key in COMPARED} == {key: sent[key] for key in COMPARED}
    assert ours["tb"][-1] == sent["tb"][-1]


def test_builtin_exception_is_serialised_under_builtins():
    sent = golden.failure_of("reply_builtin_error")
    ours = failure_data(raised(ValueError("no abandon today")))
    assert {key: ours[key] for key in COMPARED} == {key: sent[key] for key in COMPARED}
    assert ours["tb"][-1] == sent["tb"][-1] == "ValueError: no abandon today\n"


def test_other_exception_keeps_its_own_module():
    data = failure_data(raised(QuotaBackendDown("quota backend down")))
    assert (data["class"], data["module"], data["message"]) == (
        "QuotaBackendDown",
        __name__,
        "quota backend down",
    )
    assert (data["args"], data["kwargs"]) == (["quota backend down"], {})


def test_unsupported_version_is_serialised_as_oslos_dispatcher_error():
    for name, version in (
        ("reply_unsupported_version", "1.37"),
        ("reply_unsupported_major", "2.0"),
    ):
        sent = golden.failure_of(name)
        ours = failure_data(raised(UnsupportedVersion(version, method="list_stacks")))
        assert {key: ours[key] for key in COMPARED} == {key: sent[key] for key in COMPARED}
        assert ours["tb"][-1] == sent["tb"][-1]


def test_heat_failure_from_a_heat_engine_becomes_our_class():
    error = deserialize_failure(json.dumps(golden.failure_of("reply_entity_not_found")))
    assert type(error) is EntityNotFound
    assert str(error) == "The Stack (teststack) could not be found."
    assert error.remote_traceback[-1].startswith("heat.common.exception.EntityNotFound")


def test_non_heat_failure_from_a_heat_engine_becomes_a_remote_error():
    error = deserialize_failure(json.dumps(golden.failure_of("reply_remote_error")))
    assert type(error) is RemoteError
    assert (error.exc_type, error.value) == (
        "ConnectFailure",
        "Unable to establish connection to http://nova.example:8774",
    )


def test_heat_module_not_allowed_gives_a_remote_error():
    failure = json.dumps(golden.failure_of("reply_entity_not_found"))
    assert type(deserialize_failure(failure, allowed_modules=())) is RemoteError


def test_heat_exception_with_a_path_round_trips():
    error = StackValidationFailed(error="Property error", path=["resources", "a"], message="bad")
    again = deserialize_failure(serialize_failure(raised(error)))
    assert type(again) is StackValidationFailed
    assert str(again) == str(error)


def test_failure_naming_no_class_gives_a_remote_error():
    error = deserialize_failure('{"module": "builtins", "message": "odd"}')
    assert (type(error), error.exc_type, error.value, error.traceback) == (
        RemoteError,
        None,
        "odd",
        [],
    )
