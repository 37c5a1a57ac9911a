"""Glance's client plugin: the image v2 API in glanceclient's shapes and errors, and the
``glance.image`` constraint's look-up by name or id.

Requests go through openstacksdk's ``image`` proxy (its session and the v2 endpoint);
answers are the API's dicts, failures glanceclient's exceptions (``glance_errors``) so
that they read as they do in Heat.
"""

from __future__ import annotations

import uuid
from typing import Any

from keel_app.clients import glance_errors
from keel_app.clients.client_exception import EntityMatchNotFound, EntityUniqueMatchNotFound
from keel_app.clients.client_plugin import ClientPlugin

JSON_PATCH = "application/openstack-images-v2.1-json-patch"


def is_uuid_like(value: str) -> bool:
    try:
        return str(uuid.UUID(value)).replace("-", "") == value.replace("-", "").lower()
    except (TypeError, ValueError, AttributeError):
        return False


class GlanceClientPlugin(ClientPlugin):
    name = "glance"
    service_types = ("image",)
    proxy = "image"

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        params: dict[str, Any] | None = None,
        content_type: str = "application/json",
    ) -> Any:
        """One call of Glance's v2 API; the answer's body, or glanceclient's error."""
        response = self.client().request(
            "/" + path.lstrip("/"),
            method,
            json=body,
            params=params,
            raise_exc=False,
            # No JSON asked for: Glance's faults then come as HTML, which is what
            # glanceclient reads them from.
            headers={"Content-Type": content_type},
        )
        if response.status_code >= 400:
            raise glance_errors.from_response(response)
        if not response.content:
            return None
        try:
            return response.json()
        except ValueError:
            return response.text

    # Images

    def show_image(self, image_id: str) -> dict[str, Any]:
        return dict(self.request("GET", f"images/{image_id}"))

    def update_image(
        self, image_id: str, remove: list[str] | None = None, **changes: Any
    ) -> dict[str, Any]:
        """Set (and remove) image properties with one JSON patch, as glanceclient does."""
        image = self.show_image(image_id)
        patch = [
            {"op": "replace" if key in image else "add", "path": f"/{key}", "value": value}
            for key, value in changes.items()
        ]
        patch += [
            {"op": "remove", "path": f"/{key}"}
            for key in sorted(set(remove or ()) - set(changes))
            if key in image
        ]
        if patch:
            self.request("PATCH", f"images/{image_id}", patch, content_type=JSON_PATCH)
        return self.show_image(image_id)

    # What an error means, for glanceclient's classes

    def is_not_found(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, (EntityMatchNotFound, glance_errors.HTTPNotFound))

    def is_over_limit(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, glance_errors.HTTPOverLimit)

    def is_conflict(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, glance_errors.HTTPConflict)

    def is_client_exception(self, error: BaseException) -> bool:
        return isinstance(
            error, (glance_errors.HTTPException, EntityMatchNotFound)
        ) or super().is_client_exception(error)

    # Finding images

    def find_image_by_name_or_id(self, image_identifier: str) -> str:
        """The id of the image with that id, else of the one image with that name."""
        return str(self.get_image(image_identifier)["id"])

    def get_image(self, image_identifier: str) -> dict[str, Any]:
        if is_uuid_like(image_identifier):
            try:
                return self.show_image(image_identifier)
            except glance_errors.HTTPNotFound:
                pass
        found = self.request("GET", "images", params={"name": image_identifier})["images"]
        arguments = {"name": image_identifier}
        if not found:
            raise EntityMatchNotFound(entity="images", args=arguments)
        if len(found) > 1:
            raise EntityUniqueMatchNotFound(entity="images", args=arguments)
        return dict(found[0])
