"""The rolling update's PauseTime: the ISO 8601 durations Heat reads (PT#H#M#S only)."""

from __future__ import annotations

import pytest

from keel_app.resources.aws.autoscaling_group import parse_iso_duration


@pytest.mark.parametrize(
    ("duration", "seconds"),
    [("PT0S", 0), ("PT1S", 1), ("PT2M", 120), ("PT1H", 3600), ("PT1H30M5S", 5405), ("PT", 0)],
)
def test_a_duration_is_read_as_seconds(duration: str, seconds: int) -> None:
    assert parse_iso_duration(duration) == seconds


@pytest.mark.parametrize("duration", ["P1D", "1H", "PT1.5S", "PT1S ", ""])
def test_other_durations_are_refused_as_heat_refuses_them(duration: str) -> None:
    with pytest.raises(ValueError) as refusal:
        parse_iso_duration(duration)
    assert str(refusal.value) == "Only ISO 8601 duration format of the form PT#H#M#S is supported."
