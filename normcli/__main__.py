"""`python -m normcli` and the `normcli` console script."""

from __future__ import annotations

import sys


def main() -> None:
    """Run the command line; Ctrl-C exits with 130 and no traceback."""
    try:
        from normcli.cli.app import run_cli

        sys.exit(run_cli(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.stderr.write("normcli: interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
