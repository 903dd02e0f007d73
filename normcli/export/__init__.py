"""Writing the workspace out in other tools' formats (Dash/Zeal docsets)."""
