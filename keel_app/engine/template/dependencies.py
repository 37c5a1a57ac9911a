"""Which resource needs which: from depends_on, get_resource and get_attr (and Ref, GetAtt).

The graph is keyed by resource name; the engine can ``translate`` it to its own
resource objects. Iterating it in order raises Heat's circular dependency error.
"""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import InvalidTemplateReference
from keel_app.engine.graph import Dependencies


def resource_dependencies(stack: Any) -> Dependencies:
    """The dependency graph of the enabled resources of a ``StackDefinition``."""
    enabled = stack.enabled_rsrc_names()
    every_name = stack.all_rsrc_names()
    graph = Dependencies()
    for name in stack.t.resource_definitions(stack):
        definition = stack.resource_definition(name)
        for required in sorted(definition.required_resource_names()):
            if required not in enabled:
                if required in every_name:
                    # Disabled by a condition: depending on it is allowed and means nothing.
                    continue
                raise InvalidTemplateReference(resource=required, key=name)
            graph += (name, required)
        graph += (name, None)
    return graph
