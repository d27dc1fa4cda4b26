"""The process: configuration, logging, health and metrics, the runner that wires the adapters to one
table manager, and the ``majlis`` command line (``cli/``)."""
