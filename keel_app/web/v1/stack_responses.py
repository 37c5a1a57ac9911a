"""The answers heat-api's stack views give without a JSON body of their own.

Heat's controllers answer an accepted update (202), a deletion (204) and a stack lookup
(302) by raising webob's non-error HTTP exceptions, which webob turns into responses
itself: a body in plain text, HTML or JSON depending on the Accept header, never
through Heat's fault middleware. Clients see exactly those bodies, so they are rebuilt
here; a created stack (201) is JSON with a ``Location`` header.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

import flask
from werkzeug.wrappers import Response

from keel_app.web import plain_errors

Escape = Callable[[str], str]

ACCEPTED_EXPLANATION = "The request is accepted for processing."
FOUND_EXPLANATION = "The resource was found at"

_BREAK = re.compile(r"<br.*?>", re.IGNORECASE | re.DOTALL)
_COMMENT = re.compile(r"<!--|-->")
_TAG = re.compile(r"<.*?>", re.DOTALL)


def html_escape(text: str) -> str:
    # webob escapes quotes too, and writes anything beyond ASCII as a character reference.
    return html.escape(text, quote=True).encode("ascii", "xmlcharrefreplace").decode("ascii")


def keep(text: str) -> str:
    return text


def strip_tags(text: str) -> str:
    """webob's plain-text form of a body: lines joined, each ``<br>`` a line break."""
    text = text.replace("\n", " ").replace("\r", "")
    text = _BREAK.sub("\n", text)
    text = _COMMENT.sub("", text)
    return _TAG.sub("", text)


def negotiated(
    code: int, title: str, body: Callable[[Escape], str], headers: dict[str, str]
) -> Response:
    """A response with webob's generated body; ``body(escape)`` is its marked-up text."""
    status = f"{code} {title}"
    offer = plain_errors.preferred_offer(flask.request.headers.get("Accept", ""))
    if offer == "text/html":
        text = (
            f"<html>\n <head>\n  <title>{status}</title>\n </head>\n <body>\n"
            f"  <h1>{status}</h1>\n  {body(html_escape)}\n </body>\n</html>"
        )
        content_type = "text/html; charset=UTF-8"
    elif offer == "application/json":
        text = json.dumps({"message": body(keep), "code": status, "title": title})
        content_type = "application/json"
    else:
        text = f"{status}\n\n{strip_tags(body(keep))}"
        content_type = "text/plain; charset=UTF-8"
    return Response(
        text.encode("utf-8"), status=code, headers={**headers, "Content-Type": content_type}
    )


def accepted() -> Response:
    """202, as webob's ``HTTPAccepted()`` answers."""
    return negotiated(
        202,
        "Accepted",
        lambda escape: f"{escape(ACCEPTED_EXPLANATION)}<br /><br />\n\n\n",
        {},
    )


def found(location: str) -> Response:
    """302 to ``location``, as webob's ``HTTPFound(location=...)`` answers."""

    def body(escape: Escape) -> str:
        target = escape(location)
        return (
            f'{escape(FOUND_EXPLANATION)} <a href="{target}">{target}</a>;\n'
            "you should be redirected automatically.\n\n"
        )

    return negotiated(302, "Found", body, {"Location": location})


def no_content() -> Response:
    """204 with no header at all, as webob's ``HTTPNoContent()`` answers."""
    response = Response(status=204)
    del response.headers["Content-Type"]
    return response


def json_response(value: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """Any JSON value (None included) serialised as Heat's response serializer does."""
    response: Response = flask.current_app.json.response(value)
    response.status_code = status
    for name, header in (headers or {}).items():
        response.headers[name] = header
    return response
