"""Progress on stderr: a live line per probe on a terminal, plain lines otherwise, nothing with --quiet."""

from __future__ import annotations

import time
from typing import Any

from debug_agent.schemas import ProbeRequest, ProbeResult

MARK = {
    "passed": "[green]✓[/green]",
    "failed": "[red]✗[/red]",
    "inconclusive": "[yellow]?[/yellow]",
    "error": "[red]![/red]",
    "not_applicable": "[dim]-[/dim]",
}


class ConsoleProgress:
    """Implements the engine's Progress protocol; keeps results so an interrupt can still report them."""

    def __init__(self, console: Any, quiet: bool = False) -> None:
        self.console = console
        self.quiet = quiet
        self.results: list[ProbeResult] = []
        self._status: Any = None
        self._t0 = 0.0

    def phase(self, text: str) -> None:
        if not self.quiet:
            self.console.print(f"[dim]· {text}[/dim]")

    def probe_started(self, req: ProbeRequest) -> None:
        self._t0 = time.monotonic()
        if self.quiet:
            return
        if self.console.is_terminal:
            self._status = self.console.status(f"running [bold]{req.name}[/bold] …")
            self._status.start()
        else:
            self.console.print(f"  running {req.name}")

    def probe_done(self, result: ProbeResult) -> None:
        self.results.append(result)
        if self._status is not None:
            self._status.stop()
            self._status = None
        if not self.quiet:
            from rich.markup import escape

            self.console.print(
                f"  {MARK.get(result.status, '')} {result.name} [dim]{time.monotonic() - self._t0:.1f}s[/dim]"
                f"  {escape(result.summary)}"
            )

    def close(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None
