"""A mixed fleet: Heat 27.0.1's own heat-engine beside keel-bridge and a keel-worker, on
one RabbitMQ vhost and one MariaDB database, as during a host-by-host switch. The two
kinds of engine find each other alive the way Heat's engines do (``listening`` on
``heat-engine-listener``), and stacks whose calls and steps are shared out between them
complete."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from keel_app.common.context import RequestContext
from keel_app.compat_oslo import caller
from keel_app.engine.settings import EngineSettings
from keel_app.models import RawTemplate
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow
from keel_app.models import StackLock as StackLockRow
from keel_app.models.database import Database
from keel_app.models.service import Service
from keel_app.models.template import RawTemplateFiles
from keel_app.tasks.dispatcher import CeleryDispatcher
from tests import fleet, oracle
from tests.compat_oslo import deployment
from tests.compat_oslo.test_bridge import CONTEXT

pytestmark = pytest.mark.oracle

HEAT_HOST = "heat-mixed-host"
# keel-bridge's host (deployment.write_bridge_conf): its engine.<host> queue.
BRIDGE_HOST = "bridge-host"
# Heat's engine stores the caller's password instead of asking Keystone for a trust.
MIXED_CONTEXT = {**CONTEXT, "password": "secret-of-bridger"}
TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "one": {"type": "OS::Heat::None"},
        "two": {"type": "OS::Heat::None", "depends_on": "one"},
        "three": {"type": "OS::Heat::None", "depends_on": "one"},
        "four": {"type": "OS::Heat::None", "depends_on": ["two", "three"]},
    },
}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    directory: Path = tmp_path_factory.mktemp("mixed")
    with deployment.deployment(directory) as deployed:
        with deployment.heat_engine(
            directory,
            deployed["database_url"],
            deployed["oslo_url"],
            host=HEAT_HOST,
            defaults="deferred_auth_method = password\n",
        ) as heat_process:
            peer = deployment.HeatPeer(deployed["oslo_url"])
            try:
                yield {**deployed, "peer": peer, "heat_process": heat_process}
            finally:
                peer.close()


def heat_engine_id(mixed: dict[str, Any]) -> str:
    engine = sa.create_engine(mixed["database_url"], poolclass=sa.NullPool)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            with engine.connect() as connection:
                found = connection.scalars(
                    sa.select(Service.engine_id).where(
                        Service.host == HEAT_HOST, Service.deleted_at.is_(None)
                    )
                ).all()
            if found:
                return found[0]
            time.sleep(0.5)
    finally:
        engine.dispose()
    raise AssertionError("heat-engine never registered")


def request(mixed: dict[str, Any], method: str, **kwargs: Any) -> Any:
    answer = mixed["peer"].request(method=method, kwargs=kwargs, context=MIXED_CONTEXT)
    assert "error" not in answer, answer
    return answer["result"]


def test_openkeel_finds_a_live_heat_engine_listening(mixed):
    url = mixed["oslo_url"]
    assert caller.engine_listening(url, heat_engine_id(mixed), timeout=5) is True


def test_openkeel_finds_an_engine_nobody_runs_dead(mixed):
    started = time.monotonic()
    assert caller.engine_listening(mixed["oslo_url"], "no-such-engine", timeout=2) is False
    assert 2 <= time.monotonic() - started < 5


def test_a_keel_dispatcher_asks_heat_engines_before_taking_their_locks(mixed):
    database = Database(mixed["database_url"])
    try:
        dispatcher = CeleryDispatcher(
            EngineSettings(auth_encryption_key=fleet.ENCRYPTION_KEY),
            database,
            lambda engine_id: caller.engine_listening(mixed["oslo_url"], engine_id, timeout=5),
        )
        context = RequestContext(user_id="user-bridge", project_id="project-bridge")
        assert (
            dispatcher.is_engine_alive(context, heat_engine_id(mixed)),
            dispatcher.is_engine_alive(context, "no-such-engine"),
        ) == (True, False)
    finally:
        database.dispose()


def test_stacks_served_by_both_kinds_of_engine_complete(mixed):
    names = [f"mixed-{number}" for number in range(6)]
    identities = [
        request(
            mixed,
            "create_stack",
            stack_name=name,
            template=TEMPLATE,
            params={},
            files={},
            args={"disable_rollback": True},
        )
        for name in names
    ]
    deadline = time.monotonic() + 120
    states: dict[str, str] = {}
    while time.monotonic() < deadline:
        states = {
            row["stack_name"]: f"{row['stack_action']}_{row['stack_status']}"
            for row in request(mixed, "list_stacks")
            if row["stack_name"] in names
        }
        if set(states.values()) == {"CREATE_COMPLETE"} and len(states) == len(names):
            break
        time.sleep(0.5)
    assert states == dict.fromkeys(names, "CREATE_COMPLETE")
    resources = request(mixed, "list_stack_resources", stack_identity=identities[0])
    assert sorted((row["resource_name"], row["resource_status"]) for row in resources) == [
        ("four", "COMPLETE"),
        ("one", "COMPLETE"),
        ("three", "COMPLETE"),
        ("two", "COMPLETE"),
    ]


def call_on(mixed: dict[str, Any], host: str, method: str, version: str, **kwargs: Any) -> Any:
    """One engine call sent to one engine's own queue (engine.<host>), as Heat's client
    builds it; the answer or the error the client raised."""
    return mixed["peer"].request(
        raw=True,
        topic="engine",
        server=host,
        version=version,
        method=method,
        kwargs=kwargs,
        context=MIXED_CONTEXT,
        timeout=60,
    )


# A nested stack's template as a Heat engine stores it before asking for the create
# (StackResource._stack_kwargs: Template.store of the child's parsed template).
STORE_AS_HEAT_DOES = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from oslo_config import cfg
cfg.CONF([], project="heat", default_config_files=[])
from heat.db import api  # registers [database]
from heat.common import context
from heat.engine import environment, resources, template
cfg.CONF.set_override("connection", sys.argv[1], group="database")
resources.initialise()
document, files, env = json.loads(sys.argv[2])
stored = template.Template(document, files=files, env=environment.Environment(env))
print(json.dumps(stored.store(context.get_admin_context())))
"""
NESTED_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "parameters": {"greeting": {"type": "string"}},
    "resources": {
        "said": {
            "type": "OS::Heat::Value",
            "properties": {
                "value": {"list_join": [" ", [{"get_param": "greeting"}, {"get_file": "who"}]]}
            },
        }
    },
    "outputs": {"said": {"value": {"get_attr": ["said", "value"]}}},
}
NESTED_FILES = {"who": "world"}
NESTED_ENVIRONMENT = {"parameters": {"greeting": "hello"}}


def store_nested_template(mixed: dict[str, Any]) -> int:
    stored = oracle.run_json(
        STORE_AS_HEAT_DOES,
        mixed["database_url"],
        json.dumps([NESTED_TEMPLATE, NESTED_FILES, NESTED_ENVIRONMENT]),
    )
    return int(stored)


def wait_for_state(mixed: dict[str, Any], identity: dict[str, Any], state: str) -> dict:
    deadline = time.monotonic() + 120
    shown: dict[str, Any] = {}
    while time.monotonic() < deadline:
        (shown,) = request(mixed, "show_stack", stack_identity=identity, resolve_outputs=True)
        if f"{shown['stack_action']}_{shown['stack_status']}" == state:
            return shown
        time.sleep(0.5)
    raise AssertionError(f"{identity['stack_name']} never reached {state}: {shown}")


def stored_rows(mixed: dict[str, Any], stack_id: str) -> dict[str, Any]:
    """What a nested create left in the database: the stack row's fields and its
    template row's."""
    database = Database(mixed["database_url"])
    try:
        with database.transaction() as session:
            row = session.get(StackRow, stack_id)
            assert row is not None
            template = session.get(RawTemplate, row.raw_template_id)
            assert template is not None
            files = None
            if template.files_id is not None:
                files = session.get(RawTemplateFiles, template.files_id)
            return {
                "raw_template_id": row.raw_template_id,
                "owner_id": row.owner_id,
                "nested_depth": row.nested_depth,
                "user_creds_id": row.user_creds_id,
                "stack_user_project_id": row.stack_user_project_id,
                "parent_resource_name": row.parent_resource_name,
                "tenant": row.tenant,
                "username": row.username,
                "timeout": row.timeout,
                "disable_rollback": row.disable_rollback,
                "convergence": row.convergence,
                "prev_raw_template_id": row.prev_raw_template_id,
                "template": template.template,
                "environment": template.environment,
                "files": files.files if files is not None else None,
            }
    finally:
        database.dispose()


def templates_stored(mixed: dict[str, Any]) -> int:
    engine = sa.create_engine(mixed["database_url"], poolclass=sa.NullPool)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(sa.select(sa.func.count(RawTemplate.id))) or 0)
    finally:
        engine.dispose()


def create_nested_on(
    mixed: dict[str, Any], host: str, parent: dict[str, Any], name: str
) -> tuple[dict[str, Any], int]:
    """Heat's StackResource.create_with_template, sent to the engine on ``host``: the
    nested stack's identity and the raw_template row it was created from."""
    parent_row = stored_rows(mixed, parent["stack_id"])
    template_id = store_nested_template(mixed)
    answer = call_on(
        mixed,
        host,
        "create_stack",
        "1.36",
        stack_name=name,
        template=None,
        params=None,
        files=None,
        environment_files=None,
        files_container=None,
        args={"timeout_mins": 7, "disable_rollback": True, "adopt_stack_data": None},
        owner_id=parent["stack_id"],
        nested_depth=1,
        user_creds_id=parent_row["user_creds_id"],
        stack_user_project_id="stack-user-project",
        parent_resource_name="inner",
        template_id=template_id,
    )
    assert "error" not in answer, answer
    return answer["result"], template_id


def test_a_heat_engines_nested_create_from_a_stored_template_is_served_as_heat_serves_it(
    mixed,
):
    parent = request(
        mixed,
        "create_stack",
        stack_name="nesting-parent",
        template=TEMPLATE,
        params={},
        files={},
        args={"disable_rollback": True},
    )
    wait_for_state(mixed, parent, "CREATE_COMPLETE")
    created = {}
    for host in (HEAT_HOST, BRIDGE_HOST):
        before = templates_stored(mixed)
        identity, template_id = create_nested_on(mixed, host, parent, f"nesting-inner-{host}")
        shown = wait_for_state(mixed, identity, "CREATE_COMPLETE")
        rows = stored_rows(mixed, identity["stack_id"])
        # The stored template is the nested stack's own: no other row was written.
        assert rows.pop("raw_template_id") == template_id
        created[host] = {
            "identity": {**identity, "stack_id": None},
            "outputs": shown["outputs"],
            "parent": shown["parent"],
            "rows": rows,
            "templates_stored": templates_stored(mixed) - before,
        }

    assert created[BRIDGE_HOST] == {
        **created[HEAT_HOST],
        "identity": {
            **created[HEAT_HOST]["identity"],
            "stack_name": f"nesting-inner-{BRIDGE_HOST}",
        },
    }
    bridge = created[BRIDGE_HOST]
    assert (bridge["outputs"], bridge["parent"], bridge["templates_stored"]) == (
        [
            {
                "output_key": "said",
                "output_value": "hello world",
                "description": "No description given",
            }
        ],
        parent["stack_id"],
        1,
    )
    assert {
        key: bridge["rows"][key]
        for key in ("owner_id", "nested_depth", "stack_user_project_id", "parent_resource_name")
    } == {
        "owner_id": parent["stack_id"],
        "nested_depth": 1,
        "stack_user_project_id": "stack-user-project",
        "parent_resource_name": "inner",
    }
    assert (bridge["rows"]["template"], bridge["rows"]["files"], bridge["rows"]["timeout"]) == (
        NESTED_TEMPLATE,
        NESTED_FILES,
        7,
    )


def test_authenticated_to_backend_answers_as_heats_engine(mixed):
    answers = {
        host: call_on(mixed, host, "authenticated_to_backend", "1.0")
        for host in (HEAT_HOST, BRIDGE_HOST)
    }

    assert answers[BRIDGE_HOST] == answers[HEAT_HOST]
    # Heat's default client backend has no such check: the call fails in every engine.
    assert (answers[BRIDGE_HOST]["error"]["type"], answers[BRIDGE_HOST]["error"]["message"]) == (
        "AttributeError",
        "'OpenStackClients' object has no attribute 'authenticated'",
    )


HEAT_OPERATOR = Path(__file__).parents[1] / "engine" / "service" / "heat_operator.py"
# heat-manage's context: admin, no user.
MANAGE_CONTEXT = {"is_admin": True}
LEGACY_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "a": {"type": "OS::Heat::None"},
        "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
        "c": {"type": "OS::Heat::RandomString", "properties": {"length": 8}},
        "d": {
            "type": "OS::Heat::Value",
            "properties": {"value": {"get_attr": ["c", "value"]}},
            "depends_on": ["b"],
        },
    },
}


def legacy_tree_made_by_heat(mixed: dict[str, Any], name: str) -> tuple[str, str]:
    """A legacy (convergence_engine = false) stack and one below it, both created by
    Heat's own EngineService on the fleet's database: the root's id and the child's."""
    made = oracle.run_json(
        HEAT_OPERATOR.read_text(),
        json.dumps(
            {
                "url": mixed["database_url"],
                "project": "project-legacy",
                "config": {"convergence_engine": False},
                "calls": [
                    {
                        "method": "create_stack",
                        "arguments": {
                            "stack_name": stack_name,
                            "template": LEGACY_TEMPLATE,
                            "params": {},
                            "files": {},
                            "args": {"disable_rollback": True},
                            # Given, so that no Keystone is asked for a project.
                            "stack_user_project_id": "project-legacy",
                        },
                    }
                    for stack_name in (name, f"{name}-child")
                ],
            }
        ),
    )
    root, child = (identity["stack_id"] for identity in made)
    engine = sa.create_engine(mixed["database_url"], poolclass=sa.NullPool)
    try:
        with engine.begin() as connection:
            # The oracle's process ends once every resource is created, before its
            # legacy create thread stores the stack's end and lets go of the lock: what
            # that thread writes is written here.
            connection.execute(
                sa.update(StackRow)
                .where(StackRow.id.in_([root, child]))
                .values(status="COMPLETE", status_reason="Stack CREATE completed successfully")
            )
            connection.execute(
                sa.delete(StackLockRow).where(StackLockRow.stack_id.in_([root, child]))
            )
            # What a legacy nested stack's row says of its parent.
            connection.execute(
                sa.update(StackRow)
                .where(StackRow.id == child)
                .values(owner_id=root, nested_depth=1, parent_resource_name="inner")
            )
    finally:
        engine.dispose()
    return root, child


def tree_rows(mixed: dict[str, Any], stack_ids: tuple[str, ...]) -> dict[str, Any]:
    """The rows of a tree's stacks as twins compare: ids as names or as whether they
    point where they should."""
    engine = sa.create_engine(mixed["database_url"], poolclass=sa.NullPool)
    try:
        with engine.connect() as connection:
            seen = {}
            for position, stack_id in enumerate(stack_ids):
                stack = connection.execute(
                    sa.select(StackRow.__table__).where(StackRow.id == stack_id)
                ).one()
                resources = connection.execute(
                    sa.select(ResourceRow.__table__)
                    .where(ResourceRow.stack_id == stack_id)
                    .order_by(ResourceRow.id)
                ).all()
                names = {row.id: row.name for row in resources}
                seen[position] = {
                    "stack": {
                        "action": stack.action,
                        "status": stack.status,
                        "convergence": stack.convergence,
                        "traversal": stack.current_traversal,
                        "raw_template_id": stack.raw_template_id,
                        "prev_raw_template_id": stack.prev_raw_template_id,
                        "updated_at": stack.updated_at,
                        "current_deps": stack.current_deps,
                    },
                    "resources": {
                        row.name: {
                            "current_template_is_the_stacks": row.current_template_id
                            == stack.raw_template_id,
                            "current_template_id": row.current_template_id,
                            # A set in Heat's hands: its order follows the ids' hashes.
                            "requires": None
                            if row.requires is None
                            else sorted((names.get(key, key) for key in row.requires), key=str),
                            "state": (row.action, row.status),
                            "atomic_key": row.atomic_key,
                            "engine_id": row.engine_id,
                            "updated_at": row.updated_at,
                        }
                        for row in resources
                    },
                    "locked": connection.scalar(
                        sa.select(sa.func.count()).where(StackLockRow.stack_id == stack_id)
                    ),
                }
            return seen
    finally:
        engine.dispose()


def migrate_on(mixed: dict[str, Any], host: str, stack_id: str) -> dict[str, Any]:
    """heat-manage migrate_convergence_1's call, sent to the engine on ``host``."""
    answer: dict[str, Any] = mixed["peer"].request(
        raw=True,
        topic="engine",
        server=host,
        version="1.34",
        method="migrate_convergence_1",
        kwargs={"stack_id": stack_id},
        context=MANAGE_CONTEXT,
        timeout=60,
    )
    return answer


# Heat 27.0.1's EngineService.migrate_convergence_1 opens its transaction with
# ``ctxt.session.begin()``, which its oslo.db refuses (NoEngineContextEstablished): the
# moves below are Heat's own (Stack.migrate_to_convergence for each stack of the tree,
# nested ones first), run in the transaction that call meant to open.
MIGRATE_AS_HEAT_MEANS = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from oslo_config import cfg
cfg.CONF([], project="heat", default_config_files=[])
from heat.db import api as db_api
from heat.common import context
from heat.engine import resources, stack as parser
from heat.objects import stack as stack_object
cfg.CONF.set_override("connection", sys.argv[1], group="database")
resources.initialise()
ctxt = context.get_admin_context()
root = parser.Stack.load(ctxt, stack_id=sys.argv[2], show_deleted=False)
stacks = [
    parser.Stack.load(ctxt, stack_id=row.id, stack=row)
    for row in stack_object.Stack.get_all_by_root_owner_id(ctxt, root.id)
]
with db_api.context_manager.writer.using(ctxt):
    for stack in [*stacks, root]:
        if not stack.convergence:
            stack.migrate_to_convergence()
print(json.dumps(None))
"""


def moved(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What a move changed in a tree's rows, with what differs between twins by nature
    (ids, traversals, times) told as whether it changed."""
    changes = {}
    for position, rows in after.items():
        was = before[position]
        stack = dict(rows["stack"])
        stack["traversal"] = (
            stack["traversal"] is not None and stack["traversal"] != was["stack"]["traversal"]
        )
        for key in ("raw_template_id", "updated_at"):
            stack[key] = stack[key] == was["stack"][key]
        resources = {}
        for name, resource in rows["resources"].items():
            resource = dict(resource)
            resource["updated_at"] = resource["updated_at"] == was["resources"][name]["updated_at"]
            resource.pop("current_template_id")
            resources[name] = resource
        changes[position] = {**rows, "stack": stack, "resources": resources}
    return changes


def test_migrate_convergence_1_moves_a_legacy_tree_as_heat_does(mixed):
    heat_tree = legacy_tree_made_by_heat(mixed, "legacy-heat")
    keel_tree = legacy_tree_made_by_heat(mixed, "legacy-keel")
    heat_before, keel_before = tree_rows(mixed, heat_tree), tree_rows(mixed, keel_tree)

    heat_answer = migrate_on(mixed, HEAT_HOST, heat_tree[0])
    heat_engine_left = tree_rows(mixed, heat_tree)
    oracle.run(MIGRATE_AS_HEAT_MEANS, mixed["database_url"], heat_tree[0])
    keel_answer = migrate_on(mixed, BRIDGE_HOST, keel_tree[0])

    # Heat's engine fails the call and leaves the tree as it was; keel-bridge moves it.
    assert (heat_answer["error"]["exc_type"], heat_engine_left) == (
        "NoEngineContextEstablished",
        heat_before,
    )
    assert keel_answer == {"result": None}
    keel_moved = moved(keel_before, tree_rows(mixed, keel_tree))
    assert keel_moved == moved(heat_before, tree_rows(mixed, heat_tree))
    for stack in keel_moved.values():
        assert (stack["stack"]["convergence"], stack["stack"]["traversal"], stack["locked"]) == (
            True,
            True,
            0,
        )
        assert {
            name: (resource["current_template_is_the_stacks"], sorted(resource["requires"]))
            for name, resource in stack["resources"].items()
        } == {
            "a": (True, []),
            "b": (True, ["a"]),
            "c": (True, []),
            "d": (True, ["b", "c"]),
        }


def test_migrate_convergence_1_refuses_as_heats_engine_does(mixed):
    converged = request(
        mixed,
        "create_stack",
        stack_name="migrate-converged",
        template=TEMPLATE,
        params={},
        files={},
        args={"disable_rollback": True},
    )
    wait_for_state(mixed, converged, "CREATE_COMPLETE")
    root, child = legacy_tree_made_by_heat(mixed, "legacy-refused")
    busy_root, busy_child = legacy_tree_made_by_heat(mixed, "legacy-busy")
    engine = sa.create_engine(mixed["database_url"], poolclass=sa.NullPool)
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.update(StackRow).where(StackRow.id == busy_child).values(status="FAILED")
            )
    finally:
        engine.dispose()
    missing = "3f5bd0f6-0000-4000-8000-000000000000"
    cases = [converged["stack_id"], child, busy_root, missing]
    before = tree_rows(mixed, (root, child, busy_root, busy_child))

    answers = {
        host: [migrate_on(mixed, host, stack_id) for stack_id in cases]
        for host in (HEAT_HOST, BRIDGE_HOST)
    }

    assert answers[BRIDGE_HOST] == answers[HEAT_HOST]
    assert [
        answer["error"]["message"] if "error" in answer else answer["result"]
        for answer in answers[BRIDGE_HOST]
    ] == [
        None,
        f"Migration of nested stack {child} is not supported.",
        "Stack legacy-busy-child has an action (CREATE) in progress or failed state.",
        f'No stack exists with id "{missing}"',
    ]
    assert tree_rows(mixed, (root, child, busy_root, busy_child)) == before
