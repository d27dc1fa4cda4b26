"""Gettext catalogs of Majlis (domain ``messages``): ``<lang>/LC_MESSAGES/messages.po`` and ``.mo``.

Adding or changing a user-visible text:

1. write it in the code as a whole English sentence with named fields, through a translator:
   ``t.gettext("{name} took the trick", name=...)``, ``t.ngettext("{n} trick", "{n} tricks", n)``
   for every count, ``t.pgettext("suit", "Hearts")`` for a short ambiguous word (``N_("...")``
   marks an id that is translated later through a variable);
2. run ``python -m locales.update``: it extracts ``messages.pot`` with Babel, merges it into both
   catalogs (English is the ids themselves) and compiles the ``.mo`` files, which are committed;
3. translate the new entries in ``ar/LC_MESSAGES/messages.po`` (all six plural forms: zero, one,
   two, few 3-10, many 11-99, other), then run ``python -m locales.update`` again.

``tests/locales`` fails while an id lacks Arabic, a translation's fields differ from its id's, or
the template or a ``.mo`` file is out of date (``python -m locales.update --check`` says which).
"""
