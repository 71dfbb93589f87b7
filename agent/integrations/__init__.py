"""Integrations that need no wrapper command: observe a live training run in this process and report.

- `session.Watch` / `debug_agent.watch(model, optimizer)`: for notebooks and hand-written loops.
- `lightning.DebugAgentCallback`: a `lightning.pytorch` Callback.
- `hf.DebugAgentCallback`: a Hugging Face `transformers.TrainerCallback`.

Each installs the same `Observer` the `ask -- python train.py` child uses, captures a Target from the
run and calls `engine.ask` with the in-process `LocalRunner`. Importing this package imports nothing
heavy; `lightning.py` and `hf.py` import their framework at module import (with a clear ImportError
when it is missing), and nothing else in debug_agent imports them.

May import: schemas, errors, isolation, engine, report (never the CLI, the API module or the LLM room).
"""
