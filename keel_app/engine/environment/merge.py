"""Merging ``environment_files`` into a stack's environment, in the order given.

Each file is parsed as an environment; its ``parameters`` and ``parameter_defaults``
are merged value by value under a strategy (overwrite, merge, deep_merge) chosen per
parameter by the file's ``parameter_merge_strategies``; its other sections are merged
key by key, shallowly. Merging a parameter follows its type in the template: strings
are joined, numbers added, lists and comma-delimited lists extended, maps merged.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from keel_app.common.exception import ConflictingMergeStrategyForParam, InvalidMergeStrategyForParam
from keel_app.engine.environment import format as env_format

LOG = logging.getLogger(__name__)

ALLOWED_PARAM_MERGE_STRATEGIES = (OVERWRITE, MERGE, DEEP_MERGE) = (
    "overwrite",
    "merge",
    "deep_merge",
)
DEFAULT_STRATEGY_KEY = "default"


def get_param_merge_strategy(
    merge_strategies: Mapping[Any, Any] | None,
    param_key: Any,
    available_strategies: Mapping[Any, Any] | None = None,
) -> Any:
    """The file's strategy for a parameter, else the one already chosen, else the default.

    An unknown strategy name falls back to the file's default, which is not checked.
    """
    if not available_strategies:
        available_strategies = {}
    if merge_strategies is None:
        return OVERWRITE
    file_default = merge_strategies.get(DEFAULT_STRATEGY_KEY, OVERWRITE)
    strategy = merge_strategies.get(param_key, available_strategies.get(param_key, file_default))
    if strategy in ALLOWED_PARAM_MERGE_STRATEGIES:
        return strategy
    return file_default


def merge_list(old: Any, new: Any) -> Any:
    """Extend a list, or join comma-delimited lists written as strings."""
    if not old:
        return new
    if isinstance(new, list):
        old.extend(new)
        return old
    return ",".join([old, new])


def merge_map(old: Any, new: Any, deep_merge: bool = False) -> Any:
    """Merge ``new`` into ``old`` (in place); None values in ``new`` change nothing."""
    if not old:
        return new
    for key, value in new.items():
        if value is None:
            continue
        if not deep_merge:
            old[key] = value
        elif isinstance(value, Mapping):
            old_value = old.get(key)
            old[key] = merge_map(old_value, value, deep_merge) if old_value else value
        elif isinstance(value, Sequence) and not isinstance(value, str):
            old_value = old.get(key)
            old[key] = merge_list(old_value, value) if old_value else value
        elif isinstance(value, str):
            old[key] = "".join([old.get(key, ""), value])
        else:
            old[key] = value
    return old


def parse_param(value: Any, schema: Any) -> Any:
    """A value ready to be merged: maps decoded from JSON, others must be sequences."""
    try:
        if schema.type == schema.MAP:
            if not isinstance(value, str):
                value = json.dumps(value)
            if value:
                return json.loads(value)
        elif not isinstance(value, Sequence):
            raise ValueError()
    except (ValueError, TypeError) as error:
        raise ValueError(f"Invalid parameter in environment {error}.") from None
    return value


def _merge_one(old: dict[Any, Any], key: Any, value: Any, schema: Any, deep_merge: bool) -> None:
    kind = schema.type
    value = parse_param(value, schema)
    if kind == schema.MAP:
        old[key] = merge_map(old.get(key, {}), value, deep_merge)
    elif kind == schema.LIST:
        old[key] = merge_list(old.get(key), value)
    elif kind == schema.STRING:
        old[key] = "".join([old.get(key, ""), value])
    elif kind == schema.NUMBER:
        old[key] = old.get(key, 0) + value
    else:
        # Heat names "merge" here whichever of merge and deep_merge was asked for.
        raise InvalidMergeStrategyForParam(strategy=MERGE, param=key)


def merge_parameters(
    old: dict[Any, Any],
    new: dict[Any, Any],
    param_schemata: Mapping[Any, Any],
    strategies_in_file: Mapping[Any, Any] | None,
    available_strategies: dict[Any, Any],
    env_file: str,
) -> dict[Any, Any]:
    """Merge one file's parameter values into ``old``; parameters unknown to the template
    are left out (unless ``old`` is empty, when ``new`` is taken whole).

    A parameter keeps the strategy the first file that set it chose; another file asking
    for a different one is an error.
    """
    for key, value in new.items():
        if key not in param_schemata or value is None:
            continue
        strategy = get_param_merge_strategy(strategies_in_file, key, available_strategies)
        if key not in available_strategies:
            available_strategies[key] = strategy
        elif strategy != available_strategies[key]:
            raise ConflictingMergeStrategyForParam(strategy=strategy, param=key, env_file=env_file)

    if not old:
        return new

    for key, value in new.items():
        if key not in param_schemata or value is None:
            continue
        strategy = available_strategies[key]
        if strategy == DEEP_MERGE:
            LOG.debug("Deep merging parameter %s", key)
            _merge_one(old, key, value, param_schemata[key], deep_merge=True)
        elif strategy == MERGE:
            LOG.debug("Merging parameter %s", key)
            _merge_one(old, key, value, param_schemata[key], deep_merge=False)
        else:
            LOG.debug("Overwriting parameter %s", key)
            old[key] = value
    return old


def merge_environments(
    environment_files: Sequence[str] | None,
    files: Mapping[str, Any],
    params: dict[str, Any],
    param_schemata: Mapping[Any, Any],
) -> None:
    """Merge the named environment files (read from ``files``), in order, into ``params``.

    ``params`` is the stack's environment document with every section present (see
    ``format.default_for_missing``); it is changed in place.
    """
    if not environment_files:
        return
    available_strategies: dict[Any, Any] = {}
    for filename in environment_files:
        parsed = env_format.parse(files[filename])
        strategies_in_file = parsed.pop(env_format.PARAMETER_MERGE_STRATEGIES, {})
        for section, value in parsed.items():
            if not value:
                continue
            if section in (env_format.PARAMETERS, env_format.PARAMETER_DEFAULTS):
                params[section] = merge_parameters(
                    params[section],
                    value,
                    param_schemata,
                    strategies_in_file,
                    available_strategies,
                    filename,
                )
            else:
                params[section] = merge_map(params[section], value)
