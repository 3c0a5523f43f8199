"""lengthwise: build, annotate, release and evaluate multi-scale long-context benchmarks."""

from pathlib import Path as _Path

__version__ = "0.1.0"

# The area folders (builders/, annotation/, releases/, evaluation/) sit at the repository
# root and are mapped into this namespace by setup.py. When this package is imported
# straight from a source checkout (e.g. `python -m ...` run in the repository root, which
# puts the root's `lengthwise/` first on sys.path), let the root stand in for that mapping.
_root = _Path(__file__).parent.parent
if (_root / "setup.py").is_file() and (_root / "builders" / "__init__.py").is_file():
    __path__.append(str(_root))
