"""OS::Heat::MultipartMime: software configs assembled into one multi-part MIME message.

Parts are inline text or references to other configs (whose multi-part messages are
merged in). Uses Heat's own API, so it needs the orchestration service in the caller's
catalog, as in Heat. A part whose ``config`` looks like a UUID is replaced by the config
stored under that id (left as it is when there is none); a part of type ``multipart``
contributes its sub-parts. The message, with its random boundary, is stored as the
config of group ``group``.
"""

from __future__ import annotations

import email
import os
import uuid
from email.mime import multipart, text
from typing import Any

from keel_app.common.exception import NotFound
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

    message: str | None = None

    def handle_create(self) -> None:
        self.store_config(config=self.get_message(), group=self.properties[self.GROUP])

    def get_message(self) -> str:
        if self.message:
            return self.message
        subparts: list[Any] = []
        for item in self.properties[self.PARTS]:
            part = config = item.get(self.CONFIG)
            if _is_uuid_like(config):
                stored = self._stored(config)
                if stored is not None:
                    part = stored[self.CONFIG]
            if item.get(self.TYPE, self.TEXT) == self.MULTIPART:
                _append_multiparts(subparts, part)
            else:
                _append_part(
                    subparts, part, item.get(self.SUBTYPE, ""), item.get(self.FILENAME, "")
                )
        self.message = multipart.MIMEMultipart(_subparts=subparts).as_string()
        return self.message

    def _stored(self, config_id: str) -> Any:
        try:
            return self._call("show_software_config", config_id=config_id)
        except NotFound:
            return None


def _is_uuid_like(value: Any) -> bool:
    """oslo's rule: a UUID in any of its spellings (braces, URN prefix, case, dashes)."""
    try:
        spelled = value.replace("urn:", "").replace("uuid:", "").strip("{}").replace("-", "")
        return uuid.UUID(value).hex == spelled.lower()
    except (TypeError, ValueError, AttributeError):
        return False


def _append_multiparts(subparts: list[Any], message: Any) -> None:
    parsed = email.message_from_string(message)
    if not parsed or not parsed.is_multipart():
        return
    for part in parsed.get_payload():
        _append_part(subparts, part.get_payload(), part.get_content_subtype(), part.get_filename())


def _append_part(subparts: list[Any], part: Any, subtype: Any, filename: Any) -> None:
    if not subtype and filename:
        subtype = os.path.splitext(filename)[0]
    subparts.append(_create_message(part, subtype, filename))


def _create_message(part: Any, subtype: Any, filename: Any) -> Any:
    charset = "us-ascii"
    try:
        part.encode(charset)
    except UnicodeEncodeError:
        charset = "utf-8"
    if subtype:
        message = text.MIMEText(part, _subtype=subtype, _charset=charset)
    else:
        message = text.MIMEText(part, _charset=charset)
    if filename:
        message.add_header("Content-Disposition", "attachment", filename=filename)
    return message
