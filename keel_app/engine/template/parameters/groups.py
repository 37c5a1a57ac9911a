"""The ``parameter_groups`` section: labelled lists of parameters for user interfaces.

Each group needs a ``parameters`` list; a parameter belongs to one group at most and
must be one the template (or a pseudo parameter) defines.
"""

from __future__ import annotations

import logging
from typing import Any

from keel_app.common.exception import StackValidationFailed

LOG = logging.getLogger(__name__)

PARAMETER_GROUPS = "parameter_groups"
PARAMETERS = "parameters"
ERROR = "Parameter Groups error"


class ParameterGroups:
    """The parameter groups a template declares."""

    def __init__(self, tmpl: Any) -> None:
        self.tmpl = tmpl
        self.parameters = tmpl.parameters(None, {}, param_defaults={})
        self.parameter_names: list[str] = list(self.parameters) if self.parameters else []
        self.parameter_groups = tmpl.get(PARAMETER_GROUPS)

    def validate(self) -> None:
        LOG.debug("Validating Parameter Groups: %s", ", ".join(self.parameter_names))
        if not self.parameter_groups:
            return
        if not isinstance(self.parameter_groups, list):
            raise StackValidationFailed(
                error=ERROR,
                path=[PARAMETER_GROUPS],
                message=f"The {PARAMETER_GROUPS} should be a list.",
            )
        grouped: list[Any] = []
        for group in self.parameter_groups:
            path = [PARAMETER_GROUPS, group.get("label", "")]
            members = group.get(PARAMETERS)
            if members is None:
                raise StackValidationFailed(
                    error=ERROR,
                    path=path,
                    message=f"The {PARAMETERS} must be provided for each parameter group.",
                )
            if not isinstance(members, list):
                raise StackValidationFailed(
                    error=ERROR,
                    path=path,
                    message=f"The {PARAMETERS} of parameter group should be a list.",
                )
            for name in members:
                if name in grouped:
                    raise StackValidationFailed(
                        error=ERROR,
                        path=path,
                        message=f"The {name} parameter must be assigned to one parameter "
                        "group only.",
                    )
                grouped.append(name)
                if name not in self.parameter_names:
                    raise StackValidationFailed(
                        error=ERROR,
                        path=path,
                        message=f"The grouped parameter {name} does not reference a valid "
                        "parameter.",
                    )
