"""The Typer command line: it translates arguments to service calls and results to output."""
