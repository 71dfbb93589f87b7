"""The engine: triage -> plan -> run -> weigh -> narrate, returning a Report. It never prints.

Modules: `pipeline.py` (ask and its steps), `catalog.py` (loading and checking the failure-mode
catalog, built-in and plug-in TOML), `evidence.py` (the log-odds ledger), `planner.py` (which probes
separate the candidates per unit of cost), `narrative.py` (catalog words + located evidence -> the
nine report fields), `questions.py` (the chat question with the largest expected information gain).

May import: schemas, errors, cues, plugins, llm (the optional assistant), and the probe registry's
metadata only (ProbeInfo arrives from the runner). Never torch at import time, never the CLI.
"""

from __future__ import annotations

from debug_agent.engine.pipeline import AskOptions, ProbeRunner, Progress, Triage, ask, run_probes, triage

__all__ = ["AskOptions", "ProbeRunner", "Progress", "Triage", "ask", "run_probes", "triage"]
