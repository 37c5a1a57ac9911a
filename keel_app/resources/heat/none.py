"""OS::Heat::None: a resource that does nothing and accepts anything.

It stands in for any other type through the resource registry, so it takes every
property without a schema and answers every attribute with None. Creating it only
records a physical id (a random UUID) and marks it a placeholder.
"""

from __future__ import annotations

import uuid
from typing import Any

from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Properties
from keel_app.engine.resource import Resource


class NoneResource(Resource):
    """Accepts any properties, does nothing, is never replaced on update."""

    acts_locally = True

    support_status = SupportStatus(version="5.0.0")
    properties_schema: dict[str, Any] = {}
    attributes_schema: dict[str, Any] = {}
    type_description = (
        "Enables easily disabling certain resources via the resource_registry.\n\n"
        "It does nothing, but can effectively stub out any other resource because it\n"
        "will accept any properties and return any attribute (as None). Note this\n"
        "resource always does nothing on update (e.g it is not replaced even if a\n"
        "change to the stubbed resource properties would cause replacement)."
    )

    IS_PLACEHOLDER = "is_placeholder"

    def reparse(self, client_resolve: bool = True) -> None:
        # Whatever the template says, there are no properties to read or check.
        self.properties = Properties(schema={}, data={})
        self.translate_properties(self.properties, client_resolve)

    def validate(self) -> None:
        return None

    def get_attribute(self, key: str, *path: Any) -> None:
        return None

    def _needs_update(self, *arguments: Any) -> bool:
        # Whatever changed, a stand-in has nothing to update.
        return False

    def handle_create(self) -> None:
        self.resource_id_set(str(uuid.uuid4()))
        # Marks a resource that stands in for another type: deleting it deletes nothing.
        self.data_set(self.IS_PLACEHOLDER, "True")

    def handle_delete(self) -> Any:
        return self.resource_id
