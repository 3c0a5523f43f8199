"""Corpus sources, cleaning, chapter detection, screening, multi-scale sampling, selection."""
