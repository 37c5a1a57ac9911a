"""Keystone's resource types (OS::Keystone::*); each module's RESOURCE_CLASSES registers its
types (``cloud_types.FAMILY_MODULES``)."""
