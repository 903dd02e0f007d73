"""The ids of SPEC §7: 32 lowercase hex characters, MD5 of a stated string, stable across machines."""

from __future__ import annotations

from normcli.errors import InvalidArgument

_HEX = "0123456789abcdef"


def _md5(text: str) -> str:
    import hashlib

    return hashlib.md5(text.encode("utf-8")).hexdigest()


def spec_id(domain: str) -> str:
    """MD5 of `spec|DOMAIN`."""
    return _md5(f"spec|{domain}")


def collection_id(domain: str, title: str) -> str:
    """MD5 of `collection|DOMAIN|TITLE`."""
    return _md5(f"collection|{domain}|{title}")


def tag_id(domain: str, name: str) -> str:
    """MD5 of `tag|DOMAIN|NAME`."""
    return _md5(f"tag|{domain}|{name}")


def method_id(domain: str, verb: str, path: str) -> str:
    """MD5 of `method|DOMAIN|VERB|PATH`, the verb in capitals as people write it (`GET`)."""
    return _md5(f"method|{domain}|{verb.upper()}|{path}")


def is_id(value: object) -> bool:
    """Whether `value` is written as an id: exactly 32 lowercase hex characters."""
    # `[0-9a-f]{32}` without `re`, which (with `enum`) costs a tenth of a discovery call's start-up.
    return isinstance(value, str) and len(value) == 32 and not value.strip(_HEX)


def check_id(value: object, name: str = "id") -> str:
    """`value` when it is an id, else `invalid_argument` saying what an id looks like."""
    if not is_id(value):
        shown = repr(value) if not isinstance(value, str) or len(value) <= 60 else repr(value[:57] + "…")
        # what to call for an id is each frontend's wording (a command for a person, a tool for an agent)
        raise InvalidArgument(f"{name} must be 32 lowercase hex characters, not {shown}", param=name)
    assert isinstance(value, str)
    return value
