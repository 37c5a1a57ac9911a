"""The two ways validate_template answers other than with the document.

Heat's validate_template answers a template it cannot accept with ``{"Error":
message}``, and two malformed requests with a ``webob.exc.HTTPBadRequest`` object that
it *returns* rather than raises (heat/engine/service.py; spec §1.2): no template,
and unknown codes in ``ignorable_errors``. The engine imports no web framework, so
that object is ``BadRequest`` here; the API layer turns it into its HTTP 400.
"""

from __future__ import annotations


class BadRequest(Exception):
    """What Heat hands back as ``webob.exc.HTTPBadRequest(explanation=...)``."""

    def __init__(self, explanation: str) -> None:
        super().__init__(explanation)
        self.explanation = explanation

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BadRequest):
            return NotImplemented
        return self.explanation == other.explanation

    def __hash__(self) -> int:
        return hash(self.explanation)


class TemplateInvalid(Exception):
    """An error Heat reports as ``{"Error": str(error)}`` instead of raising it.

    ``error`` is the original exception (its class is what a command line tool shows).
    """

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error

    def answer(self) -> dict[str, str]:
        return {"Error": str(self.error)}
