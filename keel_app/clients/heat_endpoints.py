"""Where Heat's own APIs are, for the URLs handed to servers (Heat's ``heat`` client plugin).

The native API's URL is ``[clients_heat] url`` (``%(tenant_id)s`` replaced by the
caller's project) or the ``orchestration`` endpoint of the caller's catalog; the CFN
API's is the ``cloudformation`` endpoint. The CFN metadata URL handed to servers is
``[DEFAULT] heat_metadata_server_url`` when configured, else that endpoint, made to end
in ``/v1/`` as Heat makes it. Both are looked up with the interface
``[clients_heat] endpoint_type`` (else ``[clients]``'s) in the region of the context,
else ``region_name_for_services``. The catalog is the one of the caller's token body;
a context that has only the token asks Keystone for its body.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from keystoneauth1 import access
from keystoneauth1 import exceptions as keystone_errors

from keel_app.clients.keystone import KeystoneSettings, user_session

ORCHESTRATION, CLOUDFORMATION = "orchestration", "cloudformation"


@dataclass(frozen=True)
class HeatEndpointSettings:
    url: str | None = None
    endpoint_type: str = "publicURL"
    insecure: bool = False
    region_name_for_services: str | None = None
    # [DEFAULT] heat_waitcondition_server_url: the CFN signal URLs' base when set.
    waitcondition_server_url: str | None = None
    # [DEFAULT] heat_metadata_server_url: the CFN metadata URL servers poll, when set.
    metadata_server_url: str | None = None


def from_conf(conf: Any) -> HeatEndpointSettings:
    def client_option(name: str) -> Any:
        value = conf.clients_heat[name]
        return conf.clients[name] if value is None else value

    return HeatEndpointSettings(
        url=conf.clients_heat.url,
        endpoint_type=client_option("endpoint_type"),
        insecure=bool(client_option("insecure")),
        region_name_for_services=conf.region_name_for_services,
        waitcondition_server_url=conf.heat_waitcondition_server_url,
        metadata_server_url=conf.heat_metadata_server_url,
    )


class HeatClientPlugin:
    """The URLs of Heat's APIs as the caller's catalog gives them."""

    service_types = (ORCHESTRATION, CLOUDFORMATION)

    def __init__(
        self, context: Any, settings: HeatEndpointSettings, keystone: KeystoneSettings
    ) -> None:
        self.context = context
        self.settings = settings
        self.keystone = keystone
        self._access: Any = None

    def _get_region_name(self) -> str | None:
        return getattr(self.context, "region_name", None) or self.settings.region_name_for_services

    def _catalog(self) -> Any:
        if self._access is None:
            body = getattr(self.context, "auth_token_info", None)
            if isinstance(body, dict) and ("token" in body or "access" in body):
                self._access = access.create(
                    body=body, auth_token=getattr(self.context, "auth_token", None)
                )
            elif getattr(self.context, "auth_token", None):
                caller = user_session(self.keystone, self.context)
                self._access = caller.auth.get_access(caller)  # type: ignore[union-attr]
            else:
                raise keystone_errors.EmptyCatalog("The service catalog is empty.")
        return self._access.service_catalog

    def url_for(self, service_type: str, endpoint_type: str) -> str:
        url = self._catalog().url_for(
            service_type=service_type,
            interface=endpoint_type,
            region_name=self._get_region_name(),
        )
        if url is None:
            raise keystone_errors.EndpointNotFound()
        return str(url)

    def get_heat_url(self) -> str:
        if self.settings.url:
            return self.settings.url % {"tenant_id": self.context.project_id}
        return self.url_for(ORCHESTRATION, self.settings.endpoint_type)

    def get_heat_cfn_url(self) -> str:
        return self.url_for(CLOUDFORMATION, self.settings.endpoint_type)

    def get_cfn_metadata_server_url(self) -> str:
        """Where servers read their metadata through the CFN API (a URL ending in /v1/)."""
        url = self.settings.metadata_server_url or self.get_heat_cfn_url()
        # Older configurations name the API without its version path.
        if "/v1" not in url:
            url += "/v1"
        return url if url.endswith("/") else url + "/"

    def get_insecure_option(self) -> bool:
        return self.settings.insecure

    # What an error means: this plugin makes no calls of its own (Heat's would be
    # heatclient's), so no error is one of its service's.

    @staticmethod
    def is_not_found(error: BaseException) -> bool:
        return False

    @staticmethod
    def is_over_limit(error: BaseException) -> bool:
        return False

    @staticmethod
    def is_conflict(error: BaseException) -> bool:
        return False
