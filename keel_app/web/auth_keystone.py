"""The keystone flavor (heat-api's ``default`` pipeline): tokens validated by Keystone.

In heat-api's paste pipeline, after version negotiation, come ``authurl`` (the
``X-Auth-Url`` header a request context carries) and keystonemiddleware's
``auth_token``, configured from heat.conf's [keystone_authtoken]; both are put in front
of the Flask app here, in that order. keystonemiddleware answers a missing, bad or
expired token itself (401, its JSON body, ``WWW-Authenticate: Keystone uri=…``) and
otherwise leaves the identity headers and ``keystone.token_info`` in the environ,
which ``request_context`` turns into the request context as in the noauth flavor.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

import flask
import webob.exc
from keystoneauth1 import discover, session
from keystonemiddleware import auth_token
from oslo_config import cfg

from keel_app.web import private_conf

WsgiApplication = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

AUTH_URL_KEY = "HTTP_X_AUTH_URL"
IDENTITY_VERSION = "3.0"


def keystone_session_options(conf: cfg.ConfigOpts) -> dict[str, Any]:
    """TLS settings towards Keystone: [clients_keystone], falling back to [clients]."""

    def option(name: str) -> Any:
        value = conf.clients_keystone[name]
        return conf.clients[name] if value is None else value

    cert_file, key_file = option("cert_file"), option("key_file")
    return {
        "verify": False if option("insecure") else option("ca_file") or True,
        "cert": (cert_file, key_file) if cert_file and key_file else cert_file,
    }


def configured_auth_url(conf: cfg.ConfigOpts) -> str | None:
    """The identity endpoint a request context names, as Heat finds it.

    ``[clients_keystone] auth_uri`` is an unversioned endpoint: Keystone's version
    discovery gives its v3 URL. Without it, ``[keystone_authtoken]
    www_authenticate_uri`` is taken as it is.
    """
    if conf.clients_keystone.auth_uri:
        keystone = session.Session(**keystone_session_options(conf))
        found = discover.Discover(session=keystone, url=conf.clients_keystone.auth_uri)
        url: str | None = found.url_for(IDENTITY_VERSION)
        return url
    value = conf.keystone_authtoken.www_authenticate_uri
    return str(value) if value else None


class AuthUrl:
    """Sets ``X-Auth-Url``: the configured endpoint, or with ``[auth_password]
    multi_cloud`` the caller's own, which must be one of ``allowed_auth_uris``."""

    def __init__(self, application: WsgiApplication, conf: cfg.ConfigOpts) -> None:
        self.application = application
        self.conf = conf
        self._auth_url: str | None = None
        self._lock = threading.Lock()

    def auth_url(self) -> str | None:
        # Found on the first request, as Heat does: discovery needs Keystone to be up.
        with self._lock:
            if self._auth_url is None:
                self._auth_url = configured_auth_url(self.conf)
            return self._auth_url

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        if self.conf.auth_password.multi_cloud:
            auth_url = environ.get(AUTH_URL_KEY)
            if not auth_url:
                refusal = webob.exc.HTTPBadRequest("Request missing required header X-Auth-Url")
                return refusal(environ, start_response)  # type: ignore[no-any-return]
            if auth_url not in self.conf.auth_password.allowed_auth_uris:
                refusal = webob.exc.HTTPUnauthorized(
                    f'Header X-Auth-Url "{auth_url}" not an allowed endpoint'
                )
                return refusal(environ, start_response)  # type: ignore[no-any-return]
        else:
            auth_url = self.auth_url()
        if auth_url:
            environ[AUTH_URL_KEY] = auth_url
        else:
            environ.pop(AUTH_URL_KEY, None)
        return self.application(environ, start_response)


def token_validation(application: WsgiApplication, conf: cfg.ConfigOpts) -> WsgiApplication:
    """keystonemiddleware's ``auth_token`` in front of ``application``.

    The middleware registers its options (and those of its auth plugin and of
    oslo.cache) on the ConfigOpts it is handed, so it gets one of its own read from
    heat.conf's files.
    """
    middleware: WsgiApplication = auth_token.AuthProtocol(
        application, {"oslo_config_config": private_conf.reread(conf)}
    )
    return middleware


def install(app: flask.Flask, conf: cfg.ConfigOpts) -> None:
    app.wsgi_app = AuthUrl(  # type: ignore[method-assign]
        token_validation(app.wsgi_app, conf), conf
    )
