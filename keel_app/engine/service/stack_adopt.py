"""Stack adopt: a create whose resources are taken over from an abandon's data.

``create_stack`` (and ``preview_stack``) receive the abandon data as the
``adopt_stack_data`` argument; the API has already taken the template from it. Behind
``enable_stack_adopt``, as in Heat. The parameters of the data's environment are the
stack's, those given with the call winning; the traversal is an ADOPT instead of a
CREATE, and each resource's step calls ``handle_adopt`` with what the data holds of it
(its physical id, ``resource_data`` and metadata) instead of ``handle_create``.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine.settings import EngineSettings

ADOPT_STACK_DATA = "adopt_stack_data"


def adopt_parameters(
    settings: EngineSettings, options: dict[str, Any], params: dict[str, Any]
) -> None:
    """Refuse an adopt unless enabled; otherwise give ``params`` the data's parameters
    under the ones the caller gave (Heat's ``_parse_template_and_validate_stack``)."""
    if ADOPT_STACK_DATA not in options:
        return
    if not settings.enable_stack_adopt:
        raise exception.NotSupported(feature="Stack Adopt")
    adopt_data = options[ADOPT_STACK_DATA]
    merged: dict[str, Any] = {}
    if "environment" in adopt_data:
        merged = dict(adopt_data["environment"].get("parameters", {}))
    merged.update(params.get("parameters", {}))
    params["parameters"] = merged


def creating_action(stack: Any) -> str:
    """The traversal that makes a new stack: ADOPT when it takes resources over."""
    return str(stack.ADOPT if stack.adopt_stack_data else stack.CREATE)
