"""Reports for people and machines: terminal text, Markdown for issues, JSON, and PNG plots.

`render.py` turns a Report into text/Markdown/JSON and reads saved reports back; `plots.py` draws
the probe figures a probe declares. Rendering never computes a diagnosis.

May import: schemas, errors. Never torch, never the engine.
"""
