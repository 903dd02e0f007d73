"""The spec discovery operations of SPEC §7 over the index: `reads` (the `Service` mixin), `session`
(the same reads without the norm service) and `operations` (the work). The spec documents themselves
are read by `normcli.specs`."""
