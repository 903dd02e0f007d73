"""The spec reads on their own, for `normcli api … --json`: the index kept fresh and read in one
snapshot per operation, without the norm service (its modules are a sixth of such a call's time).

A `SpecSession` offers the same discovery methods as `Service` (both mix in `SpecReads`) and runs
them the same way (`snapshot.ReadSession`): one freshness check per operation, one read snapshot,
a damaged index rebuilt once and the operation run again.
"""

from __future__ import annotations

from normcli.discovery.reads import SpecReads
from normcli.snapshot import ReadSession, in_snapshot


class SpecSession(ReadSession, SpecReads):
    """The discovery operations of SPEC §7 over one workspace, without the norm reads."""

    _wrap_read = staticmethod(in_snapshot)
