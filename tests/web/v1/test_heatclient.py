"""python-heatclient, as users run it, against the native API on a loopback port.

The app is served by a real WSGI server thread (noauth: every caller is the admin of
project ``admin``); the engine's convergence steps run in the test's thread between
the client's calls.
"""

from __future__ import annotations

from typing import Any

import pytest
from heatclient import exc as heat_exc

from tests.web.v1.stack_templates import NONE_TEMPLATE, VALUE_TEMPLATE


def test_create_list_show_update_delete(heat: Any, run_engine: Any) -> None:
    created = heat.stacks.create(
        stack_name="through-heatclient", template=VALUE_TEMPLATE, parameters={"greeting": "hi"}
    )
    run_engine()
    stack_id = created["stack"]["id"]

    listed = [(stack.stack_name, stack.id, stack.stack_status) for stack in heat.stacks.list()]
    shown = heat.stacks.get("through-heatclient")
    outputs = {output["output_key"]: output["output_value"] for output in shown.outputs}

    assert listed == [("through-heatclient", stack_id, "CREATE_COMPLETE")]
    assert (shown.id, shown.stack_status, outputs["said"]) == (stack_id, "CREATE_COMPLETE", "hi")

    heat.stacks.update("through-heatclient", existing=True, parameters={"greeting": "hey"})
    run_engine()
    patched = heat.stacks.get(stack_id)
    assert patched.stack_status == "UPDATE_COMPLETE"
    assert heat.stacks.output_show(stack_id, "said")["output"]["output_value"] == "hey"

    heat.stacks.update(f"through-heatclient/{stack_id}", template=NONE_TEMPLATE)
    run_engine()
    assert heat.stacks.template(stack_id) == NONE_TEMPLATE

    heat.stacks.delete("through-heatclient")
    run_engine()
    assert list(heat.stacks.list()) == []
    with pytest.raises(heat_exc.HTTPNotFound) as raised:
        heat.stacks.get("through-heatclient")
    assert str(raised.value) == ("ERROR: The Stack (through-heatclient) could not be found.")


def test_heatclient_reads_heats_errors(heat: Any) -> None:
    with pytest.raises(heat_exc.HTTPBadRequest) as raised:
        heat.stacks.create(stack_name="templateless")

    assert str(raised.value) == "ERROR: No template specified"
