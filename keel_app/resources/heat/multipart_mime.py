"""OS::Heat::MultipartMime: software configs assembled into one multi-part MIME message.

Parts are inline text or references to other configs (whose multi-part messages are
merged in). Uses Heat's own API, so it needs the orchestration service in the caller's
catalog, as in Heat. Declarations only: assembling and storing the message are
life-cycle steps and arrive with the engine.
"""

from __future__ import annotations

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.heat.software_config import SoftwareConfig


class MultipartMime(SoftwareConfig):
    """A cloud-init multi-part message built from parts and other configs."""

    support_status = SupportStatus(version="2014.1")
    type_description = """\
Assembles a collection of software configurations as a multi-part mime.

Parts in the message can be populated with inline configuration or
references to other config resources. If the referenced resource is itself
a valid multi-part mime message, that will be broken into parts and
those parts appended to this message.

The resulting multi-part mime message will be stored by the configs API
and can be referenced in properties such as OS::Nova::Server user_data.

This resource is generally used to build a list of cloud-init
configuration elements including scripts and cloud-config. Since
cloud-init is boot-only configuration, any changes to the definition
will result in the replacement of all servers which reference it.
"""

    PROPERTIES = (PARTS, CONFIG, FILENAME, TYPE, SUBTYPE, GROUP) = (
        "parts",
        "config",
        "filename",
        "type",
        "subtype",
        "group",
    )
    TYPES = (TEXT, MULTIPART) = ("text", "multipart")

    properties_schema = {
        GROUP: Schema(
            Schema.STRING,
            "Namespace to group this multi-part configs by when delivered to a server. This "
            "may imply what configuration tool is going to perform the configuration.",
            support_status=SupportStatus(version="14.0.0"),
            default="Heat::Ungrouped",
        ),
        PARTS: Schema(
            Schema.LIST,
            "Parts belonging to this message.",
            default=[],
            schema=Schema(
                Schema.MAP,
                schema={
                    CONFIG: Schema(
                        Schema.STRING,
                        "Content of part to attach, either inline or by referencing the ID of "
                        "another software config resource.",
                        required=True,
                    ),
                    FILENAME: Schema(Schema.STRING, "Optional filename to associate with part."),
                    TYPE: Schema(
                        Schema.STRING,
                        "Whether the part content is text or multipart.",
                        default=TEXT,
                        constraints=[constraints.AllowedValues(TYPES)],
                    ),
                    SUBTYPE: Schema(Schema.STRING, "Optional subtype to specify with the type."),
                },
            ),
        ),
    }
