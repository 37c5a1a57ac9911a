"""Swift's resource types (OS::Swift::*); each module's RESOURCE_CLASSES registers its
types (``cloud_types.FAMILY_MODULES``)."""
