"""What ``keel -v all-in-one`` logs while it starts and builds its first stack: the
migrations, the access lines and the stack's progress, not the resource registry."""

from __future__ import annotations

import time
from pathlib import Path

from tests.cli.all_in_one_process import call, start_all_in_one, stop

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {"nothing": {"type": "OS::Heat::None"}},
}


def test_starting_and_loading_the_registry_logs_no_line_a_resource_type(tmp_path: Path) -> None:
    log = tmp_path / "all-in-one.log"
    process, url = start_all_in_one(tmp_path / "state", log, "-v")
    try:
        stack_id = call(f"{url}/stacks", {"stack_name": "web", "template": TEMPLATE})["stack"]["id"]
        deadline = time.monotonic() + 30
        while (
            call(f"{url}/stacks/web/{stack_id}")["stack"]["stack_status"] != "CREATE_COMPLETE"
            and time.monotonic() < deadline
        ):
            time.sleep(0.1)
    finally:
        stop(process)

    lines = log.read_text().splitlines()
    assert [line for line in lines if "keel_app.engine.environment.registry" in line] == []
    assert len(lines) < 30, lines
