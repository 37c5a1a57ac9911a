"""What Nova's, Neutron's and Cinder's quota types share: a project named by name or id,
at least one limit given, and every limit the definition has sent in one request on
create and on update (each type's ``_set_quota``)."""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule


def limit_schema(description: str, support_status: SupportStatus | None = None) -> Schema:
    """One limit of a quota type: -1 (no limit) or more, changed in place."""
    return Schema(
        Schema.INTEGER,
        description,
        constraints=[constraints.Range(min=-1)],
        update_allowed=True,
        **({"support_status": support_status} if support_status else {}),
    )


class ProjectQuota:
    """Mixed into a quota type before its service's resource base."""

    PROJECT = "project"

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        clients = getattr(self.context, "clients", None)  # type: ignore[attr-defined]
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.PROJECT],
                client_plugin=None if clients is None else clients.client_plugin("keystone"),
                finder="get_project_id",
            )
        ]

    def unspecified_limits(self) -> tuple[str, ...]:
        """The limits Heat's refusal of a quota without any names, in its order."""
        return tuple(sorted(set(self.PROPERTIES) - {self.PROJECT}))  # type: ignore[attr-defined]

    def validate(self) -> Any:
        result = super().validate()  # type: ignore[misc]
        properties = self.properties  # type: ignore[attr-defined]
        if sum(1 for value in properties.values() if value is not None) <= 1:
            raise exception.PropertyUnspecifiedError(*self.unspecified_limits())
        return result

    def handle_create(self) -> None:
        self._set_quota(self.properties)  # type: ignore[attr-defined]
        self.resource_id_set(self.physical_resource_name())  # type: ignore[attr-defined]

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        # All the limits again, as the new definition has them: one request sets them all.
        self._set_quota(json_snippet.properties(self.properties_schema, self.context))  # type: ignore[attr-defined]

    def _set_quota(self, properties: Any) -> None:
        raise NotImplementedError
