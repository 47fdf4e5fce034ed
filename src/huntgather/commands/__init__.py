"""Sub-commands of ``huntgather``: one module each, with ``register(subparsers)``."""
