"""The MCP frontend: `normcli mcp` serves the read operations to local agents over stdio.

Importing this package does not import the MCP SDK; `normcli.mcp.server` does.
"""
