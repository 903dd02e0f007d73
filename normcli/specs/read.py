"""Read one spec folder into the model: the root file, every file its `$ref`s reach, one shape for
OpenAPI 3.0, 3.1 and Swagger 2.0.

The whole document is walked once from the root (`graph.RefGraph`: every `$ref` made canonical, each
target read once). Operations, path items, parameters, responses and request bodies are then taken
through their `$ref`s; schemas keep theirs, resolved when an endpoint is read (`resolve`).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

from normcli.model import Problem
from normcli.record import replace
from normcli.specs import refs
from normcli.specs.files import DomainFolder
from normcli.specs.graph import RefGraph
from normcli.specs.load import UnreadableFile, line_of
from normcli.specs.model import DEFAULT_TAG, OTHER_COLLECTION, Spec, SpecCollection, SpecMethod, SpecTag
from normcli.specs.text import plain

VERBS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
MAX_SEARCH_NAMES = 60
MAX_SNIFF_BYTES = 64 * 1024 * 1024
_PARAMETER_FIELDS = ("type", "format", "items", "enum", "default", "minimum", "maximum", "pattern", "collectionFormat")


class UnreadableSpec(Exception):
    """A spec whose root cannot be read at all, with its problems."""

    def __init__(self, problems: list[Problem], stamps: dict[str, tuple[str, int]] | None = None) -> None:
        super().__init__(problems[0].reason if problems else "unreadable")
        self.problems = problems
        self.stamps = stamps or {}  # the files tried, stamped before they were read: a fix shows at the next check


def read_spec(folder: Path, domain: str, root_file: str, prefix: str) -> Spec:
    """Read the spec whose root is `folder/root_file`; `prefix` (`specs/DOMAIN`) makes the problems'
    file names workspace-relative. Raises UnreadableSpec when the root itself cannot be read."""
    return _Reader(folder, domain, prefix).read(root_file)


class _Reader(RefGraph):
    """Reads the operations, tags and collections of a spec out of its ref graph."""

    def __init__(self, folder: Path, domain: str, prefix: str) -> None:
        super().__init__(folder, domain, prefix)
        self.swagger = False
        self.version = ""
        self.root_file = ""
        self.root: dict[str, Any] = {}
        # Each method's operation, path item, the spec's security and servers (for `searchable` and `finish`).
        self.deferred: list[tuple[dict, dict, Any, list]] = []
        self.searched: set[str] = set()  # the files read for what search finds of the methods (beyond the listings')
        self.children: dict[str, list[str]] = {}  # key → the keys its target names

    # -- the spec ----------------------------------------------------------------------------

    def read(self, root_file: str) -> Spec:
        try:
            data = self.document(root_file)
        except UnreadableFile as exc:
            raise UnreadableSpec(
                [Problem(f"{self.prefix}/{root_file}", exc.line, "error", "unreadable", exc.reason)], self.stamps
            ) from None
        if not isinstance(data, dict) or not ("openapi" in data or "swagger" in data):
            raise UnreadableSpec(
                [
                    Problem(
                        f"{self.prefix}/{root_file}",
                        1,
                        "error",
                        "not_a_spec",
                        "not an OpenAPI or Swagger document (no 'openapi' or 'swagger' key)",
                    )
                ],
                self.stamps,
            )
        self.swagger = "swagger" in data and "openapi" not in data
        self.root_file = root_file
        self.version = _text(data.get("swagger") if self.swagger else data.get("openapi"))
        root_key = f"{root_file}#"
        self.seen.add(root_key)
        self.attempted.add(root_key)
        try:
            self.root = self.canon(data, root_file)
        except RecursionError:
            raise UnreadableSpec(
                [Problem(f"{self.prefix}/{root_file}", 0, "error", "too_deep", "the spec is nested too deeply to read")], self.stamps
            ) from None
        self.targets[root_key] = self.root
        # The walk that the listings and search are made of: each target it reads is resolved when met, and its
        # file recorded (`structure`); everything else is resolved after it (docs/specs.md, the freshness argument).
        structure: set[str] = {root_file}
        self.used, self.lazy = structure, True
        info = self.deref(self.root.get("info"))
        info = info if isinstance(info, dict) else {}
        methods = self.methods(root_file)
        tags = self.tags(methods)
        collections = self.collections(info, tags, methods)
        title = _text(self.deref(info.get("title"))) or self.domain
        # Then what search finds of each method, still resolving as it goes: after the listings' targets, so
        # that the files read for it cannot take those past MAX_TARGETS.
        searchable = [self.searchable(method, *deferred) for method, deferred in zip(methods, self.deferred, strict=True)]
        self.searched = set().union(*(searched for _, searched in searchable))
        self.used, self.lazy = None, False
        self.resolve_pending()
        self.report_loops()
        methods = [
            self.finish(method, searched, op, item, servers)
            for (method, searched), (op, item, _, servers) in zip(searchable, self.deferred, strict=True)
        ]
        self.duplicates(methods)
        version = str(data.get("swagger") if self.swagger else data.get("openapi"))
        stamped = set(self.stamps)
        searched = self.searched - structure
        if self.limited:  # which targets were left out depends on every file: each answer then depends on all of them
            structure, searched = stamped, set()
            methods = [replace(method, files=()) for method in methods]
        return Spec(
            domain=self.domain,
            root=f"{self.prefix}/{root_file}",
            title=title,
            version=_text(info.get("version")),
            format=f"{'swagger' if self.swagger else 'openapi'} {version}",
            collections=tuple(collections),
            tags=tuple(tags),
            methods=tuple(methods),
            targets=self.targets,
            files=tuple(sorted(set(self.documents) | set(self.unreadable))),
            stamps=self.stamps,
            problems=tuple(sorted(self.problems, key=lambda problem: (problem.file, problem.line))),  # as `check` lists them
            structure=tuple(sorted(structure & stamped)),
            searched=tuple(sorted(searched & stamped)),
        )

    def finish(self, method: SpecMethod, searched: set[str], op: dict, item: dict, servers: list) -> SpecMethod:
        """A method with what only its page shows (servers, code samples) and the files its page is made of
        beyond the listings': those read for its search text, those of every target its body reaches, and
        those of its servers and code samples."""
        files = set(searched)
        self.used = files
        method.body["servers"] = self.servers(op) or self.servers(item) or servers
        method.body["codeSamples"] = self.code_samples(op)
        self.used = None
        files.update(self.reached_files(method.body))
        return replace(method, files=tuple(sorted(files & set(self.stamps))))

    def reached_files(self, body: Any) -> set[str]:
        """The files of every `$ref` key `body` reaches, through the targets, as an endpoint's page loads them."""
        files: set[str] = set()
        todo = list(refs.written_keys(body))
        done: set[str] = set()
        children = self.children
        while todo:
            key = todo.pop()
            if key in done:
                continue
            done.add(key)
            files.add(key.partition("#")[0])
            named = children.get(key)
            if named is None:
                target = self.targets.get(key)
                named = children[key] = list(refs.written_keys(target)) if target is not None else []
            todo.extend(named)
        return files

    def methods(self, root_file: str) -> list[SpecMethod]:
        found: list[SpecMethod] = []
        seen: set[tuple[str, str]] = set()
        root = self.root
        security = root.get("security")
        servers = self.servers(root)
        raw_root = self.documents[root_file]
        for webhook, section in ((False, "paths"), (True, "webhooks"), (True, "x-webhooks")):
            items = self.deref(root.get(section))
            if not isinstance(items, dict):
                continue
            raw_items = raw_root.get(section) if isinstance(raw_root, dict) else None
            for path, item_ref in items.items():
                item = self.deref(item_ref)
                if not isinstance(item, dict):
                    continue
                raw_item = raw_items.get(path) if isinstance(raw_items, dict) else None
                for verb in VERBS:
                    if verb not in item:
                        continue
                    raw = item[verb]
                    operation = self.deref(raw)
                    if not isinstance(operation, dict):
                        continue
                    file, line = self.where(raw, raw_item, verb, root_file)
                    if (verb, str(path)) in seen:  # a webhook under both `webhooks` and `x-webhooks`: one id, one method
                        self.problem(file, line, "duplicate_method", f"{verb.upper()} {path} is declared twice; the first is read")
                        continue
                    seen.add((verb, str(path)))
                    found.append(self.method(verb, str(path), operation, item, security, servers, webhook, file, line))
        return found

    def where(self, operation: Any, raw_item: Any, verb: str, root_file: str) -> tuple[str, int]:
        """The file and line of an operation: its own file when it is a `$ref`, else the root's line."""
        if isinstance(operation, dict) and isinstance(operation.get("$ref"), str) and not operation["$ref"].startswith("!"):
            file, _ = refs.split_key(operation["$ref"])
            target = self.documents.get(file)
            pointer = refs.split_key(operation["$ref"])[1]
            try:
                return file, max(line_of(refs.follow(target, pointer)), 1)
            except KeyError:
                return file, 1
        raw = raw_item.get(verb) if isinstance(raw_item, dict) else None
        return root_file, line_of(raw) or line_of(raw_item)

    def method(
        self, verb: str, path: str, op: dict, item: dict, security: Any, servers: list, webhook: bool, file: str, line: int
    ) -> SpecMethod:
        """A method as the listings show it; what search finds of it and its page come later (`searchable`, `finish`)."""
        tags = op.get("tags")
        tags = [tags] if isinstance(tags, str) else tags  # `tags: pets`, written for `tags: [pets]`
        tag_names = tuple(dict.fromkeys(_text(tag) for tag in tags if _text(tag))) if isinstance(tags, list) else ()
        self.deferred.append((op, item, security, servers))
        return SpecMethod(
            verb=verb.upper(),
            path=path,
            summary=_text(op.get("summary")),
            description="",
            operation_id=_text(op.get("operationId")),
            deprecated=op.get("deprecated") is True,
            webhook=webhook,
            tags=tag_names or (DEFAULT_TAG,),
            file=file,
            line=line,
            body={},
            search_names=(),
        )

    def searchable(self, method: SpecMethod, op: dict, item: dict, security: Any, servers: list) -> tuple[SpecMethod, set[str]]:
        """A method with what search finds of it and its page shows (parameters, request body, responses,
        description), and the files read for them: searched and shown, never listed, so recorded apart."""
        searched: set[str] = set()
        self.used = searched
        parameters, request_body = self.parameters(item.get("parameters"), op.get("parameters"), op)
        if not self.swagger and op.get("requestBody") is not None:
            request_body = self.deref(op["requestBody"])
        responses = self.responses(op.get("responses"), op)
        if "responses" not in op or not responses:
            allowed = " (OpenAPI 3.1 allows it, but a reader cannot tell what it answers)" if self.version.startswith("3.1") else ""
            self.problem(
                method.file,
                method.line,
                "no_responses",
                f"{method.verb} {method.path} declares no responses{allowed}",
                near=_operation_patterns(op, method.path),
            )
        body: dict[str, Any] = {
            "parameters": parameters,
            "requestBody": request_body if isinstance(request_body, dict) else None,
            "responses": responses,
            "security": op.get("security", security),
            "servers": [],  # servers and code samples are only shown on the method's page: `finish` fills them
            "codeSamples": [],
        }
        if isinstance(op.get("callbacks"), dict):
            body["callbacks"] = sorted(op["callbacks"])
        names = [str(p.get("name")) for p in parameters if isinstance(p, dict) and p.get("name")]
        written = refs.written_keys([request_body, responses, parameters])
        names.extend(refs.name_of(key) for key in itertools.islice(written, MAX_SEARCH_NAMES))
        description = _text(self.deref(op.get("description")))
        self.used = None
        found = replace(method, description=description, body=body, search_names=tuple(dict.fromkeys(names))[:MAX_SEARCH_NAMES])
        return found, searched

    def parameters(self, common: Any, own: Any, op: dict) -> tuple[list[dict], dict | None]:
        """The operation's parameters (the path's, overridden by its own by name and place); for
        Swagger 2.0, its body and form parameters become an OpenAPI 3 request body."""
        merged: dict[tuple[str, str], dict] = {}
        for group in (common, own):
            group = self.deref(group)
            if not isinstance(group, list):
                continue
            for raw in group:
                parameter = self.deref(raw)
                if isinstance(parameter, dict):
                    merged[(_text(parameter.get("name")), _text(parameter.get("in")))] = parameter
                elif isinstance(raw, dict) and "$ref" in raw:
                    merged[(str(raw["$ref"]), "")] = {"name": refs.name_of(str(raw["$ref"]).lstrip("!")), "in": "", **raw}
        if not self.swagger:
            return list(merged.values()), None
        consumes = op.get("consumes") or self.root.get("consumes") or ["application/json"]
        parameters: list[dict] = []
        request_body: dict | None = None
        form: dict[str, Any] = {}
        required_form: list[str] = []
        for parameter in merged.values():
            place = parameter.get("in")
            if place == "body":
                request_body = {
                    "description": parameter.get("description", ""),
                    "required": parameter.get("required") is True,
                    "content": {str(media): {"schema": parameter.get("schema")} for media in _list(consumes)},
                }
            elif place == "formData":
                form[_text(parameter.get("name"))] = _swagger_schema(parameter)
                if parameter.get("required") is True:
                    required_form.append(_text(parameter.get("name")))
            else:
                converted = {key: value for key, value in parameter.items() if key not in _PARAMETER_FIELDS}
                converted["schema"] = _swagger_schema(parameter)
                parameters.append(converted)
        if form:
            media = next((str(m) for m in _list(consumes) if "form" in str(m)), "application/x-www-form-urlencoded")
            schema: dict[str, Any] = {"type": "object", "properties": form}
            if required_form:
                schema["required"] = required_form
            request_body = {"content": {media: {"schema": schema}}}
        return parameters, request_body

    def responses(self, raw: Any, op: dict) -> dict[str, Any]:
        responses = self.deref(raw)
        if not isinstance(responses, dict):
            return {}
        produces = op.get("produces") or self.root.get("produces") or ["application/json"]
        answer: dict[str, Any] = {}
        for status, value in responses.items():
            if str(status).startswith("x-"):
                continue
            response = self.deref(value)
            if not isinstance(response, dict):
                answer[str(status)] = value
                continue
            if self.swagger and "content" not in response:
                response = dict(response)
                schema = response.pop("schema", None)
                examples = response.pop("examples", None)
                if schema is not None or examples:
                    content = {}
                    for media in _list(produces):
                        entry: dict[str, Any] = {"schema": schema} if schema is not None else {}
                        if isinstance(examples, dict) and media in examples:
                            entry["example"] = examples[media]
                        content[str(media)] = entry
                    response["content"] = content
            answer[str(status)] = response
        return answer

    def servers(self, holder: dict) -> list[dict]:
        if self.swagger and holder is self.root:
            host = holder.get("host")
            if not host:
                return []
            schemes = _list(holder.get("schemes")) or ["https"]
            return [{"url": f"{scheme}://{host}{holder.get('basePath') or ''}"} for scheme in schemes]
        servers = self.deref(holder.get("servers"))
        return [server for server in map(self.deref, servers) if isinstance(server, dict)] if isinstance(servers, list) else []

    def code_samples(self, op: dict) -> list[dict]:
        samples = self.deref(op.get("x-codeSamples", op.get("x-code-samples")))
        found = []
        for sample in samples if isinstance(samples, list) else []:
            sample = self.deref(sample)
            if isinstance(sample, dict) and sample.get("source") is not None:
                found.append(
                    {"lang": _text(sample.get("lang")), "label": _text(sample.get("label")), "source": _text(sample.get("source"))}
                )
        return found

    def tags(self, methods: list[SpecMethod]) -> list[SpecTag]:
        declared: dict[str, SpecTag] = {}
        raw_tags = self.deref(self.root.get("tags"))
        for raw in raw_tags if isinstance(raw_tags, list) else []:
            tag = self.deref(raw)
            if isinstance(tag, dict) and _text(tag.get("name")):
                name = _text(tag.get("name"))
                declared.setdefault(name, SpecTag(name, _text(self.deref(tag.get("description")))))
        for method in methods:
            for name in method.tags:
                declared.setdefault(name, SpecTag(name, ""))
        return list(declared.values())

    def collections(self, info: dict, tags: list[SpecTag], methods: list[SpecMethod]) -> list[SpecCollection]:
        groups = self.deref(self.root.get("x-tagGroups"))
        if not isinstance(groups, list) or not groups:
            title = _text(self.deref(info.get("title"))) or self.domain
            return [SpecCollection(title, _text(info.get("x-llm-title")) or None, tuple(tag.name for tag in tags))]
        by_title: dict[str, SpecCollection] = {}
        grouped: set[str] = set()
        known = {tag.name for tag in tags}
        raw_groups = self.documents[self.root_file].get("x-tagGroups") if isinstance(self.documents[self.root_file], dict) else None
        for position, raw in enumerate(groups):
            group = self.deref(raw)
            if not isinstance(group, dict) or not _text(group.get("name")):
                continue
            title = _text(group.get("name"))
            named = [_text(tag) for tag in group.get("tags") or [] if _text(tag)] if isinstance(group.get("tags"), list) else []
            # A group may name a tag that neither `tags` declares nor any operation uses: it holds nothing.
            names = [name for name in named if name in known]
            for name in dict.fromkeys(name for name in named if name not in known):
                raw_group = raw_groups[position] if isinstance(raw_groups, list) and position < len(raw_groups) else None
                self.problem(
                    self.root_file,
                    line_of(raw_group),
                    "unknown_tag",
                    f"tag group '{title}' names the tag '{name}', which no operation uses and `tags` does not declare",
                    near=(rf"[\"'\s\[,-]{re.escape(name)}[\"'\s\],]",),
                )
            grouped.update(names)
            before = by_title.get(title)
            joined = tuple(dict.fromkeys([*(before.tags if before else ()), *names]))
            llm = (before.llm_title if before else None) or _text(group.get("x-llm-title")) or None
            by_title[title] = SpecCollection(title, llm, joined)
        used = {name for method in methods for name in method.tags}
        left = tuple(tag.name for tag in tags if tag.name not in grouped and tag.name in used)
        if left:
            before = by_title.get(OTHER_COLLECTION)
            by_title[OTHER_COLLECTION] = SpecCollection(
                OTHER_COLLECTION, None, tuple(dict.fromkeys([*(before.tags if before else ()), *left]))
            )
        return list(by_title.values())

    def duplicates(self, methods: list[SpecMethod]) -> None:
        first: dict[str, SpecMethod] = {}
        for method in methods:
            if not method.operation_id:
                continue
            if method.operation_id in first:
                earlier = first[method.operation_id]
                self.problem(
                    method.file,
                    method.line,
                    "duplicate_operation_id",
                    f"operationId '{method.operation_id}' of {method.verb} {method.path} is also that of {earlier.verb} {earlier.path}",
                    near=(
                        rf'"operationId"\s*:\s*"{re.escape(method.operation_id)}"[\s\S]*?("operationId"\s*:\s*"{re.escape(method.operation_id)}")',
                    ),
                )
            else:
                first[method.operation_id] = method


def _text(value: Any) -> str:
    """A title, summary, name or description as text, its control characters escaped (see `text.plain`)."""
    if value is None or isinstance(value, dict | list):
        return ""
    return plain(value if isinstance(value, str) else str(value))


def _list(value: Any) -> list:
    return value if isinstance(value, list) else [value] if value else []


def _operation_patterns(op: dict, path: str) -> tuple[str, ...]:
    """Where an operation is written: by its operationId, else by its path."""
    found = [rf'"operationId"\s*:\s*"{re.escape(str(op["operationId"]))}"'] if op.get("operationId") else []
    found.append(rf'"{re.escape(path)}"\s*:')
    return tuple(found)


def _swagger_schema(parameter: dict) -> dict:
    """A Swagger 2.0 parameter's type fields as an OpenAPI 3 schema."""
    if isinstance(parameter.get("schema"), dict):
        return parameter["schema"]
    schema = {key: parameter[key] for key in _PARAMETER_FIELDS if key in parameter and key != "collectionFormat"}
    if schema.get("type") == "file":
        schema = {"type": "string", "format": "binary"}
    return schema


def looks_like_root(path: Path) -> bool:
    """Whether a file declares `openapi` or `swagger` (at the top level, for YAML): a spec's root file,
    told from the files it references without parsing it."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(MAX_SNIFF_BYTES)
    except OSError:
        return False
    if path.suffix.lower() == ".json" or head.lstrip()[:1] == b"{":
        return re.search(rb'"(?:openapi|swagger)"\s*:', head) is not None
    return re.search(rb"^[\"']?(?:openapi|swagger)[\"']?\s*:", head, re.MULTILINE) is not None


def choose_root(domain: DomainFolder) -> tuple[str | None, list[str]]:
    """The root file of a domain's spec and the other root-like files it leaves aside.

    One spec per domain (SPEC §7): where several top-level files declare `openapi`/`swagger`, the
    one named `openapi.*`, `swagger.*` or after the domain is read, else the first by name."""
    roots = [name for name in domain.top if looks_like_root(domain.path / name)]
    if not roots:
        return None, []
    preferred = [name for name in roots if name.rsplit(".", 1)[0].lower() in ("openapi", "swagger", domain.domain.lower())]
    chosen = (preferred or roots)[0]
    return chosen, [name for name in roots if name != chosen]
