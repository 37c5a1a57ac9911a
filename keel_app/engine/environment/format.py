"""Environment text to data: YAML read like a template, then its sections checked.

Only the section names are checked here; what each section holds is judged later,
by the environment and its registry, exactly where Heat judges it.
"""

from __future__ import annotations

from typing import Any

import yaml

from keel_app.engine.template.format import TemplateLoader

SECTIONS = (
    PARAMETERS,
    RESOURCE_REGISTRY,
    PARAMETER_DEFAULTS,
    ENCRYPTED_PARAM_NAMES,
    EVENT_SINKS,
    PARAMETER_MERGE_STRATEGIES,
) = (
    "parameters",
    "resource_registry",
    "parameter_defaults",
    "encrypted_param_names",
    "event_sinks",
    "parameter_merge_strategies",
)

LIST_SECTIONS = (ENCRYPTED_PARAM_NAMES, EVENT_SINKS)


def parse(environment_text: str | bytes | None) -> dict[Any, Any]:
    """Read an environment file; an empty one is an empty environment."""
    if environment_text is None:
        return {}
    try:
        environment = yaml.load(environment_text, Loader=TemplateLoader)
    except yaml.YAMLError:
        # The C loader's messages do not quote the snippet; the pure-Python one does.
        try:
            environment = yaml.load(environment_text, Loader=yaml.SafeLoader)
        except yaml.YAMLError as error:
            raise ValueError(error) from None
    else:
        if environment is None:
            environment = {}
    if not isinstance(environment, dict):
        raise ValueError("The environment is not a valid YAML mapping data type.")
    return validate(environment)


def validate(environment: dict[Any, Any]) -> dict[Any, Any]:
    """Refuse unknown and empty sections; return the environment unchanged."""
    for section in environment:
        if section not in SECTIONS:
            raise ValueError(f'environment has wrong section "{section}"')
        if environment[section] is None:
            raise ValueError(f'environment has empty section "{section}"')
    return environment


def default_for_missing(environment: dict[Any, Any]) -> None:
    """Add every missing section (except merge strategies) as an empty one, in place."""
    for section in SECTIONS:
        if section in environment or section == PARAMETER_MERGE_STRATEGIES:
            continue
        environment[section] = [] if section in LIST_SECTIONS else {}
