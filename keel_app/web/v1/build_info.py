"""``GET /<tenant_id>/build_info``: the API's and the engine's build revisions."""

from __future__ import annotations

from typing import Any

import flask

from keel_app.web.routing import Route
from keel_app.web.v1 import util


@util.policy_checked("build_info", "build_info")
def build_info() -> dict[str, Any]:
    conf = flask.current_app.config["HEAT_CONF"]
    return {
        "api": {"revision": conf.revision.heat_revision},
        "engine": {"revision": util.engine().get_revision(util.context())},
    }


def routes() -> list[Route]:
    return [Route("/<tenant_id>/build_info", "build_info", build_info, ["GET"])]
