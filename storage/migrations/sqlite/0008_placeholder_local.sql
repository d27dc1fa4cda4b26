-- LOCAL STAND-IN, never committed: the tgeph branch adds the real 0008.
SELECT 1;
