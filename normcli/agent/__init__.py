"""The `normcli ask` agent: continuation rules, the runner loop, the tools and citation checks.

Nothing is imported here, so that `import normcli.agent.rules` stays as light as `rules.py` itself.
"""
