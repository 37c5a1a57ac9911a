"""A waiting step asks again soon while the wait is young, and at every whole second of
waiting, when Heat asks."""

from __future__ import annotations

from keel_app.engine.convergence.poll_cadence import FIRST_POLL, POLL_INTERVAL, next_poll


def asks(until: float) -> list[float]:
    """The moments, counted from the action's start, at which a step asks until then."""
    moments, now = [], 0.0
    while now < until:
        now = round(now + next_poll(started=0.0, now=now), 3)
        moments.append(now)
    return moments


def test_an_action_just_begun_is_asked_again_after_the_first_poll() -> None:
    assert next_poll(started=100.0, now=100.0) == FIRST_POLL == 0.1


def test_a_young_wait_is_asked_about_after_as_long_again_as_it_lasted() -> None:
    assert next_poll(started=100.0, now=100.3) == 0.3


def test_no_ask_goes_past_the_next_whole_second_of_waiting() -> None:
    assert next_poll(started=100.0, now=100.8) == 0.2


def test_a_long_wait_is_asked_about_once_a_second_as_in_heat() -> None:
    assert next_poll(started=100.0, now=160.0) == POLL_INTERVAL == 1.0


def test_the_asks_are_heats_and_four_more_in_the_first_second() -> None:
    assert asks(until=4.0) == [0.1, 0.2, 0.4, 0.8, 1.0, 2.0, 3.0, 4.0]


def test_an_ask_a_little_late_still_comes_back_to_the_whole_second() -> None:
    assert next_poll(started=100.0, now=102.25) == 0.75


def test_a_resources_poll_delay_wins_in_heat_steps() -> None:
    assert next_poll(started=100.0, now=100.0, poll_delay=5) == 5.0


def test_a_step_sent_without_its_start_is_asked_again_after_heats_second() -> None:
    assert next_poll(started=None, now=100.0) == 1.0


def test_a_start_on_a_clock_ahead_of_this_one_gives_the_first_poll() -> None:
    # Workers of a fleet read their own clocks.
    assert next_poll(started=105.0, now=100.0) == FIRST_POLL
