"""Imports every family module so that each registers its builder (base.register_family)."""
