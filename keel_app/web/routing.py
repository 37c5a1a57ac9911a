"""Declaring routes the way heat-api's router does.

For each URL, the methods declared are served; every other method of HEAD, GET,
POST, PUT, PATCH and DELETE is a 405, and OPTIONS answers 204 with an ``Allow`` header
listing the declared methods in their declared order. Unlike Flask, GET does not
imply HEAD and OPTIONS is never answered automatically.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import flask
from werkzeug.routing import Rule
from werkzeug.wrappers import Response


class DeclaredMethodsRule(Rule):
    """A rule that answers exactly the methods it was declared with."""

    def __init__(self, string: str, *args: Any, **kwargs: Any) -> None:
        methods = kwargs.get("methods")
        super().__init__(string, *args, **kwargs)
        declared = {method.upper() for method in methods or ()}
        if self.methods is not None and "HEAD" not in declared:
            self.methods.discard("HEAD")


@dataclass(frozen=True)
class Route:
    url: str
    endpoint: str
    view: Callable[..., Any]
    methods: Sequence[str]


def connect(blueprint: flask.Blueprint, routes: Sequence[Route]) -> None:
    """Register routes, and for each URL an OPTIONS answer naming its methods."""
    methods_by_url: dict[str, list[str]] = {}
    for route in routes:
        blueprint.add_url_rule(
            route.url,
            endpoint=route.endpoint,
            view_func=route.view,
            methods=list(route.methods),
            provide_automatic_options=False,
        )
        methods_by_url.setdefault(route.url, []).extend(route.methods)

    for url, methods in methods_by_url.items():
        if "OPTIONS" in methods:
            continue
        blueprint.add_url_rule(
            url,
            endpoint=f"options:{url}".replace(".", "_"),
            view_func=allowed_methods_view(methods),
            methods=["OPTIONS"],
            provide_automatic_options=False,
        )


def allowed_methods_view(methods: Sequence[str]) -> Callable[..., Response]:
    allowed = ",".join(methods)

    def options(**_url_values: Any) -> Response:
        response = Response(status=204, headers={"Allow": allowed})
        del response.headers["Content-Type"]
        return response

    return options
