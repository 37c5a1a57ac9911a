"""Nova's resource types (OS::Nova::*); each module's RESOURCE_CLASSES registers its
types (``cloud_types.FAMILY_MODULES``)."""
