"""The request body of a validate (or create/update) call, read as Heat's API reads it.

Heat's ``InstantiationData`` turns the body's ``template``, ``environment`` and
``parameters`` into the engine's arguments; its errors are HTTP 400s, which are
``BadRequest`` here. The API layer and ``keel template validate`` both use this, so
a template reaches validate_template in the same shape either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.engine.environment import format as environment_format
from keel_app.engine.template import TemplateLimits
from keel_app.engine.template import format as template_format
from keel_app.engine.validate.answer import BadRequest


def request_template(body: Mapping[str, Any], limits: TemplateLimits) -> dict[str, Any]:
    """The body's template: a mapping as it is (its size checked), or text parsed."""
    if "template" not in body:
        raise BadRequest("No template specified")
    template = body["template"]
    if isinstance(template, dict):
        # Heat measures a template sent as JSON by the length of its Python repr.
        template_format.validate_template_limit(str(template), limits)
        return template
    try:
        return template_format.parse(template, limits=limits)
    except ValueError as error:
        raise BadRequest(f"Template not in valid format: {error}") from None


def environment_not_valid(error: ValueError) -> BadRequest:
    """Heat's 400 for an environment it cannot read, whatever brought the text."""
    return BadRequest(f"Environment not in valid format: {error}")


def request_environment(body: Mapping[str, Any]) -> dict[str, Any]:
    """The environment document: the body's environment (unless environment files are
    given, which the engine merges instead), every section present, plus ``parameters``."""
    environment: dict[str, Any] = {}
    if "environment" in body and not body.get("environment_files"):
        data = body["environment"]
        try:
            if isinstance(data, dict):
                environment = environment_format.validate(data)
            else:
                environment = environment_format.parse(data)
        except ValueError as error:
            raise environment_not_valid(error) from None
    environment_format.default_for_missing(environment)
    environment["parameters"].update(body.get("parameters", {}))
    return environment
