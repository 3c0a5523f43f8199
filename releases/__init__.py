"""Dataset statistics, release folder, dataset card, manifest, Hub publish, download (to come)."""
