"""The ``Tags`` property of the EC2 types: a list of Key/Value maps whose items Heat marks
as not implemented, so that a template giving any tag fails validation ("Property 0 not
implemented yet") and an empty list is all that passes."""

from __future__ import annotations

from keel_app.engine.properties import Schema

TAG_KEYS = (TAG_KEY, TAG_VALUE) = ("Key", "Value")


def tags_schema(description: str | None) -> Schema:
    """The Tags list, each tag described by ``description``."""
    return Schema(
        Schema.LIST,
        schema=Schema(
            Schema.MAP,
            description,
            schema={
                TAG_KEY: Schema(Schema.STRING, required=True),
                TAG_VALUE: Schema(Schema.STRING, required=True),
            },
            implemented=False,
        ),
    )
