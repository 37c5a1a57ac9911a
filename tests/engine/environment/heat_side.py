"""The environment corpus run through Heat 27.0.1 itself (executed in the oracle's venv).

Usage: python heat_side.py REQUEST.json, where the request is
{"environment_dir": ..., "cases": [...]}; prints {"plugins": [...], "answers": [...]}.
``keel_side.py`` runs the same steps with OpenKeel; the two must answer alike.
"""

import json
import logging
import sys

from oslo_config import cfg

logging.disable(logging.CRITICAL)
cfg.CONF([], project="heat")

from heat.common import environment_format as env_fmt  # noqa: E402
from heat.common import environment_util as env_util  # noqa: E402
from heat.common import template_format  # noqa: E402
from heat.engine import environment, resources, template  # noqa: E402
from heat.engine.resources import template_resource  # noqa: E402


def plain(value):
    return json.loads(json.dumps(value, default=repr))


def error(exc):
    return {"error": type(exc).__name__, "message": str(exc)}


def base_plugins():
    """Heat's registered plugin classes, in registration order."""
    registry = resources.global_env().registry._registry
    plugins = []
    for name, info in registry.items():
        if isinstance(info, environment.ClassResourceInfo):
            status = info.value.support_status
            plugins.append(
                {
                    "name": name,
                    "class": info.value.__module__ + "." + info.value.__qualname__,
                    "status": status.status,
                    "version": status.version,
                    "message": None if status.message is None else str(status.message),
                }
            )
    return plugins


def fresh_global(environment_dir):
    """A new global environment per case: Heat's lookups mutate shared registry entries."""
    base = resources.global_env()
    env = environment.Environment({}, user_env=False)
    for name, info in base.registry._registry.items():
        if isinstance(info, environment.ClassResourceInfo):
            env.register_class(name, info.value)
    env.event_sink_classes = dict(base.event_sink_classes)
    environment.read_global_environment(env, environment_dir)
    resources._environment = env
    return env


def class_names(env, cls):
    if cls is template_resource.TemplateResource:
        return "TemplateResource"
    return sorted(
        name
        for name, info in env.registry.global_registry._registry.items()
        if isinstance(info, environment.ClassResourceInfo) and info.value is cls
    )


def describe(env, info):
    answer = {
        "kind": type(info).__name__,
        "name": info.name,
        "path": list(info.path),
        "user_resource": info.user_resource,
    }
    if isinstance(info, environment.ClassResourceInfo):
        answer["class"] = class_names(env, info.value)
    else:
        answer["value"] = info.value
    return plain(answer)


def build(case):
    source = case.get("environment")
    environment_files = case.get("environment_files")
    if case.get("direct"):
        # An environment document handed to the Environment as it is (nested stacks do).
        return environment.Environment(source)
    env = {}
    if source is not None and not environment_files:
        if isinstance(source, dict):
            env = env_fmt.validate(source)
        else:
            env = env_fmt.parse(source)
    env_fmt.default_for_missing(env)
    env["parameters"].update(case.get("parameters") or {})
    files = case.get("files") or {}
    if environment_files:
        schemata = {}
        if "template" in case:
            text = case["template"]
            data = text if isinstance(text, dict) else template_format.parse(text)
            schemata = template.Template(data, files=files).all_param_schemata(files)
        env_util.merge_environments(environment_files, files, env, schemata)
    return environment.Environment(env)


def probe(env, step):
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
        return resources.global_env().get_types(**argument)
    if operation == "child":
        child = environment.get_child_environment(
            env, argument.get("params"), child_resource_name=argument.get("resource_name")
        )
        return plain(child.user_env_as_dict())
    if operation == "sinks":
        return [
            plain({"class": type(sink).__name__, "target": sink._target, "ttl": sink._ttl})
            for sink in env.get_event_sinks()
        ]
    raise ValueError("unknown probe " + operation)


def answer(case, environment_dir):
    fresh_global(environment_dir)
    try:
        env = build(case)
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


def main():
    with open(sys.argv[1]) as request_file:
        request = json.load(request_file)
    cfg.CONF.import_opt("environment_dir", "heat.common.config")
    cfg.CONF.set_override("environment_dir", request["environment_dir"])
    resources.initialise()
    plugins = base_plugins()
    answers = [answer(case, request["environment_dir"]) for case in request["cases"]]
    print(json.dumps({"plugins": plugins, "answers": answers}))


main()
