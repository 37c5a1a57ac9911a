"""Loading heat.conf: Heat's option names, groups and defaults on a fresh ConfigOpts.

OpenKeel never reads a global configuration deep inside the engine: the edges call
``load()`` once and hand the settings down.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from pathlib import Path

from oslo_config import cfg

from keel_app.common import opts

PROJECT = "heat"
STATE_DIR_ENV = "KEEL_STATE_DIR"
SQLITE_FILE_NAME = "openkeel.sqlite"


def build_conf() -> cfg.ConfigOpts:
    """A ConfigOpts with every option OpenKeel understands registered, nothing parsed yet."""
    conf = cfg.ConfigOpts()
    for module_name in opts.MODULES:
        module = importlib.import_module(module_name)
        for group, options in module.GROUPS:
            if group == "DEFAULT":
                conf.register_opts(options)
            else:
                conf.register_opts(options, group=group)
    return conf


def load(
    argv: Sequence[str] | None = None,
    *,
    default_config_files: Sequence[str] | None = None,
    conf: cfg.ConfigOpts | None = None,
) -> cfg.ConfigOpts:
    """Parse ``--config-file``/``--config-dir`` arguments like Heat's services do.

    With no argument and no default file found, every option keeps its default: the
    embedded OpenKeel (SQLite in the state directory).
    """
    conf = conf if conf is not None else build_conf()
    conf(
        list(argv or []),
        project=PROJECT,
        default_config_files=list(default_config_files)
        if default_config_files is not None
        else None,
        validate_default_values=True,
    )
    return conf


def state_dir() -> Path:
    """Where the embedded default keeps its files: ``$KEEL_STATE_DIR`` or the XDG data dir."""
    configured = os.environ.get(STATE_DIR_ENV)
    if configured:
        return Path(configured).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "openkeel"


def database_url(conf: cfg.ConfigOpts) -> str:
    """``[database]/connection``, or the embedded SQLite file, its directory created."""
    if conf.database.connection:
        return str(conf.database.connection)
    directory = state_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / SQLITE_FILE_NAME}"
