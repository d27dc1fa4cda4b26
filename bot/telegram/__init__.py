"""Telegram adapter: Majlis tables in groups, hands in private chats (python-telegram-bot v22)."""
