"""normcli: a local, offline reader for technical norms."""

__version__ = "0.1.0"
