"""Our exceptions against Heat 27.0.1's, built with the same arguments on both sides."""

from __future__ import annotations

import inspect
import json
import logging
import re
from types import SimpleNamespace
from typing import Any

import pytest

from keel_app.common import exception, fault_map
from tests import oracle

pytestmark = pytest.mark.oracle


def run_cases(cases: list[dict[str, Any]], classes, make_resource, status_for) -> list[Any]:
    """Build each case's exception and describe it; runs here and, as source, in the oracle.

    A case is ``{"class": name, "args": [...], "kwargs": {...}}``; an argument may itself
    be ``{"$exception": case}`` or ``{"$resource": {"name", "action", "section"}}``.
    """
    import builtins
    import copy
    import json

    def build(value):
        if isinstance(value, dict) and "$exception" in value:
            spec = value["$exception"]
            cls = classes.get(spec["class"]) or getattr(builtins, spec["class"])
            arguments = [build(item) for item in spec.get("args", [])]
            keywords = {key: build(item) for key, item in spec.get("kwargs", {}).items()}
            return cls(*arguments, **keywords)
        if isinstance(value, dict) and "$resource" in value:
            return make_resource(**value["$resource"])
        if isinstance(value, list):
            return [build(item) for item in value]
        return value

    def attempt(action):
        try:
            return {"value": action()}
        except Exception as error:
            return {"raised": type(error).__name__, "str": str(error)}

    def describe(error):
        description = {
            "class": type(error).__name__,
            "str": str(error),
            "args": list(error.args),
            "status": status_for(type(error)),
            "deepcopy": attempt(lambda: str(copy.deepcopy(error))),
        }
        for name in (
            "message",
            "error_code",
            "kwargs",
            "safe",
            "error",
            "path",
            "error_message",
            "entity",
            "name",
            "action",
        ):
            if hasattr(error, name):
                description[name] = getattr(error, name)
        if hasattr(error, "exc"):
            description["exc"] = type(error.exc).__name__
        return description

    results = []
    for case in cases:
        built = attempt(lambda case=case: build({"$exception": case}))
        results.append(describe(built["value"]) if "value" in built else built)
    return json.loads(json.dumps(results, default=repr))


ORACLE_SOURCE = """
import json, sys
from typing import Any
from types import SimpleNamespace
from heat.api.middleware.fault import FaultWrapper
from heat.common import exception
from heat.engine.cfn.template import CfnTemplate
from heat.engine.hot.template import HOTemplate20130523

TEMPLATES = {"hot": HOTemplate20130523, "cfn": CfnTemplate}

class FakeResource(SimpleNamespace):
    def __repr__(self):
        return f"Resource({self.name})"

def make_resource(name, action, section):
    template_class = TEMPLATES[section]
    template = SimpleNamespace(
        RESOURCES=template_class.RESOURCES,
        get_section_name=lambda key: template_class.get_section_name(template_class, key),
    )
    return FakeResource(name=name, action=action, stack=SimpleNamespace(t=template))

classes = {
    name: value for name, value in vars(exception).items()
    if isinstance(value, type) and issubclass(value, BaseException)
    and value.__module__ == exception.__name__
}
wrapper = FaultWrapper(None)
RUN_CASES
cases = json.loads(sys.argv[1])
print(json.dumps({
    "classes": {
        name: {
            "base": cls.__base__.__name__,
            "msg_fmt": vars(cls).get("msg_fmt"),
            "error_code": cls.__dict__.get("error_code"),
        }
        for name, cls in classes.items()
    },
    "error_codes": exception.ERROR_CODE_MAP,
    "fault_map": {
        name: [error.__name__, error.code, error.title, error.explanation]
        for name, error in wrapper.error_map.items()
    },
    "results": run_cases(
        cases, classes, make_resource, lambda cls: wrapper._map_exception_to_error(cls).code
    ),
}))
"""

SECTIONS = {"hot": "resources", "cfn": "Resources"}


class FakeResource(SimpleNamespace):
    """A resource as the exceptions see it; its repr matches the oracle's fake."""

    def __repr__(self) -> str:
        return f"Resource({self.name})"


def make_resource(name: str, action: str, section: str) -> FakeResource:
    return FakeResource(name=name, action=action, resources_section_name=SECTIONS[section])


def placeholder_kwargs(cls: type[Exception]) -> dict[str, str]:
    template = exception.ERROR_CODE_MAP.get(getattr(cls, "error_code", None) or "")
    template = template or getattr(cls, "msg_fmt", "")
    return {name: f"{name} välue 1" for name in re.findall(r"%\((\w+)\)", template)}


def exc(class_name: str, /, *args: Any, **kwargs: Any) -> dict[str, Any]:
    return {"$exception": {"class": class_name, "args": list(args), "kwargs": kwargs}}


def resource(name: str, action: str = "CREATE", section: str = "hot") -> dict[str, Any]:
    return {"$resource": {"name": name, "action": action, "section": section}}


def case(class_name: str, /, *args: Any, **kwargs: Any) -> dict[str, Any]:
    return exc(class_name, *args, **kwargs)["$exception"]


GENERIC_CASES = {
    name: {"class": name, "args": [], "kwargs": placeholder_kwargs(cls)}
    for name, cls in exception.BY_NAME.items()
}

SPECIAL_CASES = {
    "authorization-failure-bare": case("AuthorizationFailure"),
    "authorization-failure-reason": case("AuthorizationFailure", "token expired"),
    "forbidden-default": case("Forbidden"),
    "forbidden-positional": case("Forbidden", "stacks:create"),
    "not-authorized-action": case("NotAuthorized", "stacks:delete"),
    "immutable-positional": case("ImmutableParameterModified", "flavor", "image"),
    "property-conflict-positional": case("ResourcePropertyConflict", "port", "network"),
    "property-unspecified-positional": case("PropertyUnspecifiedError", "a", "b", "c"),
    "entity-positional": case("EntityNotFound", "Stack", "my stack"),
    "entity-integer-name": case("EntityNotFound", entity="Software Config", name=42),
    "entity-bare": case("EntityNotFound"),
    "resource-not-found": case("ResourceNotFound", resource_name="server", stack_name="web"),
    "snapshot-not-found": case("SnapshotNotFound", snapshot="snap", stack="web"),
    "missing-keyword": case("StackExists"),
    "partly-missing-keyword": case("ActionInProgress", stack_name="web"),
    "error-code-missing-keyword": case("ResourceTypeUnavailable", service_name="nova"),
    "unknown-status-defaults": case("ResourceUnknownStatus", resource_status="WEIRD"),
    "unknown-status-no-status": case("ResourceUnknownStatus"),
    "unknown-status-all": case(
        "ResourceUnknownStatus", result="Create failed", status_reason="quota", resource_status="X"
    ),
    "in-error-default": case("ResourceInError", resource_status="ERROR"),
    "in-error-reason": case("ResourceInError", status_reason="no host", resource_status="ERROR"),
    "in-error-bare": case("ResourceInError"),
    "error-positional": case("Error", "plain message"),
    "error-empty": case("Error", ""),
    "schema-error-empty": case("InvalidSchemaError", message=""),
    "validation-empty": case("StackValidationFailed"),
    "not-found-default": case("NotFound"),
    "not-found-message": case("NotFound", "The stack was deleted"),
    "not-found-bad-template": case("NotFound", "100% gone"),
    "with-path-bare": case("HeatExceptionWithPath"),
    "with-path-string": case("HeatExceptionWithPath", "Property error", "resources", "bad"),
    "with-path-indexes": case(
        "HeatExceptionWithPath",
        error="E",
        path=["resources", "server", "properties", "networks", 0, "port"],
        message="m",
    ),
    "with-path-digit-strings": case(
        "HeatExceptionWithPath", error="", path=["a", "1", "b", "22"], message="m"
    ),
    "with-path-leading-index": case("HeatExceptionWithPath", path=[3, "x"], message="m"),
    "validation-message-only": case("StackValidationFailed", message="Unknown resource"),
    "validation-full": case(
        "StackValidationFailed",
        error="Property error",
        path=["resources", "server", "properties", "flavor"],
        message="Flavor not found",
    ),
    "validation-string-path": case("StackValidationFailed", error="E", path="outputs", message="m"),
    "validation-from-exception": case(
        "StackValidationFailed", error=exc("ValueError", "not a number"), path=["parameters"]
    ),
    "validation-from-heat-exception": case(
        "StackValidationFailed", error=exc("EntityNotFound", entity="Network", name="n1")
    ),
    "validation-nested": case(
        "StackValidationFailed",
        error=exc(
            "StackValidationFailed",
            error="Property error",
            path=["properties", "size"],
            message="too big",
        ),
        path=["resources", "volume"],
    ),
    "validation-resource-hot": case(
        "StackValidationFailed", error="E", message="m", resource=resource("server")
    ),
    "validation-resource-cfn": case(
        "StackValidationFailed", error="E", message="m", resource=resource("Server", section="cfn")
    ),
    "validation-resource-with-path": case(
        "StackValidationFailed", error="E", path=["outputs", "x"], resource=resource("server")
    ),
    "failure-from-exception": case(
        "ResourceFailure", exc("ValueError", "boom"), resource("server", "CREATE")
    ),
    "failure-from-exception-cfn": case(
        "ResourceFailure", exc("ValueError", "boom"), resource("Server", "UPDATE", "cfn")
    ),
    "failure-from-heat-exception": case(
        "ResourceFailure", exc("NotFound", "gone"), resource("volume", "DELETE"), "DELETE"
    ),
    "failure-nested": case(
        "ResourceFailure",
        exc("ResourceFailure", exc("KeyError", "k"), resource("inner", "CREATE")),
        resource("outer", "UPDATE"),
    ),
    "failure-status-reason": case(
        "ResourceFailure",
        "Resource CREATE failed: ValueError: resources.server.properties: bad: really",
        resource("group", "CREATE"),
    ),
    "failure-short-status-reason": case(
        "ResourceFailure", "Resource DELETE failed: timeout", resource("a"), "DELETE"
    ),
    "failure-other-reason": case("ResourceFailure", "quota exceeded", resource("a", "CHECK")),
    "failure-no-resource": case("ResourceFailure", "quota exceeded", None, "UPDATE"),
    "failure-no-resource-no-action": case("ResourceFailure", "quota exceeded", None),
    "update-replace-named": case("UpdateReplace", "server"),
    "update-in-progress-named": case("UpdateInProgress", "server"),
    "disguise": case("HTTPExceptionDisguise", exc("ValueError", "inner")),
    "unicode-template-version": case("InvalidTemplateVersion", explanation="välue ☃ 2099"),
}

ALL_CASES = {**GENERIC_CASES, **SPECIAL_CASES}


@pytest.fixture(scope="module")
def heat() -> dict[str, Any]:
    source = ORACLE_SOURCE.replace("RUN_CASES", inspect.getsource(run_cases))
    names = list(ALL_CASES)
    answer = oracle.run_json(source, json.dumps([ALL_CASES[name] for name in names]))
    answer["results"] = dict(zip(names, answer["results"], strict=True))
    return answer


def ours(case_spec: dict[str, Any]) -> Any:
    status = lambda cls: fault_map.http_error_for(cls).code  # noqa: E731
    return run_cases([case_spec], exception.BY_NAME, make_resource, status)[0]


def test_same_class_names_as_heat(heat: dict[str, Any]) -> None:
    assert set(exception.BY_NAME) == set(heat["classes"])


def test_same_bases_templates_and_error_codes(heat: dict[str, Any]) -> None:
    mine = {
        name: {
            "base": cls.__base__.__name__,
            "msg_fmt": vars(cls).get("msg_fmt"),
            "error_code": cls.__dict__.get("error_code"),
        }
        for name, cls in exception.BY_NAME.items()
    }
    assert mine == heat["classes"]
    assert exception.ERROR_CODE_MAP == heat["error_codes"]


@pytest.mark.parametrize("name", list(ALL_CASES))
def test_exception_matches_heat(heat: dict[str, Any], name: str) -> None:
    assert ours(ALL_CASES[name]) == heat["results"][name]


def test_fault_map_matches_heat(heat: dict[str, Any]) -> None:
    mine = {
        name: [error.name, error.code, error.title, error.explanation]
        for name, error in fault_map.FAULT_MAP.items()
    }
    assert mine == heat["fault_map"]


def test_builtin_and_unknown_exceptions_map_like_heat() -> None:
    assert fault_map.http_error_for(ValueError) is fault_map.BAD_REQUEST
    assert fault_map.http_error_for(KeyError) is fault_map.INTERNAL_SERVER_ERROR
    assert fault_map.http_error_for(Exception) is fault_map.INTERNAL_SERVER_ERROR


def test_subclass_outside_the_table_takes_its_base_status() -> None:
    class StackNotReady(exception.EntityNotFound):
        pass

    assert fault_map.http_error_for(StackNotReady) is fault_map.NOT_FOUND


def test_format_failure_keeps_generic_message_and_logs_keywords(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="keel_app.common.exception_base"):
        error = exception.StopActionFailed(stack_name="web")
    assert str(error) == "An unknown exception occurred."
    assert "stack_name: web" in caplog.messages
