"""The validate corpus run through OpenKeel: the same steps as heat_side.py, our code.

An answer has heat_side's shapes: ``{"result": document}``, ``{"bad_request":
explanation}`` or ``{"exception": class name, "message": text}``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from keel_app.common.context import RequestContext
from keel_app.engine.template import DEFAULT_LIMITS, TemplateLimits
from keel_app.engine.validate import (
    BadRequest,
    request_environment,
    request_template,
    validate_template,
)

# The token heat_side.py hands Heat: a service catalog without any service.
TOKEN = {
    "token": {
        "catalog": [{"type": "none", "name": "none", "id": "none", "endpoints": []}],
        "user": {"id": "u", "name": "u", "domain": {"id": "default", "name": "Default"}},
        "project": {"id": "p", "name": "p", "domain": {"id": "default", "name": "Default"}},
        "roles": [{"id": "r", "name": "admin"}],
        "methods": ["token"],
        "expires_at": "2099-01-01T00:00:00.000000Z",
        "issued_at": "2020-01-01T00:00:00.000000Z",
    }
}
CYCLE_PREFIX = "Circular Dependency Found: "
AMBIGUOUS = re.compile(r"Ambiguous versions \(([^)]*)\)")


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def new_context() -> RequestContext:
    return RequestContext(
        auth_token="token", auth_token_info=TOKEN, is_admin=True, project_id="p", user_id="u"
    )


def limits_for(case: dict[str, Any]) -> TemplateLimits:
    values = {**DEFAULT_LIMITS.__dict__, **(case.get("limits") or {})}
    return TemplateLimits(**values)


def case_body(case: dict[str, Any]) -> dict[str, Any]:
    body = {"template": case["template"]}
    for key in ("environment", "parameters", "files", "environment_files"):
        if key in case:
            body[key] = case[key]
    return body


def answer_for(case: dict[str, Any]) -> dict[str, Any]:
    body = case_body(case)
    limits = limits_for(case)
    try:
        template = request_template(body, limits)
        environment = request_environment(body)
    except BadRequest as error:
        return {"bad_request": error.explanation}
    except Exception as error:
        return {"exception": type(error).__name__, "message": str(error)}
    try:
        result = validate_template(
            template,
            environment,
            files=body.get("files", {}),
            environment_files=body.get("environment_files"),
            show_nested=case.get("show_nested", False),
            ignorable_errors=case.get("ignorable_errors"),
            limits=limits,
            context=new_context(),
        )
    except Exception as error:
        return {"exception": type(error).__name__, "message": str(error)}
    if isinstance(result, BadRequest):
        return {"bad_request": result.explanation}
    return {"result": plain(result)}


def comparable(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer with what Heat leaves to chance put in order.

    Heat orders the nodes of a circular dependency by iterating a set of resources,
    so the message lists them in an order that changes from run to run; the parts of
    the graph are compared as a sorted list.
    """
    message = answer.get("message")
    if answer.get("exception") == "CircularDependencyException" and message:
        graph = message[len(CYCLE_PREFIX) :]
        parts = re.split(r", (?=\w+ \")", graph[1:-1])
        return {**answer, "message": sorted(parts)}
    ambiguous = AMBIGUOUS.search(message or "")
    if ambiguous:
        # The version keys of an ambiguous template come from a set as well.
        names = ", ".join(sorted(ambiguous.group(1).split(", ")))
        return {**answer, "message": AMBIGUOUS.sub(f"Ambiguous versions ({names})", message)}
    return answer
