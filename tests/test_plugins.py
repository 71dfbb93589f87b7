"""Plug-ins: a tiny distribution from tests/plugin_example adds a failure mode, a probe and a cue, and
the CLI sees all three exactly as it sees the built-ins (which register through the same hooks)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = Path(__file__).parent / "plugin_example"

TARGET = '''
import torch
from torch import nn


class Zeroed(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2)

    def forward(self, x):
        return self.net(x) * 0.0


def make_target():
    torch.manual_seed(0)
    x, y = torch.randn(16, 4), torch.randint(0, 2, (16,))
    return {"model": Zeroed(), "batch": (x, y), "loss_fn": nn.CrossEntropyLoss()}
'''


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("plugin") / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(PLUGIN)],
        check=True,
        capture_output=True,
    )
    return site


def _cli(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ) | {"PYTHONPATH": str(site), "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "debug_agent", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
    )


def test_plugin_probe_cue_and_failure_mode_are_listed(plugin_site: Path, tmp_path: Path):
    probes = _cli(plugin_site, "probes", cwd=tmp_path)
    assert probes.returncode == 0, probes.stderr
    assert "output_spread" in probes.stdout
    cat = _cli(plugin_site, "catalog", "example.output_zeroed", cwd=tmp_path)
    assert cat.returncode == 0, cat.stderr
    assert "the model's output is multiplied by zero" in cat.stdout
    assert "times_zero" in cat.stdout


def test_plugin_takes_part_in_a_diagnosis(plugin_site: Path, tmp_path: Path):
    (tmp_path / "target.py").write_text(TARGET)
    proc = _cli(plugin_site, "ask", "the predictions are all zero", "--target", "target.py", "--format", "json",
                "--offline", "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["cause_id"] == "example.output_zeroed"
    sources = [o["source"] for o in report["observations"]]
    assert "probe:output_spread" in sources
    assert any(s.startswith("source:") and s.endswith(":12") for s in sources)


def test_without_the_plugin_its_entry_does_not_exist(tmp_path: Path):
    proc = subprocess.run(
        [sys.executable, "-m", "debug_agent", "catalog", "example.output_zeroed"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert proc.returncode == 2
