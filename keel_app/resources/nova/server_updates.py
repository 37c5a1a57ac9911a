"""How a Server changes in place: the changes made at once, then steps polled in order.

Name, metadata, tags and the admin password change with one call each. A new flavor is
two steps (resize, then confirm the resize once Nova asks to verify it), a new image one
(rebuild), a new user data under ``user_data_update_policy: REBUILD`` one (rebuild with
the same image and the new user data), changed networks one step per interface detached
or attached (``server_network_updates``). The steps are ``server_steps``' (the resize
and interface handlers are shared with AWS::EC2::Instance).
"""

from __future__ import annotations

import base64
from typing import Any

from keel_app.common import exception
from keel_app.resources.nova.server_steps import ServerSteps, step


class ServerUpdates(ServerSteps):
    """Mixed into the Server."""

    def needs_replace_with_prop_diff(
        self, changed_properties_set: Any, after_props: Any, before_props: Any
    ) -> bool:
        for changed, policy in (
            ("flavor", "flavor_update_policy"),
            ("image", "image_update_policy"),
        ):
            if changed in changed_properties_set:
                if (after_props.get(policy) or before_props.get(policy)) == "REPLACE":
                    return True
        if "user_data" in changed_properties_set:
            policy = after_props.get("user_data_update_policy") or before_props.get(
                "user_data_update_policy"
            )
            return bool(policy == "REPLACE")
        return False

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> list[Any]:
        server: Any = self
        nova = server.nova()
        # New template metadata, and a new software config transport.
        server.update_transports(json_snippet, tmpl_diff, prop_diff)
        after = json_snippet.properties(server.properties_schema, server.context)
        server.translate_properties(after)
        steps: list[dict[str, Any]] = []
        if "metadata" in prop_diff:
            self.replace_metadata(after["metadata"])
        if "tags" in prop_diff:
            server.set_tags(after["tags"] or [])
        if "name" in prop_diff and after["name"] is not None:
            nova.request(
                "PUT", f"servers/{server.resource_id}", {"server": {"name": after["name"]}}
            )
        if "networks" in prop_diff:
            steps.extend(self.network_steps(after))
        if "flavor" in prop_diff:
            steps.append(step("resize", after["flavor"]))
            steps.append(step("verify_resize"))
        if "user_data" in prop_diff and after["user_data_update_policy"] == "REBUILD":
            steps.append(step("rebuild_user_data", server.user_data(after)))
        if "image" in prop_diff:
            metadata = after["metadata"]
            steps.append(
                step(
                    "rebuild",
                    after["image"],
                    after["admin_pass"],
                    after["image_update_policy"] == "REBUILD_PRESERVE_EPHEMERAL",
                    None if metadata is None else nova.meta_serialize(metadata),
                    checker_arguments=[],
                )
            )
        elif "admin_pass" in prop_diff:
            nova.server_action(
                server.resource_id, "changePassword", {"adminPass": after["admin_pass"]}
            )
        return steps

    def check_update_complete(self, steps: list[dict[str, Any]] | None) -> bool:
        """Push the steps to completion in order: start one, or check the one started."""
        server: Any = self
        done = self.advance_steps(steps or [])
        self.delete_detached_internal_ports(steps or [])
        if done:
            server.store_external_ports(server.nova().interfaces(server.resource_id))
        return done

    # Metadata

    def replace_metadata(self, metadata: Any) -> None:
        server: Any = self
        nova = server.nova()
        nova.meta_update(nova.get_server(server.resource_id), metadata)

    # Rebuild

    def start_rebuild(
        self,
        image: str,
        password: str | None = None,
        preserve_ephemeral: bool = False,
        metadata: dict[str, str] | None = None,
    ) -> bool:
        server: Any = self
        if self.fetch() is None:
            return False
        body: dict[str, Any] = {"imageRef": image}
        if password is not None:
            body["adminPass"] = password
        if preserve_ephemeral:
            body["preserve_ephemeral"] = True
        if metadata:
            body["metadata"] = metadata
        server.nova().server_action(server.resource_id, "rebuild", body)
        return True

    def check_rebuild(self, *_arguments: Any) -> bool:
        found = self.fetch()
        if found is None or found["status"] == "REBUILD":
            return False
        if found["status"] == "ERROR":
            raise exception.Error(f"Rebuilding server failed, status '{found['status']}'")
        return True

    def start_rebuild_user_data(self, user_data: str | None) -> bool:
        # Heat hands the user data to novaclient's rebuild as the image (a bug that can
        # only fail); rebuilding the same image with the new user data is what is meant.
        server: Any = self
        found = self.fetch()
        if found is None:
            return False
        image = found.get("image") or {}
        body: dict[str, Any] = {
            "imageRef": image.get("id") if isinstance(image, dict) else "",
            "user_data": base64.b64encode((user_data or "").encode()).decode()
            if user_data
            else None,
        }
        server.nova().server_action(server.resource_id, "rebuild", body)
        return True

    def check_rebuild_user_data(self, *_arguments: Any) -> bool:
        return self.check_rebuild()
