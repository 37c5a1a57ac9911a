"""The CloudFormation-compatible query API (heat-api-cfn v1) as a Flask application.

Request flow, outermost first, as in heat-api-cfn's pipeline: ``/healthcheck`` beside
everything, the CORS layer's answer to a refused OPTIONS, request id, version
negotiation (the same as the native API's), EC2 signatures checked by Keystone
(``ec2token``), then Flask: the ``noauth`` flavor of the embedded default instead of
signatures (Heat's CFN API has none), the request context, the routes of ``actions``.
Errors are AWS error documents (``errors``), except for unknown URLs, which get webob's
bare 404 as in Heat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import flask
from oslo_config import cfg
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound
from werkzeug.wrappers import Response

from keel_app.common import config as heat_config
from keel_app.web import auth_noauth, plain_errors, request_context
from keel_app.web.access_log import AccessLog
from keel_app.web.cfn import actions, errors, serialization
from keel_app.web.cors import cors_filter
from keel_app.web.healthcheck import Healthcheck
from keel_app.web.request_id import REQUEST_ID_KEY, RequestId
from keel_app.web.v1.util import ENGINE_CLIENT_KEY
from keel_app.web.version_negotiation import VersionNegotiation

NOAUTH_FLAVOR = "noauth"
# Heat's CFN pipelines: "default" (EC2 signatures, then Keystone tokens) and "standalone".
STANDALONE_FLAVOR = "standalone"
EC2_FLAVORS = (None, "", "default", STANDALONE_FLAVOR)


def create_cfn_app(config: Mapping[str, Any] | None = None) -> flask.Flask:
    """The CFN API; ``config["HEAT_CONF"]`` is the parsed heat.conf (loaded when absent),
    ``config["ENGINE_CLIENT"]`` the ``EngineClient`` the actions call (by default one
    over the Celery transport, made from heat.conf)."""
    app = flask.Flask(__name__)
    app.config["PROVIDE_AUTOMATIC_OPTIONS"] = False
    if config is not None:
        app.config.update(config)
    conf: cfg.ConfigOpts = app.config.get("HEAT_CONF") or heat_config.load([])
    app.config["HEAT_CONF"] = conf
    app.config["HEAT_DEBUG"] = conf.debug
    if app.config.get(ENGINE_CLIENT_KEY) is None:
        # Imported here: only an API that talks to a broker needs the Celery app.
        from keel_app.web import celery_engine_client

        app.config[ENGINE_CLIENT_KEY] = celery_engine_client(conf)

    # The flavor's hooks (noauth) run before the request context is built.
    routed = authenticated(app, conf, EmptyPathNotFound(app.wsgi_app))
    request_context.install(app)
    actions.install(app)
    app.register_error_handler(errors.CfnError, answer_error)
    app.register_error_handler(HTTPException, answer_http_exception)
    app.register_error_handler(Exception, answer_unexpected)

    app.wsgi_app = AccessLog(  # type: ignore[method-assign]
        Healthcheck(cors_filter(RequestId(VersionNegotiation(routed)), conf))
    )
    return app


def authenticated(app: flask.Flask, conf: cfg.ConfigOpts, routed: Any) -> Any:
    """``routed`` behind the authentication ``[paste_deploy] flavor`` names."""
    flavor = conf.paste_deploy.flavor
    if flavor == NOAUTH_FLAVOR:
        auth_noauth.install(app, conf.noauth.token_response)
        return routed
    if flavor not in EC2_FLAVORS:
        raise RuntimeError(
            f"[paste_deploy] flavor {flavor!r} has no CFN pipeline; use the default, "
            f"standalone or {NOAUTH_FLAVOR}"
        )
    from keel_app.web import auth_keystone
    from keel_app.web.cfn import ec2_keystone, ec2token

    if conf.ec2authtoken.multi_cloud:
        raise RuntimeError("[ec2authtoken] multi_cloud is not supported yet")
    keystone = ec2_keystone.service_adapter(conf)
    if flavor == STANDALONE_FLAVOR:
        # Heat's standalone pipeline believes an unsigned caller's identity headers;
        # here such a request is refused (docs/divergences.md).
        return ec2token.EC2Token(routed, refuse_unsigned, keystone)
    # The default pipeline: the token of a signed request, or the one an unsigned
    # request names itself, validated by Keystone's token middleware.
    validated = auth_keystone.token_validation(routed, conf)
    return ec2token.EC2Token(validated, validated, keystone)


def refuse_unsigned(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
    error = errors.HeatIncompleteSignatureError()
    return serialization.xml_response(error.body(), error.code)(environ, start_response)


def answer_error(error: errors.CfnError) -> Response:
    # A raised error is always XML: Heat writes its body when it is created.
    return serialization.xml_response(error.body(), error.code)


def answer_http_exception(exception: HTTPException) -> Response:
    accept = flask.request.headers.get("Accept", "")
    if isinstance(exception, NotFound | MethodNotAllowed):
        # Heat's router knows URLs with their methods: any other pair matches nothing.
        return not_found(flask.request.method, accept)
    code = exception.code or 500
    return plain_errors.plain_error(code, exception.name, exception.description or "", accept)


def not_found(method: str, accept: str) -> Response:
    if method == "HEAD":
        # webob writes no body for HEAD, and keeps its default content type.
        return Response(b"", status=404, headers={"Content-Type": "text/html; charset=UTF-8"})
    return plain_errors.not_found(accept)


def answer_unexpected(exception: Exception) -> Response:
    debug = flask.current_app.config["HEAT_DEBUG"]
    flask.current_app.logger.error(
        "[%s] Unexpected error occurred serving API: %s",
        flask.request.environ.get(REQUEST_ID_KEY, "-"),
        exception,
        exc_info=exception if debug else None,
    )
    return answer_error(errors.HeatInternalFailureError())


class EmptyPathNotFound:
    """``/v1`` without a slash leaves no path at all, which Heat's router matches to nothing."""

    def __init__(self, application: Any) -> None:
        self.application = application

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if environ.get("PATH_INFO", "") == "":
            response = not_found(environ["REQUEST_METHOD"], environ.get("HTTP_ACCEPT", ""))
            return response(environ, start_response)
        return self.application(environ, start_response)
