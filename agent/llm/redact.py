"""Secret detection and redaction for everything that leaves the machine (LLM requests, transcripts).

Three kinds of detector, applied in order:
1. known token formats (OpenAI/Anthropic sk-, GitHub ghp_/github_pat_, AWS AKIA/ASIA, Hugging Face hf_,
   Slack xox*, Google AIza, Stripe sk_live_/rk_test_, JWTs, npm, PyPI, private key blocks);
2. credentials in context: userinfo in URLs (scheme://user:pass@host), Authorization / API-key headers
   (Bearer, Basic, Token), command-line flags (--api-key X), requests' auth=("user", "pass");
3. values assigned to names that mean a secret, in Python, JSON, YAML, TOML and .env files
   (`password = "..."`, `"api_key": "..."`, `HF_TOKEN=...`, `os.environ["X_TOKEN"] = "..."`,
   `wandb.login(key="...")`). A name "means a secret" by its parts (snake_case, camelCase, kebab-case
   split): password, secret, api_key ... always; key, token, auth only when the value looks like a
   credential (long, digits and letters mixed, or high entropy), so `key = "weight"`,
   `pad_token = "[PAD]"`, `max_tokens=512` and `key = jax.random.PRNGKey(0)` are left alone.

May import: nothing of ours.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

MARK = "[REDACTED]"

# -- 1. known formats -----------------------------------------------------------------------------
FORMATS = [
    re.compile(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----.*?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\Z)", re.S
    ),
    re.compile(r"\bsk-(?:ant-|proj-|svcacct-|live-)?[A-Za-z0-9_-]{16,}"),  # OpenAI, Anthropic, DeepSeek ...
    re.compile(r"\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),  # Stripe
    re.compile(r"\bwhsec_[A-Za-z0-9]{16,}"),
    re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b"),  # AWS access key ids
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"),  # GitHub
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}"),
    re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}"),  # GitLab
    re.compile(r"\bxox[abprse]-[A-Za-z0-9-]{10,}"),  # Slack tokens
    re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/]{20,}"),
    re.compile(r"\bhf_[A-Za-z0-9]{20,}"),  # Hugging Face
    re.compile(r"\bAIza[0-9A-Za-z_-]{35}"),  # Google API keys
    re.compile(r"\bya29\.[0-9A-Za-z_-]{20,}"),  # Google OAuth access tokens
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),  # JWT
    re.compile(r"\bnpm_[A-Za-z0-9]{30,}"),
    re.compile(r"\bpypi-[A-Za-z0-9_-]{40,}"),
    re.compile(r"\br8_[A-Za-z0-9]{30,}"),  # Replicate
    re.compile(r"\bgsk_[A-Za-z0-9]{30,}"),  # Groq
]

# -- 2. credentials in context --------------------------------------------------------------------
URL_USERINFO = re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.-]{1,20}://)([^:/?#@\s'\"]+):([^/?#@\s'\"]+)@")
AUTH_HEADER = re.compile(
    r"(?i)\b((?:proxy-)?authorization['\"]?\s*[:=]\s*['\"]?\s*)(bearer|basic|token|digest|apikey)\s+([A-Za-z0-9._~+/=:-]{4,})"
)
BEARER = re.compile(r"(?i)\b(bearer\s+)([A-Za-z0-9._~+/-]{16,}=*)")
KEY_HEADER = re.compile(r"(?i)\b((?:x-)?(?:api-?key|auth-?token|access-?token)\s*:\s*['\"]?)([A-Za-z0-9._~+/=-]{8,})")
CLI_FLAG = re.compile(
    r"(?i)((?<![\w-])--?(?:api[-_]?key|token|auth[-_]?token|access[-_]?token|password|passwd|secret|hf[-_]token)"
    r"(?:=|\s+)['\"]?)([^\s'\"]{4,})"
)
AUTH_TUPLE = re.compile(r"\b(auth\s*=\s*\(\s*(['\"])[^'\"]*\2\s*,\s*)(['\"])([^'\"]+)\3")

# -- 3. assignments to secret-meaning names --------------------------------------------------------
STRONG = {"password", "passwd", "pwd", "passphrase", "secret", "secrets", "credential", "credentials", "apikey"}
PAIRS = {
    ("api", "key"), ("access", "key"), ("secret", "key"), ("private", "key"), ("signing", "key"),
    ("client", "secret"), ("auth", "token"), ("access", "token"), ("refresh", "token"), ("api", "token"),
    ("session", "token"), ("bearer", "token"), ("id", "token"), ("db", "pass"), ("master", "key"),
    ("encryption", "key"), ("license", "key"), ("app", "key"), ("webhook", "secret"),
}  # fmt: skip
WEAK = {"key", "token", "auth", "pass", "pat", "login"}
NAME = r"[A-Za-z_][A-Za-z0-9_.-]*"
# name = 'value' / name: "value" / "name": "value" / name=value (env) / environ["NAME"] = "value"
QUOTED_ASSIGN = re.compile(
    rf"(?P<pre>(?P<q0>['\"]?)(?P<name>{NAME})(?P=q0)\]?\s*(?::|=|:=|=>)\s*[rbuRBU]?)(?P<q>['\"])(?P<val>(?:(?!(?P=q)).){{1,400}})(?P=q)"
)
SETDEFAULT = re.compile(
    rf"(?P<pre>(?:setdefault|putenv|setenv)\(\s*(['\"])(?P<name>{NAME})\2\s*,\s*)"
    r"(?P<q>['\"])(?P<val>[^'\"]+)(?P=q)"
)
BARE_ASSIGN = re.compile(
    rf"(?m)^(?P<pre>[ \t]*(?:export[ \t]+|-[ \t]+)?(?P<name>{NAME})\s*(?::|=)[ \t]*)"
    r"(?P<val>[^\s'\"#,;][^\s#,;]*)(?=[ \t]*(?:#.*)?$)"
)
CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
PLACEHOLDER = re.compile(r"^(\$\{?\w+\}?|\{\{.*\}\}|<.*>|%\(?\w+\)?s?|\*+|x+|\.\.\.|none|null|true|false|nil)$", re.I)
TYPE_LIKE = re.compile(r"^[A-Za-z_][\w.]*(\[.*\])?$")  # `password: str`, `key: torch.Tensor`


def name_parts(name: str) -> list[str]:
    """`HF_TOKEN` -> ['hf', 'token']; `apiKey` -> ['api', 'key']; `x-api-key` -> ['x', 'api', 'key']."""
    name = name.rsplit(".", 1)[-1]
    return [p.lower() for p in re.split(r"[_\-\s]+", CAMEL.sub("_", name)) if p]


def name_strength(name: str) -> int:
    """2: the name means a secret; 1: it may (key, token, auth); 0: it does not."""
    parts = name_parts(name)
    if any(p in STRONG for p in parts) or any(pair in PAIRS for pair in zip(parts, parts[1:], strict=False)):
        return 2
    return 1 if parts and parts[-1] in WEAK else 0


def entropy(text: str) -> float:
    """Shannon entropy in bits per character."""
    if not text:
        return 0.0
    counts = {c: text.count(c) for c in set(text)}
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def credential_like(value: str) -> bool:
    """A value that looks like a key or token rather than a word, a path or a number."""
    if not 8 <= len(value) <= 400 or not re.fullmatch(r"[\x21-\x7e]+", value) or re.search(r"[(){}\[\],]", value):
        return False
    if re.fullmatch(r"[\d.eE+-]+", value) or "/" in value and not re.search(r"[A-Za-z0-9+/]{24,}", value):
        return False
    has_digit, has_alpha = bool(re.search(r"\d", value)), bool(re.search(r"[A-Za-z]", value))
    return has_digit and has_alpha or len(value) >= 20 and entropy(value) >= 3.5


def random_looking(value: str) -> bool:
    """Stricter, for unquoted values (which may be code): not a dotted name, digits and letters mixed."""
    if not credential_like(value) or re.search(r"\.[A-Za-z_]", value) and not re.search(r"[A-Za-z0-9+/]{20,}", value):
        return False
    digits, letters = len(re.findall(r"\d", value)), len(re.findall(r"[A-Za-z]", value))
    return digits >= 2 and letters >= 2 and len(value) >= 12 or len(value) >= 20 and entropy(value) >= 3.5


def _secret_value(name: str, value: str, quoted: bool) -> bool:
    strength = name_strength(name)
    v = value.strip()
    if not strength or not v or PLACEHOLDER.match(v) or MARK in v:
        return False
    if re.match(r"(os\.)?(environ|getenv)\b", v):
        return False
    if strength == 2:
        if quoted:
            return len(v) >= 3 and v.lower() not in name_parts(name)
        return (not TYPE_LIKE.match(v) or credential_like(v)) and not re.search(r"[()\[\]]", v)
    return credential_like(v) if quoted else random_looking(v)


def _assign(m: re.Match[str]) -> str:
    quoted = "q" in m.groupdict() and m.group("q") is not None
    if not _secret_value(m.group("name"), m.group("val"), quoted):
        return m.group(0)
    q = m.group("q") if quoted else ""
    return f"{m.group('pre')}{q}{MARK}{q}"


def _sub(rx: re.Pattern[str], repl: str | Callable[[re.Match[str]], str], text: str) -> tuple[str, int]:
    count = 0

    def wrapped(m: re.Match[str]) -> str:
        nonlocal count
        out = repl(m) if callable(repl) else m.expand(repl)
        count += out != m.group(0)
        return out

    return rx.sub(wrapped, text), count


def redact(text: str) -> tuple[str, int]:
    """Replace every detected secret with [REDACTED]; returns (text, how many were replaced)."""
    total = 0
    steps: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [(rx, MARK) for rx in FORMATS]
    steps += [
        (URL_USERINFO, rf"\1\2:{MARK}@"),
        (AUTH_HEADER, rf"\1\2 {MARK}"),
        (BEARER, lambda m: m.group(0) if m.group(2) == MARK else f"{m.group(1)}{MARK}"),
        (KEY_HEADER, rf"\1{MARK}"),
        (CLI_FLAG, lambda m: m.group(0) if m.group(2).startswith(("[REDACTED", "$")) else f"{m.group(1)}{MARK}"),
        (AUTH_TUPLE, rf"\1\3{MARK}\3"),
        (SETDEFAULT, _assign),
        (QUOTED_ASSIGN, _assign),
        (BARE_ASSIGN, _assign),
    ]
    for rx, repl in steps:
        text, n = _sub(rx, repl, text)
        total += n
    return text, total


def strip_userinfo(url: str | None) -> str | None:
    """A URL without user:password@ and without secret-looking query parameters (for reports and logs)."""
    if not url:
        return url
    out = re.sub(r"^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#@]*@", r"\1", url.strip())
    out = re.sub(r"(?i)([?&](?:api[-_]?key|key|token|access_token|auth|password|secret)=)[^&#]*", rf"\1{MARK}", out)
    return out
