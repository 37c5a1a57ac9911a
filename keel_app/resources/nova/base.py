"""What Heat's simple Nova types share: one API object, shown, deleted and found gone.

A type names its API collection (``os-keypairs``) and the key of one object in an answer
(``keypair``); its physical id is the id of that object (a key pair's name), ``show`` is
Nova's answer for it, and deleting it is one call whose not-found means already done.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine.resource import Resource

# What Heat's novaclient speaks unless a call asks for more (quotas, aggregates).
BASE_MICROVERSION = "2.1"


class NovaResource(Resource):
    default_client_name = "nova"
    # The API path of the collection and the key of one object in Nova's answers.
    api_path: str = ""
    api_key: str = ""

    def nova(self) -> Any:
        """The Nova client plugin (its ``request`` and look-ups)."""
        return self.client_plugin()

    def _show_resource(self) -> Any:
        return self.nova().request("GET", f"{self.api_path}/{self.resource_id}")[self.api_key]

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        with self.nova().ignore_not_found():
            self.nova().request("DELETE", f"{self.api_path}/{self.resource_id}")
