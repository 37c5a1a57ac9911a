"""Operator maintenance of a whole database: what ``keel-manage`` does besides migrating.

Each module takes a ``Database`` and works in its own transactions; none of them is used
by the engine while it runs stacks.
"""
