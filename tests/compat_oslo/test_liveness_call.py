"""Asking a Heat engine whether it listens, on a broker where no Heat service ever ran."""

from __future__ import annotations

from kombu import Connection, Exchange

from keel_app.compat_oslo import caller
from tests import fleet


def test_an_engine_on_a_broker_without_the_control_exchange_is_dead() -> None:
    with fleet.rabbit_vhost() as url:
        answered = caller.engine_listening(url, "no-such-engine", exchange="heat", timeout=1)

        # The question was asked as oslo asks it, its exchange declared on the way.
        with Connection(url) as connection:
            declared = Exchange("heat", type="topic", durable=False, auto_delete=False)
            declared(connection.channel()).declare(passive=True)

    assert answered is False
