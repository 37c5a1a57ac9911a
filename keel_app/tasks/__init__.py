"""The Celery edge: the app, its tasks, and what a worker process runs with.

Tasks are thin: they rebuild the request context from its sealed wire form, fetch the
worker's runtime (database, settings, dispatcher) and call the engine.
"""
