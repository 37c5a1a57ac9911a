"""OS::Heat::TestResource: a resource for testing Heat itself, with knobs for every outcome.

It stores the ``value`` given and can be told to fail, to wait (per action), to be
replaced on update, to poll a client, and to delay constraint checks and attribute
reads. Declarations only: the life-cycle steps arrive with the engine.
"""

from __future__ import annotations

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource

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
