"""Address constraints: ``ip_addr``, ``mac_addr``, ``net_cidr`` and ``ip_or_cidr``.

The address rules are neutron's (Heat validates with neutron-lib), rewritten here on top
of netaddr so that the engine needs no neutron package: an IPv4 address is written with
exactly four dotted parts and no leading zeros, a subnet always has a ``/``, and no
whitespace is allowed anywhere.
"""

from __future__ import annotations

import re
from typing import Any

import netaddr

from keel_app.engine.constraints.custom import BaseCustomConstraint


def _without_whitespace(data: Any) -> Any:
    if re.search(r"\s", data):
        raise ValueError(f"'{data}' contains whitespace")
    return data


def ip_address_problem(data: Any) -> str | None:
    """Why ``data`` is not an acceptable IP address, or None when it is one."""
    try:
        try:
            address = netaddr.IPAddress(_without_whitespace(data), flags=netaddr.core.ZEROFILL)
        except ValueError:
            address = netaddr.IPAddress(_without_whitespace(data))
        # The platform's inet_aton accepts shorthand forms ("10.1", "167772161") that
        # are refused here; leading zeros could be read as octal, so they are refused too.
        if ":" not in data and data.count(".") != 3:
            return f"'{data}' is not a valid IP address"
        if address.version == 4 and str(address) != data:
            return f"'{data}' is not an accepted IP address, '{address}' is recommended"
    except Exception:
        return f"'{data}' is not a valid IP address"
    return None


def subnet_problem(data: Any) -> str | None:
    """Why ``data`` is not an acceptable subnet (``address/prefix``), or None when it is one."""
    try:
        network = netaddr.IPNetwork(_without_whitespace(data))
        if "/" not in data or (network.version == 4 and str(network) != data):
            raise ValueError(data)
    except Exception:
        return f"'{data}' is not a valid IP subnet"
    return None


class IPConstraint(BaseCustomConstraint):
    def validate(self, value: Any, context: Any, template: Any = None) -> bool:
        self._error_message = "Invalid IP address"
        if not isinstance(value, str):
            return False
        return ip_address_problem(value) is None


class MACConstraint(BaseCustomConstraint):
    def validate(self, value: Any, context: Any, template: Any = None) -> bool:
        self._error_message = "Invalid MAC address."
        return bool(netaddr.valid_mac(value))


class CIDRConstraint(BaseCustomConstraint):
    def validate(self, value: Any, context: Any, template: Any = None) -> bool:
        try:
            netaddr.IPNetwork(netaddr.cidr_abbrev_to_verbose(value))
            problem = subnet_problem(value)
        except Exception as error:
            self._error_message = f"Invalid net cidr {error} "
            return False
        if problem is not None:
            self._error_message = problem
            return False
        return True


class IPCIDRConstraint(BaseCustomConstraint):
    def validate(self, value: Any, context: Any, template: Any = None) -> bool:
        try:
            if "/" in value:
                problem = subnet_problem(value)
            else:
                problem = ip_address_problem(value)
        except Exception:
            self._error_message = f"{value} is not a valid IP or CIDR"
            return False
        if problem is not None:
            self._error_message = problem
            return False
        return True
