"""Clients of other services, on keystoneauth1 sessions."""
