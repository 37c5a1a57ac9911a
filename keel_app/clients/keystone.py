"""keystoneauth1 sessions towards Keystone: the caller's own, and the trustee's.

``KeystoneSettings`` carries what heat.conf says about reaching Keystone ([trustee],
[clients_keystone], the trust options of [DEFAULT]) as one frozen value, so that the
engine reads no configuration; a heat.conf without a [trustee] plugin has none, and
then the engine makes no call to Keystone at all (the embedded default).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from keystoneauth1 import access, identity, session
from keystoneauth1.identity.access import AccessInfoPlugin

from keel_app.common.context import RequestContext

TRUSTS = "trusts"
# The [trustee] options the password plugin takes (keystoneauth1's names).
TRUSTEE_OPTIONS = (
    "auth_url",
    "user_id",
    "username",
    "user_domain_id",
    "user_domain_name",
    "password",
)


@dataclass(frozen=True)
class KeystoneSettings:
    # The [trustee] plugin's options; kept out of repr() for its password.
    trustee: tuple[tuple[str, str], ...] = field(repr=False)
    # [clients_keystone] auth_uri: Keystone's unversioned endpoint.
    auth_uri: str | None = None
    deferred_auth_method: str = TRUSTS
    trusts_delegated_roles: tuple[str, ...] = ()
    allow_redelegation: bool = False
    verify: bool | str = True
    cert: str | tuple[str, str] | None = None
    # [DEFAULT] client_retry_limit: a connection that fails (a reset keep-alive socket, a
    # refused connect) is tried again this many times, as Heat's Keystone clients do.
    connect_retries: int = 2

    @property
    def uses_trusts(self) -> bool:
        return self.deferred_auth_method == TRUSTS


def from_conf(conf: Any) -> KeystoneSettings | None:
    """The settings of a parsed heat.conf; ``None`` when [trustee] names no plugin."""
    if not conf.trustee.auth_type:
        return None

    def client_option(name: str) -> Any:
        value = conf.clients_keystone[name]
        return conf.clients[name] if value is None else value

    cert_file, key_file = client_option("cert_file"), client_option("key_file")
    return KeystoneSettings(
        trustee=tuple(
            (name, str(conf.trustee[name]))
            for name in TRUSTEE_OPTIONS
            if conf.trustee[name] is not None
        ),
        auth_uri=conf.clients_keystone.auth_uri,
        deferred_auth_method=conf.deferred_auth_method,
        trusts_delegated_roles=tuple(conf.trusts_delegated_roles),
        allow_redelegation=(
            conf.reauthentication_auth_method == TRUSTS and conf.allow_trusts_redelegation
        ),
        verify=False if client_option("insecure") else client_option("ca_file") or True,
        cert=(cert_file, key_file) if cert_file and key_file else cert_file,
        connect_retries=max(conf.client_retry_limit, 0),
    )


def identity_url(settings: KeystoneSettings, auth_url: str | None) -> str:
    """Keystone's v3 endpoint: a context's (X-Auth-Url), else [clients_keystone]'s."""
    if auth_url:
        return auth_url.rstrip("/")
    if settings.auth_uri:
        return settings.auth_uri.rstrip("/") + "/v3"
    raise ValueError("no Keystone endpoint: set [clients_keystone] auth_uri")


def make_session(settings: KeystoneSettings, auth: Any) -> session.Session:
    return session.Session(
        auth=auth,
        verify=settings.verify,
        cert=settings.cert,
        connect_retries=settings.connect_retries,
    )


def user_session(settings: KeystoneSettings, context: RequestContext) -> session.Session:
    """The caller's token as it is (no new token is asked for when its body is known)."""
    return make_session(settings, context_auth(settings, context))


def context_auth(settings: KeystoneSettings, context: RequestContext) -> Any:
    """The auth plugin that acts for ``context``.

    A context acting within a trust (a stack's stored owner) authenticates anew as the
    trustee in that trust whenever its token runs out; a caller's token is used as it
    came, its body when known; stored password credentials log in with them.
    """
    url = identity_url(settings, context.auth_url)
    if context.trust_id:
        return identity.Password(trust_id=context.trust_id, **dict(settings.trustee))
    if context.auth_token_info and "token" in context.auth_token_info:
        token = access.create(body=context.auth_token_info, auth_token=context.auth_token)
        return AccessInfoPlugin(token, auth_url=url)
    if not context.auth_token and context.password:
        return identity.v3.Password(
            auth_url=url,
            username=context.username,
            password=context.password,
            user_domain_id=context.user_domain_id or "default",
            project_id=context.project_id,
        )
    return identity.v3.Token(auth_url=url, token=context.auth_token, project_id=context.project_id)


def trustee_session(settings: KeystoneSettings, trust_id: str | None = None) -> session.Session:
    """The [trustee] user (Heat's service user), scoped to ``trust_id`` when given."""
    options = dict(settings.trustee)
    return make_session(settings, identity.Password(trust_id=trust_id, **options))
