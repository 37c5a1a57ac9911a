"""The bare HTTP errors heat-api answers outside its fault middleware (webob's own bodies).

An unknown route or an unknown API version never reaches Heat's fault handling: webob
writes the answer itself, as plain text, HTML or JSON depending on the Accept header.
Clients (and their error parsing) see exactly those bodies, so they are rebuilt here.
To a HEAD request webob gives none of them: the bare response, empty and typed HTML
whatever the Accept header, which ``PlainErrorResponse`` answers when it is sent.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from typing import Any

from flask import Response

OFFERS = ("text/html", "application/json")


def preferred_offer(accept_header: str, offers: Sequence[str] = OFFERS) -> str | None:
    """Which of the offers the Accept header prefers, webob's way (ties: offers' order)."""
    ranked: list[tuple[float, int, str]] = []
    ranges = parse_accept(accept_header)
    for position, offer in enumerate(offers):
        quality = offer_quality(offer, ranges)
        if quality > 0:
            ranked.append((-quality, position, offer))
    return min(ranked)[2] if ranked else None


def parse_accept(accept_header: str) -> list[tuple[str, float]]:
    ranges = []
    for item in accept_header.split(","):
        media_range, *parameters = (part.strip() for part in item.split(";"))
        if not media_range:
            continue
        quality = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        ranges.append((media_range.lower(), quality))
    return ranges


def offer_quality(offer: str, ranges: list[tuple[str, float]]) -> float:
    # The most specific range that matches decides, as in RFC 7231.
    offer_type = offer.split("/")[0]
    best: tuple[int, float] = (-1, 0.0)
    for media_range, quality in ranges:
        if media_range == offer:
            specificity = 2
        elif media_range == f"{offer_type}/*":
            specificity = 1
        elif media_range == "*/*":
            specificity = 0
        else:
            continue
        if specificity > best[0]:
            best = (specificity, quality)
    return best[1]


HEAD_CONTENT_TYPE = "text/html; charset=UTF-8"


class PlainErrorResponse(Response):
    """A webob error body, which a HEAD request gets as webob's bare, empty response.

    Flask's own response class, so that Flask sends it as it is (a plain werkzeug
    response would be converted and lose ``__call__``); it also serves bare WSGI.
    """

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "HEAD":
            self.set_data(b"")
            self.headers["Content-Type"] = HEAD_CONTENT_TYPE
        return super().__call__(environ, start_response)


def plain_error(status: int, title: str, explanation: str, accept_header: str) -> Response:
    """webob's generated body for an error raised without detail."""
    status_line = f"{status} {title}"
    # webob's body template, with no detail and no comment.
    marked_up = f"{explanation}<br /><br />\n\n\n"
    offer = preferred_offer(accept_header)
    if offer == "text/html":
        body = (
            f"<html>\n <head>\n  <title>{status_line}</title>\n </head>\n <body>\n"
            f"  <h1>{status_line}</h1>\n  {html.escape(explanation)}<br /><br />\n\n\n\n"
            " </body>\n</html>"
        )
        content_type = "text/html; charset=UTF-8"
    elif offer == "application/json":
        body = json.dumps({"message": marked_up, "code": status_line, "title": title})
        content_type = "application/json"
    else:
        # Line breaks become spaces, then each <br /> a line break.
        text = marked_up.replace("\n", " ").replace("<br />", "\n")
        body = f"{status_line}\n\n{text}"
        content_type = "text/plain; charset=UTF-8"
    return PlainErrorResponse(body.encode(), status=status, headers={"Content-Type": content_type})


def not_found(accept_header: str) -> Response:
    return plain_error(404, "Not Found", "The resource could not be found.", accept_header)


def bad_request(accept_header: str) -> Response:
    return plain_error(
        400,
        "Bad Request",
        "The server could not comply with the request since it is either malformed or "
        "otherwise incorrect.",
        accept_header,
    )
