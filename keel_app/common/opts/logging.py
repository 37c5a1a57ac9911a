"""The oslo.log options that heat.conf files commonly set, with oslo.log's names."""

from oslo_config import cfg

LOGGING_OPTS = [
    cfg.BoolOpt("debug", short="d", default=False, mutable=True, help="Log at debug level."),
    cfg.StrOpt(
        "log-file",
        metavar="PATH",
        deprecated_name="logfile",
        help="Write logs to this file instead of standard error.",
    ),
    cfg.StrOpt(
        "log-dir",
        deprecated_name="logdir",
        help="Directory of the log file when log_file is a relative path.",
    ),
    cfg.BoolOpt("use_stderr", default=False, help="Also log to standard error."),
]

GROUPS = [("DEFAULT", LOGGING_OPTS)]
