"""The words: what a person reads of a table, in their language.

The presenter turns the core's updates into messages (``render/``, pure functions of a view and a
translator) and hands them to the outboxes (``outbox/``), which pace them within each platform's
budget. Imports ``core`` and below, never an adapter.
"""
