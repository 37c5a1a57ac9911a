"""The validate corpus run through Heat 27.0.1's own EngineService.validate_template.

Runs in the oracle's virtual environment: ``python heat_side.py REQUEST.json`` where the
request is ``{"environment_dir": ..., "cases": [...], "cli_cases": [...], "bench": ...}``.
Prints ``{"answers": [...], "cli_answers": [...], "bench": ...}``.

A case's body is read by Heat's API code (InstantiationData), then handed to the
engine's validate_template with a context whose service catalog lists no service,
so every cloud resource type is unavailable and nothing is asked over the network.
An answer is ``{"result": document}``, ``{"bad_request": explanation}`` or
``{"exception": class name, "message": text}``.

A CLI case is a directory on disk processed by python-heatclient's template_utils the
way ``openstack orchestration template validate`` does before calling the API (with an
empty project id: the command runs offline, for no project). An environment file
heatclient cannot read is answered as Heat's API answers that text sent as the
environment.
A bench request validates one template text N times and reports the seconds each took
(timed inside this process: the interpreter's start-up is not counted).
"""

import json
import logging
import sys
import time

from oslo_config import cfg

logging.disable(logging.CRITICAL)
cfg.CONF([], project="heat")

import webob.exc  # noqa: E402
from heat.api.openstack.v1 import stacks as stacks_api  # noqa: E402
from heat.common import context as heat_context  # noqa: E402
from heat.common import messaging  # noqa: E402
from heat.engine import environment, resources, service  # noqa: E402
from heatclient.common import environment_format as client_environment_format  # noqa: E402
from heatclient.common import template_utils  # noqa: E402
from heatclient.common import utils as heatclient_utils  # noqa: E402
from oslo_serialization import jsonutils  # noqa: E402

LIMIT_OPTIONS = ("max_resources_per_stack", "max_template_size", "max_nested_stack_depth")

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


def new_context(project_id="p"):
    return heat_context.RequestContext(
        auth_url="http://keystone.invalid/v3",
        auth_token="token",
        auth_token_info=TOKEN,
        is_admin=True,
        project_id=project_id,
        user_id="u",
    )


def plain(value):
    return json.loads(json.dumps(value, default=str))


def fresh_global(environment_dir):
    """A new global environment per case: Heat's lookups mark shared entries as the user's."""
    base = resources.global_env()
    env = environment.Environment({}, user_env=False)
    for name, info in base.registry._registry.items():
        if isinstance(info, environment.ClassResourceInfo):
            env.register_class(name, info.value)
    env.event_sink_classes = dict(base.event_sink_classes)
    environment.read_global_environment(env, environment_dir)
    resources._environment = env


def set_limits(limits):
    for option in LIMIT_OPTIONS:
        cfg.CONF.clear_override(option)
    for option, value in (limits or {}).items():
        cfg.CONF.set_override(option, value)


def engine_answer(engine, body, show_nested, ignorable_errors, project_id="p"):
    data = stacks_api.InstantiationData(body)
    try:
        template = data.template()
        env = data.environment()
    except webob.exc.HTTPBadRequest as error:
        return {"bad_request": error.detail}
    except Exception as error:
        return {"exception": type(error).__name__, "message": str(error)}
    try:
        result = engine.validate_template(
            new_context(project_id),
            template,
            env,
            files=data.files(),
            environment_files=data.environment_files(),
            show_nested=show_nested,
            ignorable_errors=ignorable_errors,
        )
    except Exception as error:
        # request_context turns a HeatException into ExpectedException(exc_info).
        original = error.exc_info[1] if hasattr(error, "exc_info") else error
        return {"exception": type(original).__name__, "message": str(original)}
    if isinstance(result, webob.exc.HTTPException):
        return {"bad_request": result.explanation}
    return {"result": plain(result)}


def case_body(case):
    body = {"template": case["template"]}
    for key in ("environment", "parameters", "files", "environment_files"):
        if key in case:
            body[key] = case[key]
    return body


def cli_body(case):
    """What python-heatclient sends for ``template validate`` on files on disk."""
    files, template = template_utils.process_template_path(case["template_path"])
    tracker = []
    environment_files, env = template_utils.process_multiple_environments_and_files(
        env_paths=case.get("environment_paths") or None, env_list_tracker=tracker
    )
    body = {
        "template": template,
        "parameters": heatclient_utils.format_parameters(case.get("parameters") or []),
        "files": dict(list(files.items()) + list(environment_files.items())),
        "environment": env,
    }
    if tracker:
        body["environment_files"] = tracker
    # The body reaches the API as JSON: file contents read as bytes arrive as text.
    return json.loads(jsonutils.dumps(body))


def unreadable_environment_answer(case):
    """Heat's API answer for the environment file heatclient cannot read, sent as text."""
    for path in case.get("environment_paths") or []:
        with open(path, "rb") as environment_file:
            content = environment_file.read()
        try:
            client_environment_format.parse(content)
        except ValueError:
            data = stacks_api.InstantiationData({"environment": content.decode("utf-8")})
            try:
                data.environment()
            except webob.exc.HTTPBadRequest as error:
                return {"bad_request": error.detail}
            raise AssertionError(f"Heat's API reads {path}, which heatclient refuses") from None
    raise AssertionError("heatclient refused no environment file")


def ignore_errors(case):
    codes = case.get("ignore_errors")
    return codes.split(",") if codes else None


def bench(engine, request):
    """Parse and validate the template text N times, as the API and engine do."""
    seconds = []
    for _ in range(request["repetitions"]):
        started = time.perf_counter()
        answer = engine_answer(engine, {"template": request["template"]}, False, None)
        seconds.append(time.perf_counter() - started)
    return {"seconds": seconds, "answer": answer}


def main():
    with open(sys.argv[1]) as request_file:
        request = json.load(request_file)
    cfg.CONF.import_opt("environment_dir", "heat.common.config")
    cfg.CONF.set_override("environment_dir", request["environment_dir"])
    resources.initialise()
    # Group resources build an RPC client to list members they do not have yet; the
    # fake transport lets them, and nothing is ever sent.
    messaging.setup("fake://")
    engine = service.EngineService("host", "engine")

    answers = []
    for case in request.get("cases", []):
        fresh_global(request["environment_dir"])
        set_limits(case.get("limits"))
        answers.append(
            engine_answer(
                engine,
                case_body(case),
                case.get("show_nested", False),
                case.get("ignorable_errors"),
            )
        )
    set_limits(None)

    cli_answers = []
    for case in request.get("cli_cases", []):
        fresh_global(request["environment_dir"])
        set_limits(case.get("limits"))
        try:
            body = cli_body(case)
        except ValueError:
            cli_answers.append(unreadable_environment_answer(case))
            continue
        except Exception as error:
            cli_answers.append({"client_error": type(error).__name__, "message": str(error)})
            continue
        # The command runs offline, for no project.
        cli_answers.append(
            engine_answer(
                engine, body, case.get("show_nested", False), ignore_errors(case), project_id=""
            )
        )
    set_limits(None)

    bench_answer = None
    if request.get("bench"):
        fresh_global(request["environment_dir"])
        bench_answer = bench(engine, request["bench"])

    print(json.dumps({"answers": answers, "cli_answers": cli_answers, "bench": bench_answer}))


main()
