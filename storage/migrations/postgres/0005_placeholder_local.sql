-- LOCAL STAND-IN, never committed: the tgeph branch adds the real 0005.
SELECT 1;
