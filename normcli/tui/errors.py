"""Bugs in workers become one line on screen, never a crash with a traceback."""

from __future__ import annotations

from textual.worker import Worker, WorkerState


class ReportsWorkerErrors:
    """Mixin for a widget or screen that runs workers: an unexpected exception in one is shown as a toast."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Turn a failed worker into one line asking for a report."""
        if event.state == WorkerState.ERROR:
            error = event.worker.error
            self.notify(  # type: ignore[attr-defined]
                f"internal error ({type(error).__name__}: {error}); please report it",
                title="normcli",
                severity="error",
                timeout=10,
            )
