"""The global environment: plugin classes from entry points, then the operator's files.

Plugins are found through entry points only (``pyproject.toml``):

- ``openkeel.resources``: resource type name -> resource plugin class;
- ``openkeel.event_sinks``: event sink type -> class built with the sink's arguments;
- ``openkeel.template_resources``: one entry, the class template resources instantiate
  (it also generates their per-template classes and fetches their templates).

Then every file of the environment directory (Heat's ``environment_dir`` option) is
read as an environment, in name order. The directories are always passed in: the
engine reads no configuration. What Heat installs in ``/etc/heat`` is package data
here: the environment files (``PACKAGED_ENVIRONMENT_DIR``) and the templates they map
types to (``PACKAGED_TEMPLATE_DIR``). A process reads the operator's directories
(``environment_dir``, ``template_dir``) when they exist, and the packaged copies
otherwise: the shipped files name ``file:///etc/heat/templates/...``, and those URLs
are then read from the packaged templates.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

from keel_app.engine.environment import format as env_format
from keel_app.engine.environment.environment import Environment

LOG = logging.getLogger(__name__)

RESOURCES_GROUP = "openkeel.resources"
EVENT_SINKS_GROUP = "openkeel.event_sinks"
TEMPLATE_RESOURCES_GROUP = "openkeel.template_resources"

PACKAGED_ENVIRONMENT_DIR = Path(__file__).parent / "data" / "environment.d"
PACKAGED_TEMPLATE_DIR = Path(__file__).parent / "data" / "templates"
# Heat's defaults for environment_dir and template_dir; the shipped files name the latter.
HEAT_ENVIRONMENT_DIR = "/etc/heat/environment.d"
HEAT_TEMPLATE_DIR = "/etc/heat/templates"

_global_environment: Environment | None = None
_built_from: tuple[str, str] | None = None


def read_global_environment(env: Environment, environment_dir: str | Path) -> None:
    """Load every file of ``environment_dir`` into ``env``, in name order.

    A file that cannot be read or parsed is logged and skipped; hidden files are not
    read (Heat reads ``<dir>/*``).
    """
    directory = Path(environment_dir)
    # Like Heat's glob, a missing directory is simply an empty one.
    if not directory.is_dir():
        return
    try:
        paths = sorted(path for path in directory.iterdir() if not path.name.startswith("."))
    except OSError:
        LOG.exception("Failed to read %s", directory)
        return
    for path in paths:
        try:
            LOG.info("Loading %s", path)
            body = env_format.parse(path.read_text())
            env_format.default_for_missing(body)
            env.load(body)
        except ValueError:
            LOG.exception("Failed to parse %s", path)
        except OSError:
            LOG.exception("Failed to read %s", path)


def _entry_point_plugins(group: str) -> list[tuple[str, Any]]:
    """(name, loaded object) of a group's entry points; one that fails to load is skipped."""
    plugins = []
    for entry_point in sorted(metadata.entry_points(group=group), key=lambda ep: ep.name):
        try:
            plugins.append((entry_point.name, entry_point.load()))
        except Exception:
            LOG.exception("Failed to load %s plugin %s", group, entry_point.name)
    return plugins


def build_global_environment(
    environment_dir: str | Path | None = PACKAGED_ENVIRONMENT_DIR,
    resource_classes: Iterable[tuple[str, Any]] | None = None,
    event_sink_classes: Iterable[tuple[str, Any]] | None = None,
    template_resource_class: Any = None,
    template_dir: str | Path = HEAT_TEMPLATE_DIR,
) -> Environment:
    """A new global environment.

    Each plugin kind not given is read from its entry point group;
    ``environment_dir=None`` reads no environment files. Templates that file URLs place
    in ``template_dir`` (or in Heat's default one) are read from the packaged copies
    when that directory does not exist.
    """
    env = Environment({}, user_env=False)
    for named_dir in {str(template_dir), HEAT_TEMPLATE_DIR}:
        if not Path(named_dir).is_dir():
            env.registry.read_templates_from(named_dir, PACKAGED_TEMPLATE_DIR)
    if event_sink_classes is None:
        event_sink_classes = _entry_point_plugins(EVENT_SINKS_GROUP)
    for name, sink_class in event_sink_classes:
        env.register_event_sink(name, sink_class)
    if resource_classes is None:
        resource_classes = _entry_point_plugins(RESOURCES_GROUP)
    for name, resource_class in resource_classes:
        env.register_class(name, resource_class)
    if template_resource_class is None:
        found = _entry_point_plugins(TEMPLATE_RESOURCES_GROUP)
        template_resource_class = found[0][1] if found else None
    if template_resource_class is not None:
        env.register_template_resource_class(template_resource_class)
    if environment_dir is not None:
        read_global_environment(env, environment_dir)
    return env


def initialise(
    environment_dir: str | Path = HEAT_ENVIRONMENT_DIR, template_dir: str | Path = HEAT_TEMPLATE_DIR
) -> Environment:
    """The process's global environment, from heat.conf's ``environment_dir`` and
    ``template_dir``: built on first use, and again when the directories change."""
    global _global_environment, _built_from
    wanted = (str(environment_dir), str(template_dir))
    if _global_environment is None or _built_from != wanted:
        # Heat's glob finds nothing in a missing directory; here the shipped files stand in.
        read_dir = environment_dir if Path(environment_dir).is_dir() else PACKAGED_ENVIRONMENT_DIR
        _global_environment = build_global_environment(read_dir, template_dir=template_dir)
        _global_environment.registry.log_resource_info(show_all=True)
        _built_from = wanted
    return _global_environment


def global_env() -> Environment:
    """The process's global environment, built from Heat's default directories if not yet
    built (the packaged copies where they do not exist)."""
    if _global_environment is not None:
        return _global_environment
    return initialise()
