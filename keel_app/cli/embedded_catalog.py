"""The service catalog of ``keel all-in-one``: its own two APIs, as a Keystone token lists them.

With no Keystone there is no catalog, and Heat's resource types that need the
orchestration or cloudformation service (OS::Heat::SoftwareConfig, the wait condition
handles, ...) would all be unavailable (error 99001). The embedded default serves both
APIs itself, so it hands every request a token description naming them, through the
noauth flavor's ``[noauth] token_response`` file, unless the operator gave one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from keel_app.web.auth_noauth import DEFAULT_IDENTITY, NOAUTH_ROLES

FILE_NAME = "noauth-token.json"
REGION = "RegionOne"


def token_body(host: str, port: int, cfn_port: int) -> dict[str, Any]:
    def service(service_type: str, name: str, url: str) -> dict[str, Any]:
        endpoints = [
            {"interface": interface, "region": REGION, "region_id": REGION, "url": url}
            for interface in ("public", "internal", "admin")
        ]
        return {"type": service_type, "name": name, "endpoints": endpoints}

    return {
        "token": {
            "methods": ["token"],
            "project": {"id": DEFAULT_IDENTITY, "name": DEFAULT_IDENTITY},
            "user": {"id": DEFAULT_IDENTITY, "name": DEFAULT_IDENTITY},
            "roles": [{"name": role} for role in NOAUTH_ROLES.split(",")],
            "catalog": [
                service("orchestration", "heat", f"http://{host}:{port}/v1/{DEFAULT_IDENTITY}"),
                service("cloudformation", "heat-cfn", f"http://{host}:{cfn_port}/v1"),
            ],
        }
    }


def install(conf: Any, directory: Path, host: str, port: int, cfn_port: int) -> Path | None:
    """Write the catalog and point ``[noauth] token_response`` at it; None when the
    configuration already names a token response or does not use noauth."""
    if conf.paste_deploy.flavor != "noauth" or conf.noauth.token_response:
        return None
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / FILE_NAME
    path.write_text(json.dumps(token_body(host, port, cfn_port), indent=2))
    conf.set_override("token_response", str(path), group="noauth")
    return path
