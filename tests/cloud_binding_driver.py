"""An ML2 mechanism driver for the test cloud's neutron, which has no agents: it binds
every port to the first segment offered, as an OVS port already ACTIVE, so that nova's
servers boot on the ports. It runs inside neutron's virtual environment (tests/cloud.py
copies it there beside an entry point named ``keel_loopback``); nothing imports it here.
"""

from neutron_lib import constants
from neutron_lib.api.definitions import portbindings
from neutron_lib.plugins.ml2 import api


class LoopbackBindingDriver(api.MechanismDriver):
    def initialize(self) -> None:
        pass

    def bind_port(self, context: api.PortContext) -> None:
        for segment in context.segments_to_bind:
            context.set_binding(
                segment[api.ID],
                portbindings.VIF_TYPE_OVS,
                {portbindings.CAP_PORT_FILTER: True},
                status=constants.PORT_STATUS_ACTIVE,
            )
            return
