"""Heat's own heat-api-cfn in the oracle, for requests that never reach its engine.

It runs the ``standalone`` pipeline (EC2 signatures, or the caller's identity headers
when it sends ``X-Auth-User``), with a policy file that gives the ``cloudformation:*``
rules their roles without Heat 27.0.1's project clause, which its empty policy target
never satisfies (see docs/divergences.md). RPC goes to oslo's fake driver: nothing
answers, so only requests that need no engine are replayed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests import oracle
from tests.web.cfn import wsgi_environ

REPLAY = """
import json, sys
conf_path, requests_path, answers_path, environ_module = sys.argv[1:5]
sys.argv = ["heat-api-cfn", "--config-file", conf_path]
namespace = {"__name__": "wsgi_environ"}
exec(open(environ_module).read(), namespace)
from heat.api.cfn import wsgi
application = wsgi.init_application()
answers = []
for spec in json.loads(open(requests_path).read()):
    try:
        answers.append(namespace["call"](application, spec))
    except Exception as error:
        answers.append({"raised": type(error).__name__})
with open(answers_path, "w") as answers_file:
    json.dump(answers, answers_file)
"""

PASTE_CONFIG = oracle.VENV / "etc" / "heat" / "api-paste.ini"

# Heat's default cloudformation rules without "project_id:%(project_id)s".
POLICY_RULES = {
    "cloudformation:ListStacks": "role:reader",
    "cloudformation:CreateStack": "role:member",
    "cloudformation:DescribeStacks": "role:reader",
    "cloudformation:DeleteStack": "role:member",
    "cloudformation:UpdateStack": "role:member",
    "cloudformation:DescribeStackEvents": "role:reader",
    "cloudformation:ValidateTemplate": "role:reader",
    "cloudformation:EstimateTemplateCost": "role:reader",
    "cloudformation:GetTemplate": "role:reader",
    "cloudformation:DescribeStackResource": "role:reader or role:heat_stack_user",
    "cloudformation:DescribeStackResources": "role:reader",
    "cloudformation:ListStackResources": "role:reader",
    # Refused to everybody, to compare the AccessDenied answers.
    "cloudformation:CancelUpdateStack": "!",
}


def write_policy(directory: Path) -> Path:
    path = directory / "cfn-policy.json"
    path.write_text(json.dumps(POLICY_RULES))
    return path


def heat_conf_text(policy_file: Path, keystone_url: str | None) -> str:
    text = (
        "[DEFAULT]\ntransport_url = fake://\nrpc_response_timeout = 1\n"
        f"[paste_deploy]\nflavor = standalone\napi_paste_config = {PASTE_CONFIG}\n"
        f"[oslo_policy]\npolicy_file = {policy_file}\n"
    )
    if keystone_url:
        text += f"[ec2authtoken]\nendpoint_override = {keystone_url}\n"
    return text


def replay(
    directory: Path, requests: list[dict[str, Any]], keystone_url: str | None = None
) -> list[dict[str, Any]]:
    """Heat's answer to each request (``{"raised": <class>}`` when none came back)."""
    oracle.ensure()
    conf_path = directory / "heat-cfn-oracle.conf"
    conf_path.write_text(heat_conf_text(write_policy(directory), keystone_url))
    requests_path = directory / "requests.json"
    requests_path.write_text(json.dumps(requests))
    answers_path = directory / "answers.json"
    oracle.run(
        REPLAY,
        str(conf_path),
        str(requests_path),
        str(answers_path),
        str(Path(wsgi_environ.__file__)),
    )
    return json.loads(answers_path.read_text())


# Runs in the oracle: Heat's CFN API whose engine client answers from a script, one
# answer (or error) a call, in the order our API made the same calls.
SCRIPTED = """
import collections, json, sys
conf_path, requests_path, script_path, answers_path, environ_module = sys.argv[1:6]
sys.argv = ["heat-api-cfn", "--config-file", conf_path]
namespace = {"__name__": "wsgi_environ"}
exec(open(environ_module).read(), namespace)
script = collections.defaultdict(collections.deque)
for method, outcome in json.loads(open(script_path).read()):
    script[method].append(outcome)

class ScriptedEngine:
    def __getattr__(self, method):
        def answer(ctxt, *args, **kwargs):
            outcome = script[method].popleft()
            if "error" in outcome:
                error_class = type(outcome["error"], (Exception,), {"safe": outcome["safe"]})
                raise error_class(outcome["message"])
            return outcome["result"]
        return answer

from heat.rpc import client as rpc_client
rpc_client.EngineClient = ScriptedEngine
from heat.api.cfn import wsgi
application = wsgi.init_application()
answers = []
for spec in json.loads(open(requests_path).read()):
    try:
        answers.append(namespace["call"](application, spec))
    except Exception as error:
        answers.append({"raised": type(error).__name__})
with open(answers_path, "w") as answers_file:
    json.dump(answers, answers_file)
"""


def replay_scripted(
    directory: Path, requests: list[dict[str, Any]], script: list[tuple[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Heat's answers when its engine answers each call as ``script`` says."""
    oracle.ensure()
    conf_path = directory / "heat-cfn-oracle.conf"
    conf_path.write_text(heat_conf_text(write_policy(directory), None))
    requests_path = directory / "requests.json"
    requests_path.write_text(json.dumps(requests))
    script_path = directory / "script.json"
    script_path.write_text(json.dumps(script))
    answers_path = directory / "answers.json"
    oracle.run(
        SCRIPTED,
        str(conf_path),
        str(requests_path),
        str(script_path),
        str(answers_path),
        str(Path(wsgi_environ.__file__)),
    )
    return json.loads(answers_path.read_text())
