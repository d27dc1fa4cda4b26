"""The table manager's parts, one job per module (docs/architecture.md §2).

Imports run one way: ``lobby``/``pipeline`` → ``restore`` → ``lifecycle`` → ``turns`` →
``publish``/``registry`` → storage, engine. The scheduler and the AI runner hand their results back
through a callback (``Turns(on_due=...)``) or a return value, never by importing the pipeline.
"""
