"""The bundled evaluator: prompts, planning, model backends, resumable runs, metrics, reports.

`lengthwise eval` (runner.run_eval) and `lengthwise report` (report.write_report);
`metrics.rouge_l` is the per-sample score.
"""
