"""The resource plugin framework: the ``Resource`` base class and what plugins declare.

Plugins (``keel_app.resources``) are registered under the entry point group
``openkeel.resources`` and reach stacks through the global environment. This package
holds the declarations and the validation of a resource definition, and the life cycle
on the database (``lifecycle``: rows, lock, states, events, resource_data) with the
rules of updates (``update``); convergence drives the steps.
"""

from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.resource.attributes import Attributes
from keel_app.engine.resource.attributes import Schema as AttributeSchema
from keel_app.engine.resource.base import Resource
from keel_app.engine.resource.schema_output import resource_schema

__all__ = ["AttributeSchema", "Attributes", "Resource", "SupportStatus", "resource_schema"]
