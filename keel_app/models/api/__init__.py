"""The db api: Heat's database operations as named functions of a ``Database``."""
