"""Task families built from the same corpus as the summaries (see base.py for the contract)."""
