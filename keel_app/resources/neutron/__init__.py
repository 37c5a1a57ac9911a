"""Neutron's resource types (OS::Neutron::*), one module each on ``base.NeutronResource``;
each module's RESOURCE_CLASSES registers its types (``cloud_types.FAMILY_MODULES``)."""
