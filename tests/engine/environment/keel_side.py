"""The environment corpus run through OpenKeel: the same steps as ``heat_side.py``.

Heat's plugin classes are stood in for by empty classes registered under the same
names with the same support status, so registry answers can be compared name for name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from keel_app.engine.environment import (
    ClassResourceInfo,
    Environment,
    ResourceInfo,
    build_global_environment,
    get_child_environment,
    merge_environments,
)
from keel_app.engine.environment import format as env_format
from keel_app.engine.environment.support import SupportStatus


class ZaqarEventSink:
    """Heat's zaqar-queue sink, as far as an environment can tell: its arguments."""

    def __init__(self, target: Any, ttl: Any = None) -> None:
        self._target = target
        self._ttl = ttl


class TemplateResource:
    """Stands for the class every template resource instantiates."""

    support_status = SupportStatus()

    @staticmethod
    def get_template_file(template_name: str, allowed_schemes: tuple[str, ...]) -> str:
        raise AssertionError("the corpus never fetches templates")


def plugin_classes(plugins: list[dict[str, Any]]) -> list[tuple[str, type]]:
    """A stand-in class per Heat class, registered under each of its names, in order."""
    by_heat_class: dict[str, type] = {}
    pairs = []
    for plugin in plugins:
        stand_in = by_heat_class.get(plugin["class"])
        if stand_in is None:
            status = SupportStatus(
                status=plugin["status"], version=plugin["version"], message=plugin["message"]
            )
            stand_in = type(plugin["class"], (), {"support_status": status})
            by_heat_class[plugin["class"]] = stand_in
        pairs.append((plugin["name"], stand_in))
    return pairs


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=repr))


def error(exc: BaseException) -> dict[str, str]:
    return {"error": type(exc).__name__, "message": str(exc)}


def class_names(env: Environment, cls: Any) -> Any:
    if cls is TemplateResource:
        return "TemplateResource"
    global_registry = env.registry.global_registry
    assert global_registry is not None
    return sorted(
        name
        for name, info in global_registry._registry.items()
        if isinstance(info, ClassResourceInfo) and info.value is cls
    )


def describe(env: Environment, info: ResourceInfo) -> Any:
    answer: dict[str, Any] = {
        "kind": type(info).__name__,
        "name": info.name,
        "path": list(info.path),
        "user_resource": info.user_resource,
    }
    if isinstance(info, ClassResourceInfo):
        answer["class"] = class_names(env, info.value)
    else:
        answer["value"] = info.value
    return plain(answer)


def build(case: dict[str, Any], global_env: Environment, template_class: Any) -> Environment:
    source = case.get("environment")
    environment_files = case.get("environment_files")
    if case.get("direct"):
        # An environment document handed to the Environment as it is (nested stacks do).
        return Environment(source, global_env=global_env)
    env: dict[Any, Any] = {}
    if source is not None and not environment_files:
        if isinstance(source, dict):
            env = env_format.validate(source)
        else:
            env = env_format.parse(source)
    env_format.default_for_missing(env)
    env["parameters"].update(case.get("parameters") or {})
    files = case.get("files") or {}
    if environment_files:
        schemata: dict[str, Any] = {}
        if "template" in case:
            schemata = template_class(case["template"], files).all_param_schemata(files)
        merge_environments(environment_files, files, env, schemata)
    return Environment(env, global_env=global_env)


def probe(env: Environment, step: dict[str, Any]) -> Any:
    ((operation, argument),) = step.items()
    if operation == "lookup":
        return describe(env, env.get_resource_info(*argument))
    if operation == "instantiate":
        return class_names(env, env.get_class_to_instantiate(*argument))
    if operation == "hook":
        return env.registry.matches_hook(*argument)
    if operation == "restricted":
        return sorted(env.registry.get_rsrc_restricted_actions(argument))
    if operation == "types":
        return env.get_types(**argument)
    if operation == "global_types":
        return env.global_env.get_types(**argument)
    if operation == "child":
        child = get_child_environment(
            env, argument.get("params"), child_resource_name=argument.get("resource_name")
        )
        return plain(child.user_env_as_dict())
    if operation == "sinks":
        return [
            plain({"class": type(sink).__name__, "target": sink._target, "ttl": sink._ttl})
            for sink in env.get_event_sinks()
        ]
    raise ValueError(f"unknown probe {operation}")


def answer(
    case: dict[str, Any],
    plugins: list[tuple[str, type]],
    environment_dir: Path,
    template_class: Any,
) -> dict[str, Any]:
    global_env = build_global_environment(
        environment_dir,
        resource_classes=plugins,
        event_sink_classes=[("zaqar-queue", ZaqarEventSink)],
        template_resource_class=TemplateResource,
    )
    try:
        env = build(case, global_env, template_class)
        built = plain(env.env_as_dict())
    except Exception as exc:
        return error(exc)
    results = []
    for step in case.get("probes", []):
        try:
            results.append({"value": probe(env, step)})
        except Exception as exc:
            results.append(error(exc))
    return {"environment": built, "probes": results, "after": plain(env.env_as_dict())}
