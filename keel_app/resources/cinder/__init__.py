"""Cinder's resource types (OS::Cinder::*); each module's RESOURCE_CLASSES registers its
types (``cloud_types.FAMILY_MODULES``)."""
