"""``keel stack watch NAME``: a stack's action followed live in the terminal.

Every ``--interval`` seconds it reads the stack, its resources (nested stacks down to
``--nested-depth``) and its latest events, and redraws: the status and elapsed time, a
progress bar of the resources done, the ones in progress or failed (with the reason), and
the last events. It stops when the stack's action ends: exit status 0 when it completed,
1 when it failed, 2 when there is no such stack.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from keel_app.cli import orchestration_api
from keel_app.cli.stack_progress import (
    DONE,
    FAILED,
    IN_PROGRESS,
    Progress,
    ResourceState,
    classify,
    exit_code,
    finished,
    resource_states,
    summarise,
)

STYLES = {DONE: "green", IN_PROGRESS: "yellow", FAILED: "bold red"}
SHOWN_RESOURCES = 15
SHOWN_EVENTS = 6


def add_parser(stack_commands: Any) -> None:
    watch = stack_commands.add_parser(
        "watch",
        help="Follow a stack's action live until it ends.",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    orchestration_api.add_stack_arguments(watch)
    watch.add_argument("--interval", type=float, default=1.0, help="seconds between reads")
    watch.set_defaults(handler=run)


def run(arguments: argparse.Namespace) -> int:
    console = Console()
    api = orchestration_api.connect(arguments.os_cloud)
    try:
        return watch(api, arguments.stack, arguments.interval, arguments.nested_depth, console)
    except orchestration_api.StackNotFound as missing:
        console.print(f"ERROR: Stack not found: {missing}", style="red", highlight=False)
        return 2


def watch(
    api: Any,
    name_or_id: str,
    interval: float,
    nested_depth: int,
    console: Console,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    path, stack = orchestration_api.find_stack(api, name_or_id)
    started = clock()

    def frame() -> tuple[dict[str, Any], RenderableType]:
        current = orchestration_api.show_stack(api, path)
        resources = resource_states(orchestration_api.list_resources(api, path, nested_depth))
        events = orchestration_api.latest_events(api, path, SHOWN_EVENTS, nested_depth)
        return current, render(current, resources, events, clock() - started)

    stack, view = frame()
    with Live(view, console=console, auto_refresh=False, transient=False) as live:
        while not finished(stack["stack_status"]):
            time.sleep(interval)
            stack, view = frame()
            live.update(view, refresh=True)
    return exit_code(stack["stack_status"])


def render(
    stack: dict[str, Any], resources: list[ResourceState], events: list[dict], elapsed: float
) -> RenderableType:
    status = stack["stack_status"]
    progress = summarise(status, resources)
    return Group(
        _headline(stack, elapsed),
        _bar(progress),
        _resource_table(status, resources),
        _event_table(events),
    )


def _headline(stack: dict[str, Any], elapsed: float) -> Text:
    status = stack["stack_status"]
    style = "green" if status.endswith("_COMPLETE") else STYLES.get(classify(status, ""), "")
    line = Text.assemble(
        (stack["stack_name"], "bold"), "  ", (status, style), f"  {elapsed:.1f} s", "\n"
    )
    if status.endswith("_FAILED") and stack.get("stack_status_reason"):
        line.append(stack["stack_status_reason"] + "\n", style="red")
    return line


def _bar(progress: Progress) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_row(
        ProgressBar(total=max(progress.total, 1), completed=progress.done, width=40),
        Text(
            f"{progress.done}/{progress.total} done, {progress.in_progress} in progress, "
            f"{progress.failed} failed"
        ),
    )
    return grid


def _resource_table(stack_status: str, resources: list[ResourceState]) -> Table:
    action = stack_status.split("_", 1)[0]
    order = {FAILED: 0, IN_PROGRESS: 1}
    shown = sorted(
        (r for r in resources if classify(r.status, action) in order),
        key=lambda r: (order[classify(r.status, action)], r.name),
    )[:SHOWN_RESOURCES]
    table = Table(title="Resources in progress or failed", title_justify="left", expand=False)
    for column in ("resource", "type", "status", "reason"):
        table.add_column(column)
    for resource in shown:
        style = STYLES[classify(resource.status, action)]
        name = f"{resource.parent}/{resource.name}" if resource.parent else resource.name
        table.add_row(name, resource.type, Text(resource.status, style), resource.reason)
    return table


def _event_table(events: list[dict]) -> Table:
    table = Table(title="Last events", title_justify="left", expand=False)
    for column in ("time", "resource", "status", "reason"):
        table.add_column(column)
    for event in reversed(events):
        status = event.get("resource_status", "")
        table.add_row(
            event.get("event_time", ""),
            event.get("resource_name", ""),
            Text(status, STYLES.get(classify(status, ""), "")),
            event.get("resource_status_reason") or "",
        )
    return table
