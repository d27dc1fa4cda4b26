"""Several processes on one database: a command for a table held elsewhere is forwarded to its holder
(``routing``) in a small wire format (``wire``)."""
