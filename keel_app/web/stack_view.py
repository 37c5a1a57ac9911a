"""``/stack-view/``: the browser's view of a project's stacks, served beside the API.

The page and its script are static files of the package, handed out with no
authentication, as ``/healthcheck`` is: they hold no data. Everything they show comes
from the API itself (the stack list, and the ``watch`` stream of one stack) with the
same authentication as any client: a Keystone token typed into the page, or none under
the noauth flavor. ``/stack-view/<tenant_id>/`` opens the page for a project.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from typing import Any

from werkzeug.wrappers import Request, Response

PREFIX = "/stack-view/"
ASSETS = {
    "stack-view.js": "text/javascript; charset=utf-8",
    "stack-view.css": "text/css; charset=utf-8",
}
PAGE = "stack-view.html"


def _asset(name: str) -> bytes:
    return resources.files("keel_app.web").joinpath("assets", name).read_bytes()


class StackView:
    """Answers ``/stack-view/…`` itself; hands every other request on."""

    def __init__(self, application: Any) -> None:
        self.application = application

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if not path.startswith(PREFIX):
            return self.application(environ, start_response)
        return self.respond(Request(environ))(environ, start_response)

    @staticmethod
    def respond(request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return Response("Method not allowed\n", status=405, headers={"Allow": "GET, HEAD"})
        name = request.path[len(PREFIX) :].rsplit("/", 1)[-1]
        if name in ASSETS:
            return Response(_asset(name), content_type=ASSETS[name])
        if request.path.count("/") < 3 or request.path.endswith("/"):
            # /stack-view/<tenant_id>/ (or the bare prefix, for the default project).
            return Response(_asset(PAGE), content_type="text/html; charset=utf-8")
        return Response("Not found\n", status=404, content_type="text/plain")
