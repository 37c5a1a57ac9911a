"""The orchestration engine as a library: no Flask, Celery or kombu in here."""
