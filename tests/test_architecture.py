"""The house rules that tools can check: module size, room layout, import-time torch, import contracts."""

from __future__ import annotations

import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIGHT_ROOMS = ("cli", "cues", "engine", "intake", "llm", "report")


def _modules(room: str) -> list[str]:
    folder = ROOT / "agent" / room
    return [f"debug_agent.{room}"] + [f"debug_agent.{room}.{m.name}" for m in pkgutil.iter_modules([str(folder)])]


def test_light_rooms_do_not_import_torch_at_import_time():
    """`--help`, `render`, `catalog` and an `ask` without code never pay for torch."""
    mods = [m for room in LIGHT_ROOMS for m in _modules(room)] + ["debug_agent.plugins", "debug_agent.builtins"]
    code = "import importlib, sys\n" + "".join(f"importlib.import_module({m!r})\n" for m in mods)
    code += "print(sorted(m for m in sys.modules if m == 'torch' or m.startswith('debug_agent.probes')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_modules_stay_small_and_the_top_level_stays_short():
    sources = [p for folder in ("agent", "probes", "schemas") for p in (ROOT / folder).rglob("*.py")]
    big = {str(p.relative_to(ROOT)): n for p in sources if (n := len(p.read_text().splitlines())) > 400}
    assert big == {}
    top = [p.name for p in (ROOT / "agent").glob("*.py")]
    assert len(top) <= 12, top


@pytest.mark.skipif(shutil.which("lint-imports") is None, reason="import-linter is not installed")
def test_import_contracts_hold(tmp_path):
    """import-linter on a real (non-editable) install of the package: the rooms' contracts."""
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
         str(ROOT)],
        check=True, capture_output=True,
    )
    env = {k: v for k, v in os.environ.items() if k in ("HOME", "PATH", "VIRTUAL_ENV")} | {"PYTHONPATH": str(target)}
    proc = subprocess.run(
        [shutil.which("lint-imports") or "lint-imports", "--config", str(ROOT / "pyproject.toml")],
        capture_output=True, text=True, cwd=tmp_path, env=env,
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
