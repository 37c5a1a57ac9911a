"""OS::Heat::TestResource: a resource for testing Heat itself, with knobs for every outcome.

It stores the ``value`` given and can be told to fail, to wait (per action), to be
replaced on update, to poll a client, and to delay constraint checks and attribute
reads. Waiting never sleeps: the step's token carries when it started and the engine
asks again later, where Heat sleeps a second between polls that have no client to call
(``attr_wait_secs`` and the ``test_constr`` delay are not honoured either: reading an
attribute or checking a constraint never waits). The client named by ``client_name``
is asked for the ``entity_name`` with the stored value (or the physical id) on every
poll that is not the last, and whatever it answers or raises is ignored, as in Heat.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource

LOG = logging.getLogger(__name__)

ACTION_TIMES = (CREATE_WAIT_SECS, UPDATE_WAIT_SECS, DELETE_WAIT_SECS) = (
    "create",
    "update",
    "delete",
)


class TestResource(Resource):
    """Stores a string; every step can be made to wait, fail or force a replacement."""

    # Not a test case, whatever pytest's name rules think.
    __test__ = False

    support_status = SupportStatus(version="5.0.0")
    type_description = """\
A resource which stores the string value that was provided.

This resource is to be used only for testing.
It has control knobs such as 'update_replace', 'fail', 'wait_secs'.
"""

    PROPERTIES = (
        VALUE,
        UPDATE_REPLACE,
        FAIL,
        CLIENT_NAME,
        ENTITY_NAME,
        WAIT_SECS,
        ACTION_WAIT_SECS,
        ATTR_WAIT_SECS,
        CONSTRAINT_PROP_SECS,
        UPDATE_REPLACE_VALUE,
    ) = (
        "value",
        "update_replace",
        "fail",
        "client_name",
        "entity_name",
        "wait_secs",
        "action_wait_secs",
        "attr_wait_secs",
        "constraint_prop_secs",
        "update_replace_value",
    )

    ATTRIBUTES = (OUTPUT,) = ("output",)

    properties_schema = {
        CONSTRAINT_PROP_SECS: Schema(
            Schema.NUMBER,
            "Number value for delay during resolve constraint.",
            default=0,
            update_allowed=True,
            constraints=[constraints.CustomConstraint("test_constr")],
            support_status=SupportStatus(version="6.0.0"),
        ),
        ATTR_WAIT_SECS: Schema(
            Schema.NUMBER,
            "Number value for timeout during resolving output value.",
            default=0,
            update_allowed=True,
            support_status=SupportStatus(version="6.0.0"),
        ),
        VALUE: Schema(
            Schema.STRING,
            "The input string to be stored.",
            default="test_string",
            update_allowed=True,
        ),
        UPDATE_REPLACE_VALUE: Schema(
            Schema.STRING,
            "Some value that can be stored but can not be updated.",
            support_status=SupportStatus(version="7.0.0"),
        ),
        FAIL: Schema(
            Schema.BOOLEAN,
            "Value which can be set to fail the resource operation to test failure scenarios.",
            update_allowed=True,
            default=False,
        ),
        UPDATE_REPLACE: Schema(
            Schema.BOOLEAN,
            "Value which can be set to trigger update replace for the particular resource.",
            update_allowed=True,
            default=False,
        ),
        WAIT_SECS: Schema(
            Schema.NUMBER,
            "Seconds to wait after an action (-1 is infinite).",
            update_allowed=True,
            default=0,
        ),
        ACTION_WAIT_SECS: Schema(
            Schema.MAP,
            "Options for simulating waiting.",
            update_allowed=True,
            schema={
                CREATE_WAIT_SECS: Schema(
                    Schema.NUMBER,
                    "Seconds to wait after a create. Defaults to the global wait_secs.",
                    update_allowed=True,
                ),
                UPDATE_WAIT_SECS: Schema(
                    Schema.NUMBER,
                    "Seconds to wait after an update. Defaults to the global wait_secs.",
                    update_allowed=True,
                ),
                DELETE_WAIT_SECS: Schema(
                    Schema.NUMBER,
                    "Seconds to wait after a delete. Defaults to the global wait_secs.",
                    update_allowed=True,
                ),
            },
        ),
        CLIENT_NAME: Schema(
            Schema.STRING,
            "Client to poll.",
            default="",
            update_allowed=True,
        ),
        ENTITY_NAME: Schema(
            Schema.STRING,
            "Client entity to poll.",
            default="",
            update_allowed=True,
        ),
    }

    attributes_schema = {
        OUTPUT: AttributeSchema(
            "The string that was stored. This value is also available by referencing the resource.",
            cache_mode=AttributeSchema.CACHE_NONE,
        ),
    }

    def _wait_secs(self) -> Any:
        seconds = None
        if self.properties[self.ACTION_WAIT_SECS]:
            seconds = self.properties[self.ACTION_WAIT_SECS][self.action.lower()]
        if seconds is None:
            seconds = self.properties[self.WAIT_SECS]
        return seconds

    def _token(self, wait_secs: Any) -> list[Any]:
        # JSON-able, as it travels in the message that asks again.
        return [self.now().isoformat(), wait_secs]

    def handle_create(self) -> list[Any]:
        if not self.properties.get(self.FAIL):
            self.data_set("value", self.properties.get(self.VALUE), redact=False)
            self.resource_id_set(self.physical_resource_name())
        return self._token(self._wait_secs())

    def needs_replace_with_prop_diff(
        self, changed_properties_set: Any, after_props: Any, before_props: Any
    ) -> Any:
        if self.VALUE in changed_properties_set:
            return after_props[self.UPDATE_REPLACE]
        return None

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> list[Any]:
        self.properties = json_snippet.properties(self.properties_schema, self.context)
        value = prop_diff.get(self.VALUE)
        if value:
            if not self.properties[self.FAIL]:
                self.data_set("value", value, redact=False)
            return self._token(self._wait_secs())
        return self._token(0)

    def handle_delete(self) -> list[Any]:
        return self._token(self._wait_secs())

    def check_create_complete(self, token: list[Any]) -> bool:
        return self._check_status_complete(*token)

    def check_update_complete(self, token: list[Any]) -> bool:
        return self._check_status_complete(*token)

    def check_delete_complete(self, token: list[Any]) -> bool:
        return self._check_status_complete(*token)

    def _check_status_complete(self, started_at: str, wait_secs: Any) -> bool:
        waited = self.now() - datetime.datetime.fromisoformat(started_at)
        # A negative wait never ends.
        if wait_secs >= 0 and waited > datetime.timedelta(seconds=wait_secs):
            if self.properties[self.FAIL] and self.action != self.DELETE:
                raise ValueError(f"Test Resource failed {self.name}")
            return True
        self._simulated_effort()
        return False

    def _simulated_effort(self) -> None:
        client_name = self.properties[self.CLIENT_NAME]
        entity_name = self.properties[self.ENTITY_NAME]
        clients = getattr(self.context, "clients", None)
        if not (client_name and entity_name):
            return
        # The physical id may be set to a real resource's id through the value.
        entity_id = self.data().get("value") or self.resource_id
        try:
            if clients is None:
                raise LookupError(f"no {client_name} client")
            getattr(clients.client(client_name), entity_name).get(entity_id)
        except Exception as error:
            LOG.debug("%s.%s(%s) %s", client_name, entity_name, entity_id, error)

    def handle_check(self) -> None:
        if not self.resource_id:
            raise Exception("Resource not created")

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.OUTPUT:
            return self.data().get("value")
        return None
