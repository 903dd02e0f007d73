"""The `api` commands' arguments as the command line takes them, shared by the lean `--json` path
(`cli.fast.parse_api`) and Typer.

The operations are declared in `normcli.operations` (group `api`); the command line adds three
forgiving forms SPEC §7 allows there: a spec named by its domain (`api spec meteo`), `api tags` over a
spec or, with `--collection`, over one collection, and an endpoint named by domain, method and path
(`api endpoint meteo "GET /snow-load/{siteId}"`).
"""

from __future__ import annotations

from normcli.errors import InvalidArgument

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

GROUP = "api"
# command → (positional names, {option: parameter}); `endpoint` takes one or two positionals.
COMMANDS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "specs": ((), {}),
    "spec": (("id",), {}),
    "collections": (("specId",), {}),
    "collection": (("id",), {}),
    "tags": (("specId",), {"--collection": "collectionId", "-c": "collectionId"}),
    "tag": (("id",), {}),
    "endpoints": (("tagId",), {}),
    "endpoint": (("id", "name"), {}),
    "search": (("keyword",), {"--limit": "limit", "-n": "limit"}),
}
INTEGERS = frozenset({"limit"})  # the options that take a whole number


def service_call(command: str, positionals: list[str], options: dict[str, Any]) -> Callable[[Any], Any]:
    """The call on a `Service` that answers `normcli api COMMAND …`; usage errors are `invalid_argument`."""
    if command not in COMMANDS:
        raise InvalidArgument(f"there is no command 'api {command}'", f"use one of: {', '.join(COMMANDS)}")
    names = COMMANDS[command][0]
    if command == "tags":
        collection = options.get("collectionId")
        if collection is not None:
            if positionals:
                raise InvalidArgument("api tags takes a spec or --collection ID, not both")
            return lambda service: service.tag_by_collection(collection)
        if len(positionals) != 1:
            raise InvalidArgument("api tags needs a spec (its id or domain), or --collection ID", "for example: normcli api tags meteo")
        return lambda service: service.tag_by_spec(service.spec_named(positionals[0]))
    if command == "endpoint":
        if len(positionals) == 2:
            return lambda service: service.endpoint_named(positionals[0], positionals[1])
        if len(positionals) != 1:
            raise InvalidArgument('api endpoint takes an id, or a domain and a method: meteo "GET /snow-load/{siteId}"')
        return lambda service: service.endpoint_by_id(positionals[0])
    if len(positionals) != len(names):
        wanted = " ".join(name.upper() for name in names) or "no arguments"
        raise InvalidArgument(f"api {command} takes {wanted}", f"run `normcli api {command} --help`")
    if command == "specs":
        return lambda service: service.spec_list()
    if command == "spec":
        return lambda service: service.spec_by_id(service.spec_named(positionals[0]))
    if command == "collections":
        return lambda service: service.collection_by_spec(service.spec_named(positionals[0]))
    if command == "search":
        limit = options.get("limit", 20)
        return lambda service: service.search_specs(positionals[0], limit)
    method = {"collection": "collection_by_id", "tag": "tag_by_id", "endpoints": "endpoint_by_tag"}[command]
    return lambda service: getattr(service, method)(positionals[0])
