"""The ports tests and benchmarks hand to the servers they start lie where no outgoing
connection and no bind to port 0 can take them first."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from keel_app.web.spare_ports import (
    DEFAULT_EPHEMERAL,
    LOWEST,
    candidate_ports,
    ephemeral_range,
    free_port,
)

HOST = "127.0.0.1"


def test_a_port_handed_out_is_outside_the_kernels_ephemeral_range() -> None:
    low, high = ephemeral_range()
    port = free_port(HOST)
    assert not low <= port <= high
    assert port >= LOWEST


def test_a_port_handed_out_can_be_bound_and_listened_on() -> None:
    with socket.socket() as server:
        server.bind((HOST, free_port(HOST)))
        server.listen()


def test_a_process_hands_out_a_port_once() -> None:
    ports = [free_port(HOST) for _ in range(50)]
    assert len(set(ports)) == 50


@pytest.fixture
def listeners() -> Iterator[set[int]]:
    """The ports just after the last one handed out, listened on."""
    last = free_port(HOST)
    with ExitStack() as stack:
        taken = set()
        for port in range(last + 1, last + 20):
            server = stack.enter_context(socket.socket())
            try:
                server.bind((HOST, port))
            except OSError:
                continue
            server.listen()
            taken.add(port)
        yield taken


def test_a_port_something_listens_on_is_not_handed_out(listeners: set[int]) -> None:
    assert listeners, "no port next to the last one handed out could be taken"
    handed_out = free_port(HOST)
    assert handed_out not in listeners
    with socket.socket() as server:
        server.bind((HOST, handed_out))


def test_the_kernels_range_is_read_from_proc(tmp_path: Path) -> None:
    path = tmp_path / "ip_local_port_range"
    path.write_text("20000\t50000\n")
    assert ephemeral_range(path) == (20000, 50000)


def test_without_proc_the_range_is_linuxs_default(tmp_path: Path) -> None:
    assert ephemeral_range(tmp_path / "absent") == DEFAULT_EPHEMERAL


def test_the_ports_below_linuxs_default_range_are_the_candidates() -> None:
    candidates = candidate_ports((32768, 60999))
    assert candidates[0] == LOWEST
    assert candidates[-1] == 32767
    assert len(candidates) == 32768 - LOWEST


def test_a_range_starting_low_leaves_the_ports_above_it() -> None:
    assert candidate_ports((1024, 50000)) == list(range(50001, 65536))
