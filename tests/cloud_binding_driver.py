"""An ML2 mechanism driver for the test cloud's neutron, which has no agents: it binds
every port to the first segment offered, as an OVS port already ACTIVE, so that nova's
servers boot on the ports. It runs inside neutron's virtual environment (tests/cloud.py
copies it there beside an entry point named ``keel_loopback``); nothing imports it here.

The QoS and trunk service plugins only serve what a loaded backend declares it can do
(the QoS plugin offers no rule type, the trunk plugin refuses to start, without one), so
the driver also declares, for the ports it binds, every QoS rule type and VLAN subports.
"""

from neutron.services.trunk.drivers import base as trunk_base
from neutron_lib import constants
from neutron_lib.api.definitions import portbindings
from neutron_lib.db import constants as db_constants
from neutron_lib.plugins.ml2 import api
from neutron_lib.services.qos import base as qos_base
from neutron_lib.services.qos import constants as qos_constants
from neutron_lib.services.trunk import constants as trunk_constants

NAME = "keel_loopback"

_ANY_RATE = {"type:range": [0, db_constants.DB_INTEGER_MAX_VALUE]}
_DIRECTIONS = {"type:values": constants.VALID_DIRECTIONS}
QOS_RULES = {
    qos_constants.RULE_TYPE_BANDWIDTH_LIMIT: {
        qos_constants.MAX_KBPS: _ANY_RATE,
        qos_constants.MAX_BURST: _ANY_RATE,
        qos_constants.DIRECTION: _DIRECTIONS,
    },
    qos_constants.RULE_TYPE_PACKET_RATE_LIMIT: {
        qos_constants.MAX_KPPS: _ANY_RATE,
        qos_constants.MAX_BURST_KPPS: _ANY_RATE,
        qos_constants.DIRECTION: _DIRECTIONS,
    },
    qos_constants.RULE_TYPE_DSCP_MARKING: {
        qos_constants.DSCP_MARK: {"type:values": constants.VALID_DSCP_MARKS},
    },
    qos_constants.RULE_TYPE_MINIMUM_BANDWIDTH: {
        qos_constants.MIN_KBPS: _ANY_RATE,
        qos_constants.DIRECTION: _DIRECTIONS,
    },
    qos_constants.RULE_TYPE_MINIMUM_PACKET_RATE: {
        qos_constants.MIN_KPPS: _ANY_RATE,
        qos_constants.DIRECTION: {"type:values": constants.VALID_DIRECTIONS_AND_ANY},
    },
}


class LoopbackQosDriver(qos_base.DriverBase):
    """Accepts every rule for the ports bound here; nothing enforces them."""

    def validate_rule_for_port(self, context, rule, port) -> bool:
        return True


class LoopbackTrunkDriver(trunk_base.DriverBase):
    """Agentless: a trunk stays as Neutron made it (DOWN), its subports unbound."""

    @property
    def is_loaded(self) -> bool:
        return True


class LoopbackBindingDriver(api.MechanismDriver):
    def initialize(self) -> None:
        # Made before the service plugins start, which ask the registry for backends.
        self.qos_driver = LoopbackQosDriver(
            name=NAME,
            vif_types=[portbindings.VIF_TYPE_OVS],
            vnic_types=[portbindings.VNIC_NORMAL],
            supported_rules=QOS_RULES,
            requires_rpc_notifications=False,
        )
        self.trunk_driver = LoopbackTrunkDriver(
            NAME,
            (portbindings.VIF_TYPE_OVS,),
            (trunk_constants.SEGMENTATION_TYPE_VLAN,),
            can_trunk_bound_port=True,
        )

    def bind_port(self, context: api.PortContext) -> None:
        for segment in context.segments_to_bind:
            context.set_binding(
                segment[api.ID],
                portbindings.VIF_TYPE_OVS,
                {portbindings.CAP_PORT_FILTER: True},
                status=constants.PORT_STATUS_ACTIVE,
            )
            return
