"""Pure functions from tables to summaries and findings; no I/O, no HTTP."""
