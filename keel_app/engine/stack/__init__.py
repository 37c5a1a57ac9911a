"""The runtime stack: built from a template, stored, loaded, its state recorded."""

from keel_app.engine.stack.stack import Stack

__all__ = ["Stack"]
