"""Evaluation tasks: one module per family, registered by name (see registry.py)."""
