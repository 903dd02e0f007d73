"""`normcli browse`: a Textual reader over the read operations of `normcli.service`.

Nothing outside `normcli.cli.commands.browse` imports this package, so Textual loads only for `browse`.
"""
