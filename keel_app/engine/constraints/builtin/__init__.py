"""The custom constraints that ship with OpenKeel, registered as entry points by name."""
