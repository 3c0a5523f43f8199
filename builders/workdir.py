"""Kept for compatibility: the work directory's layout lives in `lengthwise.workdir`."""

from lengthwise.workdir import WorkDir, default_work_dir

__all__ = ["WorkDir", "default_work_dir"]
