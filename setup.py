"""Packaging metadata lives in pyproject.toml; this file only exists for old tooling.

The four area folders at the repository root are reached as ``lengthwise.<area>``
through symlinks inside ``lengthwise/`` (``lengthwise/builders -> ../builders``), so an
editable install imports the files where they are: no link tree, tracebacks show the
checkout's paths, a new module is importable without reinstalling, and reinstalling
never rewrites files a running command has open.
"""

from setuptools import setup

setup()
