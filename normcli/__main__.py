"""`python -m normcli` and the `normcli` console script."""

from __future__ import annotations

import gc
import os
import sys


def main() -> None:
    """Run the command line; Ctrl-C exits with 130 and a closed pipe with 0, neither with a traceback."""
    # A lean read is one bounded answer and the process ends: the cyclic collector's passes over the
    # objects start-up creates (modules, classes, rows) cost a fortieth of such a call and free nothing
    # that exit would not. The full command line (a TUI, the MCP server, batch) runs with it on.
    gc.disable()
    try:
        from normcli.cli.fast import answer

        code = answer(sys.argv[1:]) if "--debug" not in sys.argv else None
        if code is None:
            gc.enable()
            from normcli.cli.app import run_cli

            code = run_cli(sys.argv[1:])
        sys.stdout.flush()
    except KeyboardInterrupt as exc:
        from normcli.cli.diagnostics import report

        code = report(exc)
    except BrokenPipeError:
        # The reader has gone (`normcli … | head -1`): there is no one left to tell, and the
        # interpreter must not complain when it flushes stdout on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code)


if __name__ == "__main__":
    main()
