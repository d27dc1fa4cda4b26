"""The Discord adapter: slash commands, the live table message, hands by DM and ephemeral replies."""
