"""OS::Neutron::ExtraRoute and OS::Neutron::ExtraRouteSet: static routes of a router.

An ExtraRoute adds one route by rewriting the router's whole route list (racy, Heat's
"at your own risk" type); its physical id is ``<router>:<destination>:<nexthop>``. An
ExtraRouteSet adds and removes its routes with the ``extraroute-atomic`` calls, so that
several sets may share a router; its routes change in place (only the difference is
sent) and its physical id is the router's id.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.neutron.base import NeutronResource
from keel_app.resources.neutron.router import RouterInterface

Route = frozenset[tuple[str, str]]


def _depend_on_interfaces_of(resource: NeutronResource, router: Any, deps: Any) -> None:
    """Routes need their next hop reachable: the router's interfaces come first."""
    for other in resource.stack.resources.values():
        if not isinstance(other, RouterInterface):
            continue
        try:
            same_router = other.properties.get(RouterInterface.ROUTER) == router()
        except (ValueError, TypeError):
            continue  # reported by validation, in its own context
        if same_router:
            deps += (resource, other)


class ExtraRoute(NeutronResource):
    required_service_extension = "extraroute"
    support_status = SupportStatus(
        status="UNSUPPORTED", message="Use this resource at your own risk."
    )
    type_description = """\
Resource for specifying extra routes for Neutron router.

Resource allows to specify nexthop IP and destination network for router.
"""

    PROPERTIES = (ROUTER_ID, DESTINATION, NEXTHOP) = ("router_id", "destination", "nexthop")

    properties_schema = {
        ROUTER_ID: Schema(
            Schema.STRING,
            description="The router id.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.router")],
        ),
        DESTINATION: Schema(Schema.STRING, description="Network in CIDR notation.", required=True),
        NEXTHOP: Schema(Schema.STRING, description="Nexthop IP address.", required=True),
    }

    def add_dependencies(self, deps: Any) -> None:
        super().add_dependencies(deps)
        _depend_on_interfaces_of(self, lambda: self.properties[self.ROUTER_ID], deps)

    def _route(self) -> dict[str, str]:
        return {
            "destination": self.properties[self.DESTINATION],
            "nexthop": self.properties[self.NEXTHOP],
        }

    def handle_create(self) -> None:
        router_id = self.properties.get(self.ROUTER_ID)
        routes = self.neutron().show("router", router_id).get("routes") or []
        route = self._route()
        if route in routes:
            raise exception.Error("Route duplicates an existing route.")
        self.neutron().update("router", router_id, {"routes": [*routes, route]})
        self.resource_id_set(f"{router_id}:{route['destination']}:{route['nexthop']}")

    def handle_delete(self) -> None:
        if not self.resource_id:
            return
        router_id = self.properties[self.ROUTER_ID]
        with self.neutron().ignore_not_found():
            routes = self.neutron().show("router", router_id).get("routes", [])
            route = self._route()
            if route not in routes:
                return
            routes.remove(route)
            self.neutron().update("router", router_id, {"routes": routes})

    def needs_replace_failed(self) -> bool:
        return True


def _as_set(routes: list[dict[str, str]]) -> set[Route]:
    return {frozenset(route.items()) for route in routes}


def _as_list(routes: set[Route]) -> list[dict[str, str]]:
    return [dict(route) for route in routes]


class ExtraRouteSet(NeutronResource):
    required_service_extension = "extraroute-atomic"
    support_status = SupportStatus(version="14.0.0")
    type_description = """\
Resource for specifying extra routes for a Neutron router.

Requires Neutron ``extraroute-atomic`` extension to be enabled::

  $ openstack extension show extraroute-atomic

An extra route is a static routing table entry that is added beyond
the routes managed implicitly by router interfaces and router gateways.

The ``destination`` of an extra route is any IP network in /CIDR notation.
The ``nexthop`` of an extra route is an IP in a subnet that is directly
connected to the router.

In a single OS::Neutron::ExtraRouteSet resource you can specify a
set of extra routes (represented as a list) on the same virtual
router. As an improvement over the (never formally supported)
OS::Neutron::ExtraRoute resource this resource plugin uses a Neutron
API extension (``extraroute-atomic``) that is not prone to race
conditions when used to manage multiple extra routes of the same
router. It is safe to manage multiple extra routes of the same router
from multiple stacks.

On the other hand use of the same route on the same router is not safe
from multiple stacks (or between Heat and non-Heat managed Neutron extra
routes).
"""

    PROPERTIES = (ROUTER, ROUTES) = ("router", "routes")
    ROUTE_KEYS = (DESTINATION, NEXTHOP) = ("destination", "nexthop")

    properties_schema = {
        ROUTER: Schema(
            Schema.STRING,
            description="The router id.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.router")],
        ),
        ROUTES: Schema(
            Schema.LIST,
            "A set of route dictionaries for the router.",
            schema=Schema(
                Schema.MAP,
                schema={
                    DESTINATION: Schema(
                        Schema.STRING,
                        "The destination network in CIDR notation.",
                        required=True,
                        constraints=[constraints.CustomConstraint("net_cidr")],
                    ),
                    NEXTHOP: Schema(
                        Schema.STRING,
                        "The next hop for the destination.",
                        required=True,
                        constraints=[constraints.CustomConstraint("ip_addr")],
                    ),
                },
            ),
            default=[],
            update_allowed=True,
        ),
    }

    def add_dependencies(self, deps: Any) -> None:
        super().add_dependencies(deps)
        _depend_on_interfaces_of(self, lambda: self.properties[self.ROUTER], deps)

    def _change_routes(self, router: str, action: str, routes: list[dict[str, str]]) -> None:
        self.neutron().request(
            "PUT", f"routers/{router}/{action}_extraroutes", {"router": {"routes": routes}}
        )

    def _refuse_duplicates(self, router: str, routes: list[dict[str, str]]) -> None:
        """A route the router has already would be taken away with this set: refused."""
        existing = _as_set(self.neutron().show("router", router)["routes"])
        for route in _as_set(routes):
            if route in existing:
                found = dict(route)
                # Heat names the router here by a module's repr (its install path):
                # the router's id says the same without showing the server's files.
                name = f"{router},{found['destination']}={found['nexthop']}"
                raise exception.PhysicalResourceExists(name=name)

    def handle_create(self) -> None:
        router = self.properties[self.ROUTER]
        routes = self.properties[self.ROUTES]
        self._refuse_duplicates(router, routes)
        self._change_routes(router, "add", routes)
        # A set of routes has no id of its own: the router's says where it lives.
        self.resource_id_set(router)

    def handle_delete(self) -> None:
        if not self.resource_id:
            return
        with self.neutron().ignore_not_found():
            self._change_routes(
                self.properties[self.ROUTER], "remove", self.properties[self.ROUTES]
            )

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        # The whole set is never replaced, or routes kept would vanish for a while:
        # only the difference between the old and new lists is sent.
        prop_diff.pop(self.ROUTES, None)
        old = _as_set(self.properties[self.ROUTES] or [])
        new = _as_set(
            json_snippet.properties(self.properties_schema, self.context)[self.ROUTES] or []
        )
        router = self.properties[self.ROUTER]
        added = _as_list(new - old)
        self._refuse_duplicates(router, added)
        self._change_routes(router, "remove", _as_list(old - new))
        self._change_routes(router, "add", added)

    def needs_replace_failed(self) -> bool:
        return True


RESOURCE_CLASSES = {
    "OS::Neutron::ExtraRoute": ExtraRoute,
    "OS::Neutron::ExtraRouteSet": ExtraRouteSet,
}
