"""Resource properties: typed schemata, coercion and validation of a resource's values.

``Schema`` declares one property, ``Properties`` reads and validates a resource's
values through a schema mapping, and ``translation`` moves deprecated property values
to their replacements.
"""

from keel_app.engine.properties.properties import Properties
from keel_app.engine.properties.property import Property
from keel_app.engine.properties.schema import Schema, schemata
from keel_app.engine.properties.translation import Translation, TranslationRule

__all__ = ["Properties", "Property", "Schema", "Translation", "TranslationRule", "schemata"]
