"""`normcli api …`: the spec discovery operations of SPEC §7 as a command group.

Help, examples and the `--limit` range come from the operations declared in `normcli.operations`;
what the command line adds (a domain for an id, `tags --collection`, `endpoint DOMAIN "GET /path"`)
is in `cli.api_args`, which the lean `--json` path shares.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from normcli.cli.api_args import service_call
from normcli.cli.runner import answer
from normcli.operations import OPERATIONS

Json = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
SpecArg = Annotated[str, typer.Argument(help="The spec's id, or its domain (meteo).", show_default=False, metavar="SPEC")]
IdArg = Annotated[str, typer.Argument(help="The id (32 hex characters) an earlier answer gave.", show_default=False, metavar="ID")]

group = typer.Typer(
    name="api",
    help="Find your way through the API specifications of the workspace: specs → collections → tags → endpoints.",
    no_args_is_help=True,
    rich_markup_mode="rich",
)


def _help(name: str) -> str:
    op = OPERATIONS[name]
    return f"{op.help} Example: {op.example}"


def _run(ctx: typer.Context, json_flag: bool, command: str, positionals: list[str], options: dict[str, Any] | None = None) -> None:
    from normcli.cli import output
    from normcli.cli.runner import error_boundary, options_of

    with error_boundary(options_of(ctx), options_of(ctx).json or json_flag):
        call = service_call(command, positionals, options or {})

    def render(result: Any) -> None:
        from normcli.cli.spec_output import RENDERERS

        RENDERERS.get(type(result), output.render)(result)

    answer(ctx, json_flag, call, render)


@group.command("specs", help=_help("spec_list"))
def specs(ctx: typer.Context, json_: Json = False) -> None:
    _run(ctx, json_, "specs", [])


@group.command("spec", help=_help("spec_by_id"))
def spec(ctx: typer.Context, spec_: SpecArg, json_: Json = False) -> None:
    _run(ctx, json_, "spec", [spec_])


@group.command("collections", help=_help("collection_by_spec"))
def collections(ctx: typer.Context, spec_: SpecArg, json_: Json = False) -> None:
    _run(ctx, json_, "collections", [spec_])


@group.command("collection", help=_help("collection_by_id"))
def collection(ctx: typer.Context, id_: IdArg, json_: Json = False) -> None:
    _run(ctx, json_, "collection", [id_])


@group.command("tags", help=f"{_help('tag_by_spec')} With --collection ID, the tags of one collection.")
def tags(
    ctx: typer.Context,
    spec_: Annotated[str | None, typer.Argument(help="The spec's id, or its domain.", show_default=False, metavar="[SPEC]")] = None,
    collection_id: Annotated[
        str | None, typer.Option("--collection", "-c", help="Only the tags of this collection (its id).", show_default=False)
    ] = None,
    json_: Json = False,
) -> None:
    _run(ctx, json_, "tags", [spec_] if spec_ is not None else [], {"collectionId": collection_id} if collection_id else {})


@group.command("tag", help=_help("tag_by_id"))
def tag(ctx: typer.Context, id_: IdArg, json_: Json = False) -> None:
    _run(ctx, json_, "tag", [id_])


@group.command("endpoints", help=_help("endpoint_by_tag"))
def endpoints(ctx: typer.Context, id_: IdArg, json_: Json = False) -> None:
    _run(ctx, json_, "endpoints", [id_])


@group.command("endpoint", help=f'{_help("endpoint_by_id")} Also: normcli api endpoint DOMAIN "GET /path".')
def endpoint(
    ctx: typer.Context,
    id_or_domain: Annotated[str, typer.Argument(help="The endpoint's id, or the spec's domain.", show_default=False, metavar="ID|DOMAIN")],
    name: Annotated[
        str | None,
        typer.Argument(help='With a domain: the method and path, "GET /pets/{petId}".', show_default=False, metavar="[METHOD_PATH]"),
    ] = None,
    json_: Json = False,
) -> None:
    _run(ctx, json_, "endpoint", [id_or_domain] if name is None else [id_or_domain, name])


_LIMIT = OPERATIONS["search_specs"].param("limit")


@group.command("search", help=_help("search_specs"))
def search(
    ctx: typer.Context,
    keyword: Annotated[str, typer.Argument(help=OPERATIONS["search_specs"].param("keyword").help, show_default=False)],
    limit: Annotated[int, typer.Option(*_LIMIT.flags, help=_LIMIT.help)] = _LIMIT.default,
    json_: Json = False,
) -> None:
    _run(ctx, json_, "search", [keyword], {"limit": limit})


def register(app: typer.Typer) -> None:
    """Add the `api` group to `app`."""
    app.add_typer(group)
