from __future__ import annotations

from keel_app.common.context import RequestContext
from keel_app.engine.service import validation
from keel_app.engine.settings import EngineSettings
from keel_app.engine.validate.answer import BadRequest

CONTEXT = RequestContext(project_id="p", user_id="u", roles=["member"], is_admin=False)
ENVIRONMENT = {
    "parameters": {},
    "parameter_defaults": {},
    "resource_registry": {},
    "event_sinks": [],
    "encrypted_param_names": [],
}


def test_validate_template_answers_the_document() -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "description": "d",
        "parameters": {"n": {"type": "number", "default": 2}},
        "resources": {"v": {"type": "OS::Heat::None"}},
    }

    answer = validation.validate_template(
        CONTEXT, EngineSettings(), None, None, template=template, params=dict(ENVIRONMENT)
    )

    assert answer == {
        "Description": "d",
        "Parameters": {
            "n": {
                "Type": "Number",
                "Default": 2,
                "NoEcho": "false",
                "Description": "",
                "Label": "n",
            }
        },
        "Environment": {
            "parameters": {},
            "parameter_defaults": {},
            "resource_registry": {"resources": {}},
            "event_sinks": [],
        },
    }


def test_validate_template_uses_the_settings_limits() -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"a": {"type": "OS::Heat::None"}, "b": {"type": "OS::Heat::None"}},
    }

    answer = validation.validate_template(
        CONTEXT,
        EngineSettings(max_resources_per_stack=1),
        None,
        None,
        template=template,
        params=dict(ENVIRONMENT),
    )

    assert answer == {"Error": "Request limit exceeded: Maximum resources per stack exceeded."}


def test_validate_without_template_is_a_bad_request() -> None:
    answer = validation.validate_template(CONTEXT, EngineSettings(), None, None, template=None)

    assert isinstance(answer, BadRequest)
    assert str(answer) == "No Template provided."


def test_get_revision_is_the_configured_one() -> None:
    settings = EngineSettings(heat_revision="r7")

    assert validation.get_revision(CONTEXT, settings, None, None) == "r7"
