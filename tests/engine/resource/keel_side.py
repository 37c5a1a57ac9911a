"""The resources corpus run through OpenKeel: the same steps as ``heat_side.py``.

``CorpusStack`` is the least a resource needs from its stack to be built and
validated (Heat's ``parser.Stack`` for a stack that is never stored).
"""

from __future__ import annotations

import json
from typing import Any

from keel_app.cli.offline_cloud import OfflineClients
from keel_app.common.context import RequestContext
from keel_app.common.identifier import HeatIdentifier
from keel_app.engine.environment import Environment, global_env
from keel_app.engine.resource import Resource, resource_schema
from keel_app.engine.settings import EngineSettings
from keel_app.engine.template import Template
from keel_app.engine.template.format import parse
from keel_app.engine.template.stack_definition import StackDefinition, update_resource_data

DEFAULT_CATALOG = ["identity", "orchestration"]
DEFAULT_TIMEOUT_SECONDS = 3600


class CorpusStack:
    """A stack of resources built from a template, never stored."""

    def __init__(
        self, context: Any, template: Any, strict_validate: bool = True, name: str = "test_stack"
    ) -> None:
        self.context = context
        self.t = template
        self.env = template.env
        self.name = name
        self.id = None
        self.strict_validate = strict_validate
        self.nested_depth = 0
        self.in_convergence_check = False
        self.timeout_mins: int | None = None
        # heat.conf's defaults, as the corpus's Heat runs with them.
        self.settings = EngineSettings()
        identifier = HeatIdentifier("p", name, "")
        self.defn = StackDefinition(context, template, identifier, {})
        self.resources = {
            resource_name: Resource(
                resource_name, self.defn.resource_definition(resource_name), self
            )
            for resource_name in self.defn.enabled_rsrc_names()
        }

    def timeout_secs(self) -> int:
        if self.timeout_mins is not None:
            return self.timeout_mins * 60
        return DEFAULT_TIMEOUT_SECONDS

    def __contains__(self, name: object) -> bool:
        return name in self.resources

    def __getitem__(self, name: str) -> Any:
        return self.resources[name]


def token(catalog: list[str], region: str) -> dict[str, Any]:
    services = [
        {
            "type": service_type,
            "name": service_type,
            "id": service_type,
            "endpoints": [
                {
                    "interface": "public",
                    "url": f"http://127.0.0.1:9999/{service_type}",
                    "region_id": region,
                    "id": service_type,
                }
            ],
        }
        for service_type in catalog
    ]
    return {"token": {"catalog": services}}


def make_context(case: dict[str, Any]) -> RequestContext:
    return RequestContext(
        auth_token="tok",
        auth_token_info=token(case["catalog"], case.get("endpoint_region", "RegionOne")),
        project_id="p",
        user_id="u",
        roles=["admin"],
        region_name=case.get("region"),
    )


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=repr))


def error(exc: BaseException) -> dict[str, str]:
    return {"error": type(exc).__name__, "message": str(exc)}


def call(resource: Any, name: str) -> Any:
    if name == "properties":
        return {key: resource.properties[key] for key in sorted(resource.properties)}
    if name == "update_policy":
        return {key: resource.update_policy[key] for key in sorted(resource.update_policy)}
    if name == "update_allowed":
        return sorted(resource._update_allowed_properties)
    if name == "attributes":
        return sorted(resource.attributes)
    return getattr(resource, name)()


def build_stack(case: dict[str, Any]) -> CorpusStack:
    text = case["template"]
    data = parse(text) if isinstance(text, str) else text
    env_data = dict(case.get("environment") or {})
    if case.get("parameters"):
        env_data["parameters"] = dict(case["parameters"])
    template = Template(data, files=case.get("files"), env=Environment(env_data))
    return CorpusStack(make_context(case), template, strict_validate=case.get("strict", True))


def answer(case: dict[str, Any]) -> Any:
    try:
        stack = build_stack(case)
        if case.get("resource_data"):
            # What Stack.validate does before validating: every resource's node data.
            for resource in stack.resources.values():
                data = resource.node_data(for_resources=True, for_outputs=True)
                update_resource_data(stack.defn, resource.name, data)
    except Exception as exc:
        return {"construct": error(exc)}
    results: dict[str, Any] = {}
    for name in sorted(stack.resources):
        results[name] = {}
        for step in case.get("calls", ["validate_template"]):
            try:
                results[name][step] = {"ok": plain(call(stack.resources[name], step))}
            except Exception as exc:
                results[name][step] = error(exc)
    return results


def schema_answer(request: dict[str, Any]) -> Any:
    context = make_context(request)
    if request.get("extensions"):
        # A service that has every extension (as the offline caller's).
        context.clients = OfflineClients()  # type: ignore[attr-defined]
    try:
        found = resource_schema(global_env(), request["type"], context, request["with_description"])
        return {"ok": plain(found)}
    except Exception as exc:
        return error(exc)
