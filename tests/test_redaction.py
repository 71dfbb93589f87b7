"""The secret detector: every synthetic secret form redacted, real code left alone (figures asserted)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from debug_agent.llm.redact import redact, strip_userinfo

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    spec = importlib.util.spec_from_file_location("bench_redaction", ROOT / "benchmarks" / "redaction.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_redaction"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_corpus_figures():
    fig = _bench().measure()
    assert fig.secrets >= 50
    assert fig.recall == 1.0, fig.missed
    assert fig.code_lines >= 2000
    assert fig.altered_share <= 0.01, fig.altered[:10]


@pytest.mark.parametrize(
    "code",
    [
        "tokens: torch.Tensor",
        "self.tokenizer = AutoTokenizer.from_pretrained(name)",
        "out = model.generate(ids, max_tokens=512)",
        "key = jax.random.PRNGKey(0)",
        "key, subkey = jax.random.split(key)",
        "d_key = d_model // n_heads",
        "attn(q, k, v, key_padding_mask=mask)",
        'key = prefix + "weight"',
        'pad_token = "[PAD]"',
        'tokenizer.eos_token = "</s>"',
        "def login(password: str) -> None:",
        'api_key = os.environ["OPENAI_API_KEY"]',
        "token = tokenizer.eos_token_id",
        "PASSWORD=${DB_PASSWORD}",
        "auth = None",
    ],
)
def test_real_code_is_not_altered(code):
    assert redact(code) == (code, 0)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("postgresql://admin:FakePw-1234@db.example.com/x", "FakePw-1234"),
        ('{"api_key": "fake-key-0123"}', "fake-key-0123"),
        ('os.environ["HF_TOKEN"] = "fake0123456789abcdef"', "fake0123456789abcdef"),
        ('wandb.login(key="fake0123456789abcdef0123")', "fake0123456789abcdef0123"),
        ("Authorization: Basic ZmFrZTpmYWtlcGFzcw==", "ZmFrZTpmYWtlcGFzcw=="),
    ],
)
def test_the_forms_named_in_the_issue(text, secret):
    out, n = redact(text)
    assert secret not in out and n >= 1 and "[REDACTED]" in out


def test_base_url_userinfo_is_stripped():
    assert strip_userinfo("https://user:fakepass@llm.example.com/v1") == "https://llm.example.com/v1"
    assert strip_userinfo("http://127.0.0.1:8080/v1") == "http://127.0.0.1:8080/v1"
    assert "fake123" not in strip_userinfo("https://h.example.com/v1?api_key=fake123")
