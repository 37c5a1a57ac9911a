"""Which API version a request is for: heat-api's version negotiation, as WSGI middleware.

``/`` and ``/versions`` (and any version other than 1.0) answer the versions document
with 300 Multiple Choices; ``/v1/...`` goes on to the v1 routes with ``/v1`` moved
from the path into the script name, so links built from the application URL keep it;
anything else is a 404, unless the Accept header names version 1.0 of the
orchestration media type. It sits in front of Flask because it decides which path
Flask routes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from werkzeug.wrappers import Request, Response

from keel_app.web import plain_errors

VERSION_PATTERN = re.compile(r"^v(\d+)\.?(\d+)?")
MEDIA_TYPE_PREFIX = "application/vnd.openstack.orchestration-"
SUPPORTED_VERSION = (1, 0)

WSGIApplication = Any


def versions_document(application_url: str) -> Response:
    body = {
        "versions": [
            {
                "id": "v1.0",
                "status": "CURRENT",
                "links": [{"rel": "self", "href": f"{application_url}/v1/"}],
            }
        ]
    }
    return Response(
        json.dumps(body).encode(), status=300, headers={"Content-Type": "application/json"}
    )


def requested_version(text: str) -> tuple[int, int] | None:
    match = VERSION_PATTERN.match(text)
    if match is None:
        return None
    major, minor = match.groups()
    return int(major), int(minor or 0)


class VersionNegotiation:
    def __init__(self, application: WSGIApplication) -> None:
        self.application = application

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        accept = environ.get("HTTP_ACCEPT", "")
        path_info = environ.get("PATH_INFO", "")
        try:
            # WSGI hands the path over as latin-1; heat-api wants it to be UTF-8.
            path_info.encode("latin-1").decode("utf-8")
        except UnicodeError:
            return plain_errors.bad_request(accept)(environ, start_response)

        first_segment = path_info.lstrip("/").split("/", 1)[0]
        if first_segment in ("", "versions"):
            return self.versions(environ, start_response)

        version = requested_version(first_segment)
        if version is not None:
            if version != SUPPORTED_VERSION:
                return self.versions(environ, start_response)
            move_first_segment_to_script_name(environ)
            return self.application(environ, start_response)

        if accept.startswith(MEDIA_TYPE_PREFIX):
            version = requested_version(accept[len(MEDIA_TYPE_PREFIX) :])
            if version is None or version == SUPPORTED_VERSION:
                return self.application(environ, start_response)
            return self.versions(environ, start_response)
        return plain_errors.not_found(accept)(environ, start_response)

    @staticmethod
    def versions(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        application_url = Request(environ).root_url.rstrip("/")
        return versions_document(application_url)(environ, start_response)


def move_first_segment_to_script_name(environ: dict[str, Any]) -> None:
    path_info = environ.get("PATH_INFO", "")
    # As webob's path_info_pop: leading slashes stay with the moved segment.
    stripped = path_info.lstrip("/")
    leading = path_info[: len(path_info) - len(stripped)]
    segment, slash, rest = stripped.partition("/")
    environ["SCRIPT_NAME"] = environ.get("SCRIPT_NAME", "") + leading + segment
    environ["PATH_INFO"] = slash + rest
