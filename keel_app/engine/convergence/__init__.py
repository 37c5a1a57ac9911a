"""Heat's convergence engine: traversal graphs, sync points, check_resource and the life cycle.

A stack operation (``converge.converge_stack``) writes a new traversal and sends one
``check_resource`` per leaf of its graph; each ``check_resource`` (``worker``) runs one
resource step, merges what it produced into the sync points of the nodes that need it,
and sends those that are ready. The shapes stored and sent are Heat's, so a traversal
started by Heat can be finished here and the reverse.
"""
