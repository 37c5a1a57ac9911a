"""Template validation as Heat's validate_template performs it, before any resource exists.

``validate_template`` returns Heat's answer; ``check_template`` raises instead of
answering ``{"Error": ...}``; ``request_template``/``request_environment`` read an API
request body the way Heat's API does; ``ValidationStack`` is the unstored stack the
checks run on.
"""

from keel_app.engine.validate.answer import BadRequest, TemplateInvalid
from keel_app.engine.validate.request import (
    environment_not_valid,
    request_environment,
    request_template,
)
from keel_app.engine.validate.service import check_template, validate_template
from keel_app.engine.validate.stack import ValidationStack

__all__ = [
    "BadRequest",
    "TemplateInvalid",
    "ValidationStack",
    "check_template",
    "environment_not_valid",
    "request_environment",
    "request_template",
    "validate_template",
]
