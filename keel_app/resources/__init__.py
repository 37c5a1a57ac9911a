"""Resource plugins, one module per family, registered as ``openkeel.resources`` entry points."""
