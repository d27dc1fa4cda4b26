"""The ``majlis`` command: ``main`` parses and dispatches; ``common`` holds what every subcommand
shares; ``db`` and ``web`` add their subcommands; ``failures`` turns a failure into one clear line."""
