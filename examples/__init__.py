"""Bundled example targets: each folder holds target.py, symptom.txt, an optional change.diff and example.toml."""
