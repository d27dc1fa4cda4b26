"""The core: tables, commands and who may do what, with no words and no platform.

Commands (``commands``) are checked and run by one dispatch (``service``), which forwards what another
process holds through the cluster (``cluster/``); the table manager (``manager``) over the table
parts (``tables/``) runs the engine, writes every move to storage before anyone hears of it and
publishes the update. Imports only ``ai``, ``engine`` and ``storage`` below it.
"""
