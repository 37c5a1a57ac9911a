"""What resources do by default: how servers reach back, software config, volumes."""

from oslo_config import cfg

SERVER_CALLBACK_OPTS = [
    cfg.URIOpt(
        "heat_metadata_server_url",
        schemes=["http", "https"],
        help="Metadata endpoint given to servers; unset: the CFN endpoint of the catalog.",
    ),
    cfg.URIOpt(
        "heat_waitcondition_server_url",
        schemes=["http", "https"],
        help="Wait condition endpoint given to servers.",
    ),
    cfg.StrOpt(
        "instance_connection_is_secure",
        default="0",
        help="Whether servers reach the CFN API over HTTPS (1) or not (0).",
    ),
    cfg.StrOpt(
        "instance_connection_https_validate_certificates",
        default="1",
        help="Whether servers check the CFN API's certificate (1) or not (0).",
    ),
    cfg.StrOpt(
        "server_keystone_endpoint_type",
        choices=["", "public", "internal", "admin"],
        default="",
        help="Keystone endpoint interface servers use to call back; "
        "empty: [keystone_authtoken] www_authenticate_uri.",
    ),
]

SOFTWARE_CONFIG_OPTS = [
    cfg.StrOpt(
        "default_software_config_transport",
        choices=[
            ("POLL_SERVER_CFN", "Poll the CFN API with the server's key pair."),
            ("POLL_SERVER_HEAT", "Poll the native API with the server's Keystone user."),
            ("POLL_TEMP_URL", "Poll a Swift temporary URL holding the metadata."),
            ("ZAQAR_MESSAGE", "Read the metadata from a Zaqar queue."),
        ],
        default="POLL_SERVER_CFN",
        help="How servers receive software configuration metadata, unless the template says.",
    ),
    cfg.StrOpt(
        "default_deployment_signal_transport",
        choices=[
            ("CFN_SIGNAL", "POST to a CFN signed URL."),
            ("TEMP_URL_SIGNAL", "PUT to a Swift temporary URL."),
            ("HEAT_SIGNAL", "Call the native API's resource signal."),
            ("ZAQAR_SIGNAL", "Post to a Zaqar queue."),
        ],
        default="CFN_SIGNAL",
        help="How servers signal deployment outputs, unless the template says.",
    ),
    cfg.StrOpt(
        "default_user_data_format",
        choices=[
            ("HEAT_CFNTOOLS", "Wrapped in heat-cfntools cloud-init data."),
            ("RAW", "Passed to Nova unchanged."),
            ("SOFTWARE_CONFIG", "Wrapped in software config data."),
        ],
        default="HEAT_CFNTOOLS",
        help="How user_data is formatted for servers, unless the template says.",
    ),
    cfg.BoolOpt(
        "stack_scheduler_hints",
        default=False,
        help="Pass scheduler hints naming the stack and resource to Nova and Cinder.",
    ),
    cfg.StrOpt(
        "loadbalancer_template",
        help="Template replacing the built-in one of AWS::ElasticLoadBalancing::LoadBalancer.",
    ),
]

VOLUMES_OPTS = [
    cfg.BoolOpt(
        "backups_enabled",
        default=True,
        help="Whether the cinder-backup service is available for volume snapshots.",
    ),
]

GROUPS = [
    ("DEFAULT", SERVER_CALLBACK_OPTS + SOFTWARE_CONFIG_OPTS),
    ("volumes", VOLUMES_OPTS),
]
