"""The held-out corpus of real bug reports cannot rot: every case still shows its symptom, every case.toml is valid.

Each case's check.py reproduces the reported symptom with plain torch and raises when it no longer
shows; all checks run in this one process (torch on one thread). The catalog side: every cause a case
names exists, and every defect / not-a-bug entry of the catalog is exercised by at least one corpus case
or bundled example. Nothing here reads the symptom texts.
"""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import pytest
import torch

from debug_agent.engine import catalog
from debug_agent.intake import bundled

CORPUS = Path(__file__).resolve().parent.parent / "benchmarks" / "realworld"
CASES = sorted(p.parent for p in CORPUS.glob("*/case.toml"))
KINDS = {"bug", "not_bug"}
OPTIONAL = {"transformers", "lightning", "accelerate"}  # a case built on them skips without the extras
# Batches written blind to the engine; benchmarks/realworld_eval.py reports each apart. Each was held out and
# measured once before the engine was tuned on it (benchmarks/realworld_eval.py says which, if any, is held out).
FRESH_BATCHES = (
    "fresh-2026-11-30",
    "fresh-2026-11-30b",
    "fresh-2026-11-30c",
    "fresh-2026-11-30d",
    "fresh-2026-11-30e",
    "fresh-2026-11-30f",
    "fresh-2026-11-30g",
    "fresh-2026-11-30h",
    "fresh-2026-11-30i",
    "fresh-2026-11-30j",
    "fresh-2026-11-30k",
    "fresh-2026-12-01l",
    "fresh-2026-12-01m",
    "fresh-2026-12-01n",
    "fresh-2026-12-01o",
    "fresh-2026-12-02p",
    "fresh-2026-12-02q",
    "fresh-2026-12-02r",
    "fresh-2026-12-02s",
    "fresh-2026-12-02t",
    "fresh-2026-12-02u",
    "fresh-2026-12-02v",
    "fresh-2026-12-02w",
    "fresh-2026-12-02x",
    "fresh-2026-12-03y",
    "fresh-2026-12-03z",
    "fresh-2026-12-03t",
    "fresh-2026-12-04u",
    "fresh-2026-12-04v",
    "fresh-2026-12-04w",
)


def _meta(folder: Path) -> dict:
    return tomllib.loads((folder / "case.toml").read_text(encoding="utf-8"))


def test_every_case_folder_has_its_case_toml():
    """A folder without case.toml would drop out of the corpus (and its figures) without a word."""
    folders = sorted(p for p in CORPUS.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    assert [f.name for f in folders if not (f / "case.toml").is_file()] == []


def test_the_corpus_is_there():
    assert len(CASES) >= 30
    assert len({_meta(c)["cause"] for c in CASES}) >= 15


@pytest.mark.parametrize("folder", CASES, ids=[c.name for c in CASES])
def test_case_toml_is_valid(folder: Path):
    meta = _meta(folder)
    cat = catalog.load()
    assert meta.get("id", folder.name) == folder.name
    assert meta["cause"] in cat.ids, f"{folder.name}: unknown cause {meta['cause']!r}"
    assert meta["kind"] in KINDS, f"{folder.name}: kind must be one of {sorted(KINDS)}"
    entry = cat.get(meta["cause"])
    assert (meta["kind"] == "not_bug") == (entry.kind == "not_bug"), f"{folder.name}: kind disagrees with the catalog"
    assert str(meta.get("source", "")).startswith(("https://", "http://")), f"{folder.name}: no source URL"
    assert meta.get("source_family"), f"{folder.name}: no source_family"
    assert isinstance(meta.get("batch", "original"), str) and meta.get("batch", "original"), f"{folder.name}: bad batch"
    assert (folder / "symptom.txt").read_text(encoding="utf-8").strip(), f"{folder.name}: empty symptom"
    assert (folder / "check.py").exists()
    assert (folder / "target.py").exists() or (folder / "change.diff").exists() or meta["kind"] == "not_bug"


def test_every_case_has_its_own_source():
    sources = [_meta(c)["source"] for c in CASES]
    assert len(sources) == len(set(sources)), "two corpus cases reconstruct the same public report"


@pytest.mark.parametrize("batch", FRESH_BATCHES)
def test_each_fresh_batch_is_apart_and_broad(batch: str):
    """A batch written blind to the engine: its own sources and families, many causes, some not-bug reports."""
    fresh = [_meta(c) for c in CASES if _meta(c).get("batch") == batch]
    older = [_meta(c) for c in CASES if _meta(c).get("batch") != batch]
    assert len(fresh) >= 20
    assert len({m["cause"] for m in fresh}) >= 12
    assert sum(m["kind"] == "not_bug" for m in fresh) >= 3
    assert not {m["source_family"] for m in fresh} & {m["source_family"] for m in older}


@pytest.fixture(scope="module")
def one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


def run_check(folder: Path) -> str:
    """Import the case's check.py and call check(); fail the test when the symptom no longer shows."""
    spec = importlib.util.spec_from_file_location(f"corpus_check_{folder.name}", folder / "check.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except ModuleNotFoundError as exc:
        if exc.name not in OPTIONAL:
            raise
        pytest.skip(f"{folder.name} needs {exc.name} (the realworld extra)")
    torch.manual_seed(0)
    try:
        shown = mod.check()
    except AssertionError as exc:
        pytest.fail(f"{folder.name}: the check no longer shows the reported symptom: {exc!r}")
    assert isinstance(shown, str) and shown.strip(), f"{folder.name}: check() must describe what it showed"
    return shown


@pytest.mark.parametrize("folder", CASES, ids=[c.name for c in CASES])
def test_case_still_shows_its_symptom(folder: Path, one_thread):
    run_check(folder)


def test_a_rotted_case_fails(tmp_path: Path):
    """A check whose symptom is gone (its assertion fails) makes the corpus test fail, not pass quietly."""
    case = tmp_path / "rotted"
    case.mkdir()
    (case / "check.py").write_text(
        "import torch\n\ndef check() -> str:\n"
        "    loss = torch.tensor(0.5)\n"
        "    assert not torch.isfinite(loss), 'the loss is finite now'\n"
        "    return 'nan loss'\n"
    )
    with pytest.raises(pytest.fail.Exception, match="no longer shows"):
        run_check(case)


def test_every_catalog_cause_has_a_case_or_an_example():
    covered = {_meta(c)["cause"] for c in CASES} | {e.expect for e in bundled.all_examples()}
    missing = [e.id for e in catalog.load().entries if e.kind in ("defect", "not_bug") and e.id not in covered]
    assert not missing, f"catalog entries with no corpus case and no bundled example: {missing}"
