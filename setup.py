"""Maps the four area folders at the repository root into the ``lengthwise`` namespace.

``builders/`` becomes ``lengthwise.builders`` and so on (top-level names such as
``releases`` already belong to other PyPI packages). Package lists are computed
so that a new sub-package needs no edit here. Metadata lives in pyproject.toml.
"""

from setuptools import find_packages, setup

AREAS = ("builders", "annotation", "releases", "evaluation")

package_dir = {"lengthwise": "lengthwise"}
packages = ["lengthwise", *(f"lengthwise.{p}" for p in find_packages("lengthwise"))]
for area in AREAS:
    package_dir[f"lengthwise.{area}"] = area
    packages.append(f"lengthwise.{area}")
    packages += [f"lengthwise.{area}.{p}" for p in find_packages(area)]

setup(package_dir=package_dir, packages=packages)
