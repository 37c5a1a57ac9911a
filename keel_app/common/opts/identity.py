"""Keystone as the engine uses it: trusts, the stack-user domain, stored credentials."""

from oslo_config import cfg, types

from keel_app.common.opts import keystoneauth

CREDENTIAL_OPTS = [
    cfg.StrOpt(
        "auth_encryption_key",
        secret=True,
        default="notgood but just long enough i t",
        help="Key encrypting credentials and hidden values in the database; 32 characters.",
    ),
    cfg.StrOpt(
        "deferred_auth_method",
        choices=["password", "trusts"],
        default="trusts",
        deprecated_for_removal=True,
        deprecated_reason="Stored passwords do not work with Keystone v3.",
        deprecated_since="9.0.0",
        help="How the engine acts for a user later: stored password or trusts.",
    ),
    cfg.StrOpt(
        "reauthentication_auth_method",
        choices=["", "trusts"],
        default="",
        help="Re-authenticate with a trust when a user's token expires during a long task.",
    ),
    cfg.BoolOpt(
        "allow_trusts_redelegation",
        default=False,
        help="Create redelegatable trusts (with reauthentication_auth_method = trusts).",
    ),
    cfg.ListOpt(
        "trusts_delegated_roles",
        default=[],
        help="Roles delegated in trusts; empty: all of the trustor's roles.",
    ),
]

STACK_DOMAIN_OPTS = [
    cfg.StrOpt(
        "heat_stack_user_role",
        default="heat_stack_user",
        help="Role given to users that templates create.",
    ),
    cfg.StrOpt(
        "stack_user_domain_id",
        help="ID of the domain holding template-created users; wins over the name.",
    ),
    cfg.StrOpt(
        "stack_user_domain_name",
        help="Name of the domain holding template-created users.",
    ),
    cfg.StrOpt(
        "stack_domain_admin",
        help="User able to manage users and projects in the stack-user domain.",
    ),
    cfg.StrOpt(
        "stack_domain_admin_password",
        secret=True,
        help="Password of stack_domain_admin.",
    ),
]

AUTH_PASSWORD_OPTS = [
    cfg.BoolOpt("multi_cloud", default=False, help="Allow stacks on several clouds."),
    cfg.ListOpt(
        "allowed_auth_uris",
        item_type=types.URI(schemes=["http", "https"]),
        default=[],
        help="Keystone endpoints accepted with multi_cloud; at least one is needed.",
    ),
]

NOAUTH_OPTS = [
    cfg.StrOpt(
        "token_response",
        default="",
        help="JSON file whose content the noauth middleware returns as the token.",
    ),
]

GROUPS = [
    ("DEFAULT", CREDENTIAL_OPTS + STACK_DOMAIN_OPTS),
    # The engine's own identity for creating and consuming trusts.
    ("trustee", keystoneauth.auth_common_opts() + keystoneauth.password_plugin_opts()),
    ("auth_password", AUTH_PASSWORD_OPTS),
    ("noauth", NOAUTH_OPTS),
]
