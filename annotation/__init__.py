"""LLM drafts, Label Studio sync, review / agreement / quality checks (not built yet)."""
