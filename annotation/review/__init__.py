"""Quality checks, agreement between annotators and the review pass that picks final summaries."""
