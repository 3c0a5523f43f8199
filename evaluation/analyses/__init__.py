"""Analyses of how models use their context (`lengthwise analyse NAME RUN_DIR...`).

One module per analysis; each has ``analyse(runs, out, ...) -> AnalysisOutput`` and
writes PNG plots into `out`; `commands.py` writes the JSON table beside them.
"""
