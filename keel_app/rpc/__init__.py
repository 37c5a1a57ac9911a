"""The engine's RPC client: Heat's ``EngineClient`` over a transport of our choice.

``contract`` is Heat's engine API as data, ``methods`` which of its calls OpenKeel serves
and with which service function, ``client`` the ``EngineClient``, ``server`` what an
engine does with a call, ``reply`` the reply both transports carry. Transports:
``local`` (in-process) and ``celery_transport`` (a task on the ``engine`` queue, served
by ``keel_app.tasks.engine_rpc``).
"""
