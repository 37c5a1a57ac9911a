"""The resource types implemented inside the engine: no cloud service needed (OS::Heat::*).

Each module declares its types' properties, attributes, update policies and support
status, and the extra checks their ``validate`` makes. The life-cycle steps
(``handle_create`` and friends) arrive with the engine.
"""
