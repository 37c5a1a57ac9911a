"""How a step's arguments read in task events (and so in Flower)."""

from __future__ import annotations

from keel_app.common.context import RequestContext
from keel_app.tasks import context_wire
from keel_app.tasks.dispatcher import SHOWN_LENGTH, shown_arguments

KEY = "shown-arguments-key-32-characters"


def _kwargs(**extra: object) -> dict[str, object]:
    context = RequestContext(
        user_id="u-1", project_id="p-1", auth_token="secret-token", roles=["member"]
    )
    return {"context": context_wire.seal(context, KEY), "resource_id": 7, **extra}


def test_the_context_shows_who_asked_and_that_credentials_are_sealed() -> None:
    shown = shown_arguments(_kwargs())

    assert "'user': 'u-1'" in shown
    assert "'project_id': 'p-1'" in shown
    assert f"'{context_wire.SEALED_KEY}': '<sealed>'" in shown
    assert "'resource_id': 7" in shown


def test_the_sealed_token_itself_is_not_shown() -> None:
    kwargs = _kwargs()
    sealed_text = kwargs["context"][context_wire.SEALED_KEY][1]  # type: ignore[index]

    shown = shown_arguments(kwargs)

    assert sealed_text not in shown
    assert "secret-token" not in shown


def test_long_arguments_are_cut() -> None:
    shown = shown_arguments(_kwargs(data={"input_data": {str(i): "x" * 50 for i in range(100)}}))

    assert len(shown) == SHOWN_LENGTH
    assert shown.endswith("...")
