"""The edges: Telegram, Discord, the web table and the terminal, each mapping its events onto the
core's commands and showing what ``present`` renders. An adapter never imports another adapter or
``app``."""
