"""The TUI's screens: the reader, and the dialogs it opens."""
