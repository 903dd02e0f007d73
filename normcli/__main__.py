"""`python -m normcli` and the `normcli` console script."""

from __future__ import annotations

import sys


def main() -> None:
    """Run the command line; Ctrl-C exits with 130 and no traceback."""
    try:
        from normcli.cli.fast import answer

        code = answer(sys.argv[1:]) if "--debug" not in sys.argv else None
        if code is None:
            from normcli.cli.app import run_cli

            code = run_cli(sys.argv[1:])
        sys.exit(code)
    except KeyboardInterrupt:
        sys.stderr.write("normcli: interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
