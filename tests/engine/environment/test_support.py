from __future__ import annotations

import pytest

from keel_app.engine.environment.support import DEPRECATED, SupportStatus, is_valid_status


def test_to_dict_includes_the_previous_status() -> None:
    status = SupportStatus(
        DEPRECATED,
        message="Use X.",
        version="9.0.0",
        previous_status=SupportStatus(version="5.0.0"),
    )
    assert status.to_dict() == {
        "status": "DEPRECATED",
        "message": "Use X.",
        "version": "9.0.0",
        "previous_status": {
            "status": "SUPPORTED",
            "message": None,
            "version": "5.0.0",
            "previous_status": None,
        },
    }


def test_unknown_status_degrades_to_unknown() -> None:
    status = SupportStatus("RETIRED", message="old", version="1.0")
    assert (status.status, status.message, status.version) == (
        "UNKNOWN",
        "Specified status is invalid, defaulting to UNKNOWN",
        None,
    )


def test_previous_status_must_be_a_status() -> None:
    with pytest.raises(ValueError) as raised:
        SupportStatus(previous_status="SUPPORTED")  # type: ignore[arg-type]
    assert str(raised.value) == "previous_status must be SupportStatus instead of <class 'str'>"


def test_substitution() -> None:
    status = SupportStatus(substitute_class=int)
    assert status.is_substituted(int) is True
    assert status.is_substituted(str) is False
    assert SupportStatus().is_substituted(int) is False
    assert is_valid_status("HIDDEN") and not is_valid_status("hidden")
