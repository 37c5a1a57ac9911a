"""The resources corpus run through Heat 27.0.1 itself (executed in the oracle's venv).

Usage: python heat_side.py REQUEST.json, where the request is {"cases": [...],
"schemas": [...]}; prints {"answers": [...], "schemas": [...]}. ``keel_side.py`` runs
the same steps with OpenKeel; the two must answer alike.
"""

import json
import logging
import sys

from oslo_config import cfg

logging.disable(logging.CRITICAL)
cfg.CONF([], project="heat")

from heat.common import context, template_format  # noqa: E402
from heat.engine import environment, resources, service, template  # noqa: E402
from heat.engine import stack as parser  # noqa: E402
from heat.engine.clients import os as os_clients  # noqa: E402

resources.initialise()


def plain(value):
    return json.loads(json.dumps(value, default=repr))


def error(exc):
    return {"error": type(exc).__name__, "message": str(exc)}


def token(catalog, region):
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
    return {
        "token": {
            "catalog": services,
            "project": {"id": "p", "name": "demo", "domain": {"id": "default", "name": "Default"}},
            "user": {"id": "u", "name": "demo", "domain": {"id": "default", "name": "Default"}},
            "roles": [{"id": "r", "name": "admin"}],
            "methods": ["token"],
            "expires_at": "2099-01-01T00:00:00Z",
            "issued_at": "2024-01-01T00:00:00Z",
        }
    }


def make_context(case):
    return context.RequestContext(
        auth_token="tok",
        auth_token_info=token(case["catalog"], case.get("endpoint_region", "RegionOne")),
        project_id="p",
        user_id="u",
        roles=["admin"],
        is_admin=True,
        region_name=case.get("region"),
        auth_url="http://127.0.0.1:5000/v3",
    )


def call(res, name):
    if name == "properties":
        return {key: res.properties[key] for key in sorted(res.properties)}
    if name == "update_policy":
        return {key: res.update_policy[key] for key in sorted(res.update_policy)}
    if name == "update_allowed":
        return sorted(res._update_allowed_properties)
    if name == "attributes":
        return sorted(res.attributes)
    return getattr(res, name)()


def answer(case):
    ctx = make_context(case)
    text = case["template"]
    data = template_format.parse(text) if isinstance(text, str) else text
    env_data = dict(case.get("environment") or {})
    if case.get("parameters"):
        env_data["parameters"] = dict(case["parameters"])
    try:
        tmpl = template.Template(
            data, files=case.get("files"), env=environment.Environment(env_data)
        )
        stack = parser.Stack(ctx, "test_stack", tmpl, strict_validate=case.get("strict", True))
        found = stack.resources
        if case.get("resource_data"):
            # What Stack.validate does before validating: every resource's node data.
            stack._update_all_resource_data(for_resources=True, for_outputs=True)
    except Exception as exc:
        return {"construct": error(exc)}
    results = {}
    for name in sorted(found):
        results[name] = {}
        for step in case.get("calls", ["validate_template"]):
            try:
                value = call(found[name], step)
                results[name][step] = {"ok": plain(value)}
            except Exception as exc:
                results[name][step] = error(exc)
    return results


def schema_answer(engine, request):
    ctx = make_context(request)
    has_extension = os_clients.ExtensionMixin.has_extension
    if request.get("extensions"):
        # A service that has every extension.
        os_clients.ExtensionMixin.has_extension = lambda self, alias: True
    try:
        return {
            "ok": plain(engine.resource_schema(ctx, request["type"], request["with_description"]))
        }
    except Exception as exc:
        return error(exc)
    finally:
        os_clients.ExtensionMixin.has_extension = has_extension


def main():
    with open(sys.argv[1]) as request_file:
        request = json.load(request_file)
    engine = service.EngineService("host", "engine")
    print(
        json.dumps(
            {
                "answers": [answer(case) for case in request["cases"]],
                "schemas": [schema_answer(engine, item) for item in request["schemas"]],
            }
        )
    )


main()
