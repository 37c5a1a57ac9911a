"""Glance's resource types (OS::Glance::*); each module's RESOURCE_CLASSES registers its
types (``cloud_types.FAMILY_MODULES``)."""
