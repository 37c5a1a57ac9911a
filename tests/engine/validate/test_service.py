"""validate_template's answers that the corpus cannot carry, and the request readers."""

from __future__ import annotations

import pytest

from keel_app.common.exception import RequestLimitExceeded, StackValidationFailed
from keel_app.engine.template import DEFAULT_LIMITS, TemplateLimits
from keel_app.engine.validate import (
    BadRequest,
    TemplateInvalid,
    check_template,
    request_environment,
    request_template,
    validate_template,
)

HOT = {"heat_template_version": "2018-08-31"}
BAD_SECTION = {"heat_template_version": "2018-08-31", "resource": {}}


def test_no_template_is_a_bad_request_returned_not_raised() -> None:
    answer = validate_template(None, limits=DEFAULT_LIMITS)
    assert answer == BadRequest("No Template provided.")


def test_unknown_ignorable_error_codes_are_a_bad_request() -> None:
    answer = validate_template(HOT, ignorable_errors=["99001", "4"], limits=DEFAULT_LIMITS)
    assert answer == BadRequest("Invalid codes in ignore_errors : ['4']")


def test_an_invalid_template_answers_with_its_error() -> None:
    answer = validate_template(BAD_SECTION, limits=DEFAULT_LIMITS)
    assert answer == {"Error": "The template section is invalid: resource"}


def test_check_template_raises_the_error_heat_answers_with() -> None:
    with pytest.raises(TemplateInvalid) as raised:
        check_template(BAD_SECTION, limits=DEFAULT_LIMITS)
    assert isinstance(raised.value.error, StackValidationFailed)
    assert raised.value.answer() == {"Error": "The template section is invalid: resource"}


def test_the_resource_limit_is_the_one_handed_in() -> None:
    template = {**HOT, "resources": {"a": {"type": "OS::Heat::None"}}}
    limits = TemplateLimits(max_resources_per_stack=0)
    answer = validate_template(template, limits=limits)
    assert answer == {"Error": "Request limit exceeded: Maximum resources per stack exceeded."}


def test_a_request_without_template_is_a_bad_request() -> None:
    with pytest.raises(BadRequest) as raised:
        request_template({}, DEFAULT_LIMITS)
    assert raised.value.explanation == "No template specified"


def test_a_template_mapping_is_measured_by_its_repr() -> None:
    limits = TemplateLimits(max_template_size=len(str(HOT)) - 1)
    with pytest.raises(RequestLimitExceeded) as raised:
        request_template({"template": HOT}, limits)
    assert str(raised.value) == (
        f"Request limit exceeded: Template size ({len(str(HOT))} bytes) exceeds maximum "
        f"allowed size ({len(str(HOT)) - 1} bytes)."
    )


def test_the_environment_gets_every_section_and_the_user_parameters() -> None:
    body = {"environment": "parameters: {a: env}\n", "parameters": {"b": "user"}}
    assert request_environment(body) == {
        "parameters": {"a": "env", "b": "user"},
        "resource_registry": {},
        "parameter_defaults": {},
        "encrypted_param_names": [],
        "event_sinks": [],
    }


def test_environment_files_replace_the_environment() -> None:
    body = {"environment": {"parameters": {"a": "env"}}, "environment_files": ["e.yaml"]}
    assert request_environment(body)["parameters"] == {}
