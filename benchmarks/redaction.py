"""Redaction figures: share of synthetic secrets redacted, share of real code lines left untouched.

Secrets: tests/data/secrets.txt (synthetic values in real formats, the secret between « and »).
Code: lines of installed packages' own source (torch.nn modules, transformers' GPT-2 and Llama
models, torch.optim, lightning's trainer), read at run time: nothing third-party is copied here.
Run: python benchmarks/redaction.py
"""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from debug_agent.llm.redact import redact

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "secrets.txt"
CASE = re.compile(r"«(.+?)»", re.S)


def secret_cases(path: Path = CORPUS) -> list[tuple[str, list[str]]]:
    """(text with the markers removed, the secrets it holds) for each case line."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        line = line.replace("\\n", "\n")
        secrets = CASE.findall(line)
        out.append((CASE.sub(lambda m: m.group(1), line), secrets))
    return out


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    return Path(spec.origin).parent if spec and spec.origin else None


def code_files() -> list[Path]:
    """Real, secret-free Python source from installed packages (whichever are installed)."""
    files: list[Path] = []
    torch = _package_dir("torch")
    if torch:
        files += sorted((torch / "nn" / "modules").glob("*.py"))
        files += sorted((torch / "optim").glob("*.py"))[:10]
    tf = _package_dir("transformers")
    if tf:
        files += [tf / "models" / "gpt2" / "modeling_gpt2.py", tf / "models" / "llama" / "modeling_llama.py"]
        files += [tf / "tokenization_utils_base.py"]
    return [f for f in files if f.is_file()]


def code_lines(limit: int = 60_000) -> list[str]:
    lines: list[str] = []
    for f in code_files():
        lines += [ln for ln in f.read_text(encoding="utf-8").splitlines() if ln.strip()]
        if len(lines) >= limit:
            break
    return lines[:limit]


@dataclass
class Figures:
    secrets: int = 0
    redacted: int = 0
    missed: list[str] = field(default_factory=list)
    code_lines: int = 0
    altered: list[tuple[str, str]] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.redacted / max(self.secrets, 1)

    @property
    def altered_share(self) -> float:
        return len(self.altered) / max(self.code_lines, 1)


def measure() -> Figures:
    fig = Figures()
    for text, secrets in secret_cases():
        out, _ = redact(text)
        for s in secrets:
            fig.secrets += 1
            # redacted: no 8-character piece of the secret survives (pieces found elsewhere in the
            # line, such as the word "password" in its key, do not count)
            rest = text.replace(s, " ")
            pieces = {s[i : i + 8] for i in range(0, max(len(s) - 7, 1))}
            if any(p in out and p not in rest for p in pieces):
                fig.missed.append(out)
            else:
                fig.redacted += 1
    lines = code_lines()
    fig.code_lines = len(lines)
    for ln in lines:
        out, n = redact(ln)
        if n or out != ln:
            fig.altered.append((ln, out))
    return fig


def main() -> int:
    fig = measure()
    sys.stdout.write(f"secret forms: {fig.secrets}, redacted: {fig.redacted} ({fig.recall:.1%})\n")
    sys.stdout.write(
        f"real code lines: {fig.code_lines} from {len(code_files())} files, altered: {len(fig.altered)} "
        f"({fig.altered_share:.2%})\n"
    )
    for m in fig.missed:
        sys.stdout.write(f"  missed: {m}\n")
    for before, after in fig.altered[:20]:
        sys.stdout.write(f"  altered: {before.strip()}\n       -> {after.strip()}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
