"""[DEFAULT] metadata_put_timeout bounds the PUT of a server's deployments to its Swift
TempURL (POLL_TEMP_URL): a deployment's create does not wait on a TempURL that never
answers longer than the option says (Heat's default would hold it for 60 seconds)."""

from __future__ import annotations

import dataclasses
import socket
import time
from collections.abc import Iterator

import pytest

from keel_app.engine.service import software_configs, software_deployments
from keel_app.engine.service.server_metadata import METADATA_PUT_URL
from keel_app.models import Resource
from keel_app.models.resource import ResourceData
from tests.models.api import factories


@pytest.fixture
def silent_url() -> Iterator[str]:
    """A URL whose server takes connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1/AUTH_p/container/object"
    listener.close()


def test_the_metadata_put_gives_up_after_the_configured_timeout(
    context, settings, database, silent_url: str
) -> None:
    settings = dataclasses.replace(settings, metadata_put_timeout=0.5)
    config = software_configs.create_software_config(
        context, settings, database, None, name="c", group="script", config="echo hi"
    )
    stack = factories.stack(database)
    server = factories.resource(database, stack.id, physical_resource_id="srv", rsrc_metadata={})
    with database.transaction() as session:
        session.add(ResourceData(resource_id=server.id, key=METADATA_PUT_URL, value=silent_url))

    started = time.monotonic()
    software_deployments.create_software_deployment(
        context, settings, database, None, server_id="srv", config_id=config["id"]
    )

    assert time.monotonic() - started < 5
    metadata = factories.row(database, Resource, server.id).rsrc_metadata
    assert [deployed["id"] for deployed in metadata["deployments"]] == [config["id"]]
