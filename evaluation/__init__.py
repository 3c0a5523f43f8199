"""Prompts, model backends, runs, metrics, analyses, reports (not built yet)."""
