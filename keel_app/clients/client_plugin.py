"""The client plugin of one cloud service, as resource plugins use it.

A resource asks its stack context's clients for a plugin by Heat's name
(``client_plugin("nova")``) and the plugin for a client (``client()``): an openstacksdk
proxy of the service (``compute``, ``network``, ``block_storage``...) authenticated as
the context (its trust, its token or its stored password), on the interface of
``[clients_<name>] endpoint_type`` and in the caller's region, retrying failed
connections ``client_retry_limit`` times. The plugin also says what a client error means
(``is_not_found``, ``is_conflict``, ``is_over_limit``), which the life cycle relies on to
treat a resource already gone as deleted.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from keystoneauth1 import exceptions as keystone_errors
from keystoneauth1 import session as ks_session
from openstack import connection
from openstack import exceptions as sdk_errors

from keel_app.clients.keystone import KeystoneSettings
from keel_app.clients.service_settings import ClientsSettings

APP_NAME = "openkeel"


class ClientPlugin:
    """What every service's plugin shares; subclasses name the service."""

    # Heat's plugin name ("nova"): the [clients_<name>] section and the entry point.
    name: ClassVar[str]
    # The catalog types the service is registered under, the first one preferred.
    service_types: ClassVar[tuple[str, ...]]
    # The openstacksdk proxy that ``client()`` returns (an attribute of a Connection).
    proxy: ClassVar[str]

    def __init__(self, clients: Any) -> None:
        self.clients = clients
        self.context = clients.context
        self.keystone: KeystoneSettings = clients.keystone
        self.settings: ClientsSettings = clients.clients_settings
        self._session: ks_session.Session | None = None
        self._connection: connection.Connection | None = None
        self._endpoint_existence: dict[tuple[str, str], bool] = {}

    # How the service is reached

    @property
    def region_name(self) -> str | None:
        return self.settings.region_for(
            getattr(self.context, "region_name", None), self.service_types
        )

    @property
    def interface(self) -> str:
        return self.settings.connection(self.name).interface

    @property
    def session(self) -> ks_session.Session:
        if self._session is None:
            service = self.settings.connection(self.name)
            self._session = ks_session.Session(
                # One authentication per context, whichever service it reaches.
                auth=self.clients.auth_plugin(),
                verify=service.verify,
                cert=service.cert,
                connect_retries=self.settings.connect_retries,
                app_name=APP_NAME,
            )
        return self._session

    def connection(self) -> connection.Connection:
        if self._connection is None:
            self._connection = connection.Connection(
                session=self.session,
                region_name=self.region_name,
                interface=self.interface,
                app_name=APP_NAME,
                global_request_id=getattr(self.context, "global_request_id", None),
            )
        return self._connection

    def client(self) -> Any:
        """The service's openstacksdk proxy."""
        return getattr(self.connection(), self.proxy)

    def url_for(self, service_type: str | None = None, interface: str | None = None) -> str:
        url = self.session.get_endpoint(
            service_type=service_type or self.service_types[0],
            interface=interface or self.interface,
            region_name=self.region_name,
        )
        if url is None:
            raise keystone_errors.EndpointNotFound()
        return str(url)

    def does_endpoint_exist(self, service_type: str, interface: str | None = None) -> bool:
        key = (service_type, interface or self.interface)
        if key not in self._endpoint_existence:
            try:
                self.url_for(service_type, interface)
                self._endpoint_existence[key] = True
            except keystone_errors.EndpointNotFound:
                self._endpoint_existence[key] = False
        return self._endpoint_existence[key]

    def find_cached(self, what: str, name_or_id: str, find: Callable[[], Any]) -> Any:
        """``find()``'s answer for a name within the caller's project, remembered in
        [resource_finder_cache] when caching is on."""
        key = f"{self.name}:{what}:{getattr(self.context, 'project_id', None)}:{name_or_id}"
        return self.settings.caches.resource_finder.get_or_create(key, find)

    def extensions_cached(self, list_extensions: Callable[[], Any]) -> Any:
        """The service's extensions, remembered in [service_extension_cache]."""
        key = f"{self.name}:extensions:{self.url_for()}"
        return self.settings.caches.service_extension.get_or_create(key, list_extensions)

    def service_in_catalog(self) -> bool:
        """Whether the caller's catalog has the service, on the configured interface."""
        return any(self.does_endpoint_exist(service_type) for service_type in self.service_types)

    # What an error means

    @staticmethod
    def is_not_found(error: BaseException) -> bool:
        return isinstance(error, sdk_errors.NotFoundException) or (
            isinstance(error, sdk_errors.HttpException) and error.status_code == 404
        )

    @staticmethod
    def is_conflict(error: BaseException) -> bool:
        return isinstance(error, sdk_errors.ConflictException) or (
            isinstance(error, sdk_errors.HttpException) and error.status_code == 409
        )

    @staticmethod
    def is_over_limit(error: BaseException) -> bool:
        return isinstance(error, sdk_errors.HttpException) and error.status_code in (413, 429)

    @staticmethod
    def is_bad_request(error: BaseException) -> bool:
        return isinstance(error, sdk_errors.BadRequestException) or (
            isinstance(error, sdk_errors.HttpException) and error.status_code == 400
        )

    def is_client_exception(self, error: BaseException) -> bool:
        return isinstance(error, (sdk_errors.SDKException, keystone_errors.ClientException))

    @contextlib.contextmanager
    def ignore_not_found(self) -> Iterator[None]:
        """Swallow a not-found (what is to be deleted is gone already)."""
        try:
            yield
        except Exception as error:
            if not self.is_not_found(error):
                raise

    @contextlib.contextmanager
    def ignore_conflict(self) -> Iterator[None]:
        try:
            yield
        except Exception as error:
            if not self.is_conflict(error):
                raise

    @contextlib.contextmanager
    def ignore_conflict_and_not_found(self) -> Iterator[None]:
        try:
            yield
        except Exception as error:
            if not (self.is_conflict(error) or self.is_not_found(error)):
                raise
