"""A configuration object of its own for a library that registers its options itself.

oslo.policy and keystonemiddleware register their options on the ConfigOpts they are
given; OpenKeel's heat.conf object already declares the same names (with our own help
texts), and registering them twice would clash. Such a library gets a fresh ConfigOpts
parsed from the very files heat.conf was read from.
"""

from __future__ import annotations

from oslo_config import cfg

from keel_app.common.config import PROJECT


def reread(conf: cfg.ConfigOpts) -> cfg.ConfigOpts:
    """A fresh, empty ConfigOpts parsed from the files ``conf`` was read from."""
    private = cfg.ConfigOpts()
    private(
        args=[],
        project=PROJECT,
        default_config_files=list(conf.config_file or []),
        default_config_dirs=list(conf.config_dir and [conf.config_dir] or []),
        validate_default_values=False,
    )
    return private
