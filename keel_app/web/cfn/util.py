"""What the CFN actions share: policy checks, stack identities from names or ARNs, the
answer document, ids in AWS form, and the template a request carries.

An action returns its answer document, or a ``CfnError`` it answers as a document too
(in the format the request asked for); a ``CfnError`` it raises is always answered in
XML, as Heat's are.
"""

from __future__ import annotations

from typing import Any

import flask

from keel_app.common import urlfetch
from keel_app.common.context import RequestContext
from keel_app.common.exception import Forbidden, RequestLimitExceeded
from keel_app.common.identifier import EventIdentifier, HeatIdentifier
from keel_app.engine.template import format as template_format
from keel_app.engine.template.limits import TemplateLimits
from keel_app.rpc.client import EngineClient
from keel_app.web import policy, request_context
from keel_app.web.cfn import errors
from keel_app.web.cfn.parameters import Parameters, request_parameters
from keel_app.web.v1.util import ENGINE_CLIENT_KEY

POLICY_SCOPE = "cloudformation"


def engine() -> EngineClient:
    client: EngineClient = flask.current_app.config[ENGINE_CLIENT_KEY]
    return client


def context() -> RequestContext:
    return request_context.current()


def params() -> Parameters:
    return request_parameters()


def enforce(action: str) -> None:
    """Raise ``AccessDenied`` unless ``cloudformation:<action>`` allows the caller.

    The target is the caller's own project (Heat 27.0.1 passes an empty one, which
    its project-scoped default rules never allow: see docs/divergences.md).
    """
    caller = context()
    try:
        policy.enforce(caller, POLICY_SCOPE, action, {"project_id": caller.project_id})
    except Forbidden:
        raise errors.HeatAccessDeniedError(f"Action {action} not allowed for user") from None
    except Exception:
        flask.current_app.logger.exception("Policy check of %s failed", action)
        raise errors.HeatInternalFailureError(f"Error authorizing action {action}") from None


def required(name: str) -> str:
    """A parameter the action cannot do without."""
    value = params().get(name)
    if value is None:
        raise errors.HeatMissingParameterError(name)
    return str(value)


def stack_identity(stack_name: str) -> dict[str, Any]:
    """The identity of a stack given by ARN, or else by name (looked up by the engine)."""
    try:
        return dict(HeatIdentifier.from_arn(stack_name))
    except ValueError:
        identity: dict[str, Any] = engine().identify_stack(context(), stack_name)
        return identity


def format_response(action: str, result: Any) -> dict[str, Any]:
    return {f"{action}Response": {f"{action}Result": result}}


def id_format(result: dict[str, Any]) -> dict[str, Any]:
    """``StackId`` as an ARN and ``EventId`` as the event's own id."""
    if "StackId" in result:
        result["StackId"] = HeatIdentifier(**result["StackId"]).arn()
    if "EventId" in result:
        result["EventId"] = EventIdentifier(**result["EventId"]).event_id
    return result


def joined_status(values: dict[str, Any], action_key: str, status_key: str) -> str:
    return "_".join((values[action_key], values[status_key]))


def template_text() -> str | bytes | None:
    """``TemplateBody``, or the document at ``TemplateUrl``, or None when neither is given."""
    given = params()
    if "TemplateBody" in given:
        body: str = given.get("TemplateBody")
        return body
    if "TemplateUrl" in given:
        try:
            return urlfetch.get_with_conf(
                given.get("TemplateUrl"), flask.current_app.config["HEAT_CONF"]
            )
        except OSError as error:
            raise errors.HeatInvalidParameterValueError(
                detail=f"Failed to fetch template: {error}"
            ) from None
    return None


def parsed_template() -> dict[str, Any] | errors.CfnError:
    """The request's template as data, or the error the action answers instead."""
    text = template_text()
    if text is None:
        return errors.HeatMissingParameterError(
            detail="TemplateBody or TemplateUrl were not given."
        )
    conf = flask.current_app.config["HEAT_CONF"]
    limits = TemplateLimits(max_template_size=conf.max_template_size)
    try:
        return template_format.parse(text, limits=limits)
    except RequestLimitExceeded as error:
        # Heat lets this one escape its controller (a bare 500 from the server).
        return errors.map_remote_error(error)
    except ValueError:
        return errors.HeatInvalidParameterValueError(
            detail="The Template must be a JSON or YAML document."
        )
