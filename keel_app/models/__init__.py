"""Heat's sixteen tables as SQLAlchemy 2 models, and the db api that works on them."""

from keel_app.models.base import Base
from keel_app.models.event import Event
from keel_app.models.resource import Resource, ResourceData, ResourcePropertiesData
from keel_app.models.service import Service
from keel_app.models.snapshot import ResourceSnapshot, Snapshot
from keel_app.models.software import SoftwareConfig, SoftwareDeployment
from keel_app.models.stack import Stack, StackLock, StackTag, UserCreds
from keel_app.models.sync_point import SyncPoint
from keel_app.models.template import RawTemplate, RawTemplateFiles

metadata = Base.metadata

__all__ = [
    "Base",
    "Event",
    "RawTemplate",
    "RawTemplateFiles",
    "Resource",
    "ResourceData",
    "ResourcePropertiesData",
    "ResourceSnapshot",
    "Service",
    "Snapshot",
    "SoftwareConfig",
    "SoftwareDeployment",
    "Stack",
    "StackLock",
    "StackTag",
    "SyncPoint",
    "UserCreds",
    "metadata",
]
