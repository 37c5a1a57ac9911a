"""How long a step that waits on its resource lets pass before it asks again.

Heat asks once a second of waiting. Most waits are short, though: a nested stack of a
hundred resources, a port going ACTIVE, a volume becoming available end well inside a
second, and a second of idling per wait adds up along a chain of them. So a young wait
is asked about after as long again as it has lasted (FIRST_POLL at least), and every ask
stops at the next whole second of waiting: a step asks at every moment Heat's would,
and a few times more in the first second.
"""

from __future__ import annotations

# Seconds: Heat's step, the longest time between two asks.
POLL_INTERVAL = 1.0
FIRST_POLL = 0.1


def next_poll(started: float | None, now: float, poll_delay: float | None = None) -> float:
    """Seconds until the next ask about an action that began at ``started`` (None: not
    known, from a step sent before it was kept), ``now`` on the same clock. A resource's
    own ``poll_delay`` (Heat's PollDelay, in steps) wins."""
    if poll_delay:
        return poll_delay * POLL_INTERVAL
    if started is None:
        return POLL_INTERVAL
    # Milliseconds: clocks that add up countdowns leave a whole second a hair short.
    waited = max(0.0, round(now - started, 3))
    next_second = (waited // POLL_INTERVAL + 1) * POLL_INTERVAL
    return round(min(next_second, max(waited + FIRST_POLL, 2 * waited)) - waited, 3)
