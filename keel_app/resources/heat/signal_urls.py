"""The URLs a stack user's resource is signalled at, as Heat's signal responders make them.

- The EC2-signed CFN URL: ``<CFN API>/signal/<ARN>`` (``/waitcondition/<ARN>`` for
  handles, which cfn-signal PUTs to), signed with the user's EC2 keypair (made on first
  use) by signature version 2 with HmacSHA256; a URL that never expires has no
  ``Timestamp``. The base is ``heat_waitcondition_server_url`` when configured, else the
  catalog's ``cloudformation`` endpoint. As in Heat, the URL's base is lower-cased, and
  the path is signed unquoted (what the CFN API will see) but sent quoted.
- The native API URL: ``<orchestration endpoint>/<resource path>/signal``, which needs
  credentials of its own; kept in resource_data ``heat_signal_url`` once made.

Both are None while the resource has no row yet ("too early").
"""

from __future__ import annotations

import datetime
import logging
from typing import Any
from urllib.parse import unquote, urlencode, urljoin, urlparse

from keel_app.clients import ec2_signature
from keel_app.resources.heat.stack_user import ACCESS_KEY, SECRET_KEY

LOG = logging.getLogger(__name__)

SIGNAL_TYPES = (WAITCONDITION, SIGNAL) = ("/waitcondition", "/signal")
SIGNAL_VERB = {WAITCONDITION: "PUT", SIGNAL: "POST"}
EC2_SIGNED_URL, HEAT_SIGNAL_URL = "ec2_signed_url", "heat_signal_url"


def _keypair(resource: Any) -> tuple[str | None, str | None]:
    data = resource.data()
    return data.get(ACCESS_KEY), data.get(SECRET_KEY)


def ec2_signed_url(
    resource: Any, signal_type: str = SIGNAL, never_expire: bool = False
) -> str | None:
    """A pre-signed CFN URL for the resource's user (made, with its keypair, if need be)."""
    access_key, secret_key = _keypair(resource)
    if not access_key or not secret_key:
        if resource.id is None:
            return None
        if resource._get_user_id() is None:
            resource._create_user()
        resource._create_keypair()
        access_key, secret_key = _keypair(resource)
        if not access_key or not secret_key:
            LOG.warning("Cannot generate signed url, unable to create keypair")
            return None
    clients = resource.context.clients
    configured = clients.heat.waitcondition_server_url
    if configured:
        signal_url = configured.replace("/waitcondition", signal_type)
    else:
        signal_url = clients.client_plugin("heat").get_heat_cfn_url() + signal_type
    host_url = urlparse(signal_url)
    path = resource.identifier().arn_url_path()
    params = {
        "SignatureMethod": ec2_signature.HMAC_SHA256,
        "SignatureVersion": "2",
        "AWSAccessKeyId": access_key,
    }
    if not never_expire:
        params["Timestamp"] = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    params["Signature"] = ec2_signature.sign_v2(
        secret_key,
        SIGNAL_VERB[signal_type],
        host_url.netloc.lower(),
        unquote(host_url.path + path),
        params,
    )
    return f"{signal_url.lower()}{path}?{urlencode(params)}"


def stored_ec2_signed_url(resource: Any, signal_type: str = WAITCONDITION) -> str | None:
    """A handle's signed URL: made once and kept (``ec2_signed_url``)."""
    stored = resource.data().get(EC2_SIGNED_URL)
    if stored is not None:
        return str(stored)
    url = ec2_signed_url(resource, signal_type)
    if url is not None:
        resource.data_set(EC2_SIGNED_URL, url)
    return url


def heat_signal_url(resource: Any, project_id: str | None = None) -> str | None:
    """The native API's signal URL of the resource (its project swapped when given)."""
    stored = resource.data().get(HEAT_SIGNAL_URL)
    if stored is not None:
        return str(stored)
    if resource.id is None:
        return None
    url = resource.context.clients.client_plugin("heat").get_heat_url()
    path = resource.identifier().url_path()
    if project_id is not None:
        path = project_id + path[path.find("/") :]
    signal_url = urljoin(url, f"{path}/signal")
    resource.data_set(HEAT_SIGNAL_URL, signal_url)
    return signal_url


def delete_urls(resource: Any) -> None:
    """Forget the URLs made; the keypair goes with the user."""
    resource.data_delete(EC2_SIGNED_URL)
    resource.data_delete(HEAT_SIGNAL_URL)
