"""Heat's own heat-api (noauth pipeline, paste deploy) in the oracle, for requests that
never reach its engine: the same requests go to both APIs and the answers are compared."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests import oracle

# Runs in the oracle: builds heat-api from a heat.conf and replays the requests given.
REPLAY = """
import json, sys
conf_path, requests_path, answers_path = sys.argv[1:4]
sys.argv = ["heat-api", "--config-file", conf_path]
import webob
from heat.api.openstack import wsgi
application = wsgi.init_application()
answers = []
for spec in json.loads(open(requests_path).read()):
    request = webob.Request.blank(spec["path"], method=spec["method"], headers=spec["headers"])
    if spec["body"] is not None:
        request.body = spec["body"].encode("latin-1")
    response = request.get_response(application)
    answers.append({"status": response.status_code, "headers": dict(response.headers),
                    "body": response.body.decode("latin-1")})
# Heat's logging may write to standard output: the answers go to a file.
with open(answers_path, "w") as answers_file:
    json.dump(answers, answers_file)
"""

PASTE_CONFIG = oracle.VENV / "etc" / "heat" / "api-paste.ini"


def heat_conf_text(max_json_body_size: int, debug: bool) -> str:
    return (
        f"[DEFAULT]\ndebug = {debug}\nmax_json_body_size = {max_json_body_size}\n"
        f"[paste_deploy]\nflavor = noauth\napi_paste_config = {PASTE_CONFIG}\n"
    )


def replay(
    directory: Path, requests: list[dict[str, Any]], *, debug: bool, extra_conf: str = ""
) -> list[dict[str, Any]]:
    conf_path = directory / "heat-oracle.conf"
    oracle.ensure()
    conf_path.write_text(heat_conf_text(MAX_JSON_BODY_SIZE, debug) + extra_conf)
    requests_path = directory / "requests.json"
    requests_path.write_text(json.dumps(requests))
    answers_path = directory / "answers.json"
    oracle.run(REPLAY, str(conf_path), str(requests_path), str(answers_path))
    return json.loads(answers_path.read_text())


MAX_JSON_BODY_SIZE = 4096


# Heat's noauth callers hold only the admin role, which the new defaults refuse everywhere;
# the old ones let the requests reach the code under comparison.
OLD_POLICY_DEFAULTS = "[oslo_policy]\nenforce_new_defaults = false\nenforce_scope = false\n"
COMPARED_HEADERS = ("content-type", "content-length", "allow", "location")
# (test id, method, path, headers, body)
Case = tuple[str, str, str, dict[str, str], str | None]


def replay_cases(directory: Path, cases: list[Case]) -> list[dict[str, Any]]:
    """Heat's answers to ``cases`` (under its old policy defaults), in their order."""
    requests = [
        {"method": method, "path": path, "headers": headers, "body": data}
        for _, method, path, headers, data in cases
    ]
    return replay(directory, requests, debug=False, extra_conf=OLD_POLICY_DEFAULTS)


def comparable(status: int, headers: dict[str, str], text: str) -> dict[str, Any]:
    """What of an answer is compared: the status, the headers named above, the body."""
    lowered = {name.lower(): value for name, value in headers.items()}
    return {
        "status": status,
        "headers": {name: lowered.get(name) for name in COMPARED_HEADERS},
        "body": text,
    }
