"""Gettext catalogs of Majlis (domain ``messages``): ``<lang>/LC_MESSAGES/messages.po`` and ``.mo``.

The template ``messages.pot`` is extracted from the code with Babel; ``python -m locales.update``
re-extracts it, merges it into every language and compiles the ``.mo`` files (which are shipped).
"""
