"""Dataset statistics, release folder, dataset card, manifest, Hub publish and download (not built yet)."""
