"""The Heat schema as of the move to Alembic.

Revision ID: c6214ca60943
Revises:
Create Date: 2023-03-22 18:04:02.387269

The tables, column order and constraint order are those of Heat's own first Alembic
revision, so that databases created by either implementation are indistinguishable
(MySQL numbers unnamed foreign keys in creation order).
"""

import sqlalchemy as sa
from alembic import op

from keel_app.models.types import Json, List

revision = "c6214ca60943"
down_revision = None
branch_labels = None
depends_on = None

INNODB = {"mysql_engine": "InnoDB"}


def _created_updated() -> list[sa.Column]:
    return [sa.Column("created_at", sa.DateTime()), sa.Column("updated_at", sa.DateTime())]


def _state() -> list[sa.Column]:
    return [
        sa.Column("action", sa.String(255)),
        sa.Column("status", sa.String(255)),
        sa.Column("status_reason", sa.Text()),
    ]


def upgrade() -> None:
    op.create_table(
        "raw_template_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("files", Json()),
        *_created_updated(),
        sa.PrimaryKeyConstraint("id"),
        **INNODB,
    )
    op.create_table(
        "resource_properties_data",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("data", Json()),
        sa.Column("encrypted", sa.Boolean()),
        *_created_updated(),
        sa.PrimaryKeyConstraint("id"),
        **INNODB,
    )
    op.create_table(
        "service",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("engine_id", sa.String(36), nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("hostname", sa.String(255), nullable=False),
        sa.Column("binary", sa.String(255), nullable=False),
        sa.Column("topic", sa.String(255), nullable=False),
        sa.Column("report_interval", sa.Integer(), nullable=False),
        *_created_updated(),
        sa.Column("deleted_at", sa.DateTime()),
        sa.PrimaryKeyConstraint("id"),
        **INNODB,
    )
    op.create_table(
        "software_config",
        sa.Column("id", sa.String(36), nullable=False),
        *_created_updated(),
        sa.Column("name", sa.String(255)),
        sa.Column("group", sa.String(255)),
        sa.Column("config", Json()),
        sa.Column("tenant", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        **INNODB,
    )
    op.create_index("ix_software_config_tenant", "software_config", ["tenant"])
    op.create_table(
        "user_creds",
        sa.Column("id", sa.Integer(), nullable=False),
        *_created_updated(),
        sa.Column("username", sa.String(255)),
        sa.Column("password", sa.String(255)),
        sa.Column("region_name", sa.String(255)),
        sa.Column("decrypt_method", sa.String(64)),
        sa.Column("tenant", sa.String(1024)),
        sa.Column("auth_url", sa.Text()),
        sa.Column("tenant_id", sa.String(256)),
        sa.Column("trust_id", sa.String(255)),
        sa.Column("trustor_user_id", sa.String(64)),
        sa.PrimaryKeyConstraint("id"),
        **INNODB,
    )
    op.create_table(
        "raw_template",
        sa.Column("id", sa.Integer(), nullable=False),
        *_created_updated(),
        sa.Column("template", Json()),
        sa.Column("files", Json()),
        sa.Column("environment", Json()),
        sa.Column("files_id", sa.Integer()),
        sa.ForeignKeyConstraint(
            ["files_id"], ["raw_template_files.id"], name="raw_tmpl_files_fkey_ref"
        ),
        sa.PrimaryKeyConstraint("id"),
        **INNODB,
    )
    op.create_table(
        "software_deployment",
        sa.Column("id", sa.String(36), nullable=False),
        *_created_updated(),
        sa.Column("server_id", sa.String(36), nullable=False),
        sa.Column("config_id", sa.String(36), nullable=False),
        sa.Column("input_values", Json()),
        sa.Column("output_values", Json()),
        *_state(),
        sa.Column("tenant", sa.String(64), nullable=False),
        sa.Column("stack_user_project_id", sa.String(64)),
        sa.ForeignKeyConstraint(["config_id"], ["software_config.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_software_deployment_created_at", "software_deployment", ["created_at"])
    op.create_index("ix_software_deployment_server_id", "software_deployment", ["server_id"])
    op.create_index("ix_software_deployment_tenant", "software_deployment", ["tenant"])
    op.create_table(
        "stack",
        sa.Column("id", sa.String(36), nullable=False),
        *_created_updated(),
        sa.Column("deleted_at", sa.DateTime()),
        sa.Column("name", sa.String(255)),
        sa.Column("raw_template_id", sa.Integer(), nullable=False),
        sa.Column("prev_raw_template_id", sa.Integer()),
        sa.Column("user_creds_id", sa.Integer()),
        sa.Column("username", sa.String(256)),
        sa.Column("owner_id", sa.String(36)),
        *_state(),
        sa.Column("timeout", sa.Integer()),
        sa.Column("tenant", sa.String(256)),
        sa.Column("disable_rollback", sa.Boolean(), nullable=False),
        sa.Column("stack_user_project_id", sa.String(64)),
        sa.Column("backup", sa.Boolean()),
        sa.Column("nested_depth", sa.Integer()),
        sa.Column("convergence", sa.Boolean()),
        sa.Column("current_traversal", sa.String(36)),
        sa.Column("current_deps", Json()),
        sa.Column("parent_resource_name", sa.String(255)),
        sa.ForeignKeyConstraint(["prev_raw_template_id"], ["raw_template.id"]),
        sa.ForeignKeyConstraint(["raw_template_id"], ["raw_template.id"]),
        sa.ForeignKeyConstraint(["user_creds_id"], ["user_creds.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_stack_name", "stack", ["name"], mysql_length=255)
    op.create_index("ix_stack_tenant", "stack", ["tenant"], mysql_length=255)
    op.create_index("ix_stack_owner_id", "stack", ["owner_id"])
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uuid", sa.String(36)),
        sa.Column("stack_id", sa.String(36), nullable=False),
        *_created_updated(),
        sa.Column("resource_action", sa.String(255)),
        sa.Column("resource_status", sa.String(255)),
        sa.Column("resource_name", sa.String(255)),
        sa.Column("physical_resource_id", sa.String(255)),
        sa.Column("resource_status_reason", sa.String(255)),
        sa.Column("resource_type", sa.String(255)),
        sa.Column("resource_properties", sa.PickleType()),
        sa.Column("rsrc_prop_data_id", sa.Integer()),
        sa.ForeignKeyConstraint(
            ["rsrc_prop_data_id"], ["resource_properties_data.id"], name="ev_rsrc_prop_data_ref"
        ),
        sa.ForeignKeyConstraint(["stack_id"], ["stack.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uuid"),
        **INNODB,
    )
    op.create_table(
        "resource",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uuid", sa.String(36)),
        sa.Column("nova_instance", sa.String(255)),
        sa.Column("name", sa.String(255)),
        *_created_updated(),
        *_state(),
        sa.Column("stack_id", sa.String(36), nullable=False),
        sa.Column("rsrc_metadata", Json()),
        sa.Column("properties_data", Json()),
        sa.Column("engine_id", sa.String(36)),
        sa.Column("atomic_key", sa.Integer()),
        sa.Column("needed_by", List()),
        sa.Column("requires", List()),
        sa.Column("replaces", sa.Integer()),
        sa.Column("replaced_by", sa.Integer()),
        sa.Column("current_template_id", sa.Integer()),
        sa.Column("properties_data_encrypted", sa.Boolean()),
        sa.Column("root_stack_id", sa.String(36)),
        sa.Column("rsrc_prop_data_id", sa.Integer()),
        sa.Column("attr_data_id", sa.Integer()),
        sa.ForeignKeyConstraint(
            ["attr_data_id"], ["resource_properties_data.id"], name="rsrc_attr_data_ref"
        ),
        sa.ForeignKeyConstraint(["current_template_id"], ["raw_template.id"]),
        sa.ForeignKeyConstraint(
            ["rsrc_prop_data_id"],
            ["resource_properties_data.id"],
            name="rsrc_rsrc_prop_data_ref",
        ),
        sa.ForeignKeyConstraint(["stack_id"], ["stack.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uuid"),
        **INNODB,
    )
    op.create_index("ix_resource_root_stack_id", "resource", ["root_stack_id"])
    op.create_table(
        "snapshot",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("stack_id", sa.String(36), nullable=False),
        sa.Column("name", sa.String(255)),
        *_created_updated(),
        sa.Column("status", sa.String(255)),
        sa.Column("status_reason", sa.String(255)),
        sa.Column("data", Json()),
        sa.Column("tenant", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(["stack_id"], ["stack.id"]),
        sa.PrimaryKeyConstraint("id"),
        **INNODB,
    )
    op.create_index("ix_snapshot_tenant", "snapshot", ["tenant"])
    op.create_table(
        "stack_lock",
        sa.Column("stack_id", sa.String(36), nullable=False),
        *_created_updated(),
        sa.Column("engine_id", sa.String(36)),
        sa.ForeignKeyConstraint(["stack_id"], ["stack.id"]),
        sa.PrimaryKeyConstraint("stack_id"),
        **INNODB,
    )
    op.create_table(
        "stack_tag",
        sa.Column("id", sa.Integer(), nullable=False),
        *_created_updated(),
        sa.Column("tag", sa.Unicode(80)),
        sa.Column("stack_id", sa.String(36), nullable=False),
        sa.ForeignKeyConstraint(["stack_id"], ["stack.id"]),
        sa.PrimaryKeyConstraint("id"),
        **INNODB,
    )
    op.create_table(
        "sync_point",
        sa.Column("entity_id", sa.String(36), nullable=False),
        sa.Column("traversal_id", sa.String(36), nullable=False),
        sa.Column("is_update", sa.Boolean(), nullable=False),
        sa.Column("atomic_key", sa.Integer(), nullable=False),
        sa.Column("stack_id", sa.String(36), nullable=False),
        sa.Column("input_data", Json()),
        *_created_updated(),
        sa.ForeignKeyConstraint(["stack_id"], ["stack.id"]),
        sa.PrimaryKeyConstraint("entity_id", "traversal_id", "is_update"),
    )
    op.create_table(
        "resource_data",
        sa.Column("id", sa.Integer(), nullable=False),
        *_created_updated(),
        sa.Column("key", sa.String(255)),
        sa.Column("value", sa.Text()),
        sa.Column("redact", sa.Boolean()),
        sa.Column("decrypt_method", sa.String(64)),
        sa.Column("resource_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["resource_id"], ["resource.id"], name="fk_resource_id", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id"),
        **INNODB,
    )


def downgrade() -> None:
    raise NotImplementedError("Heat's schema history has no way back from its first revision")
