"""Hypothesis strategies over the web app's OpenAPI schema: requests for every operation, well-formed or not.

The schema (FastAPI's ``app.openapi()``) says, per operation, its path and query parameters and its body
(JSON or multipart). :func:`from_schema` draws values that follow a JSON schema (types, enums, bounds,
lengths, required and optional properties, ``$ref``, ``anyOf``); realistic values for parameters the
schema only types as text (a share code, a Morris position, a phase, a shipped game id) come from the
library strategies, because a random string rarely gets past the first check. A drawn request is then
perhaps broken: a mutated body, a malformed one (not JSON, deeply nested, duplicate keys, huge or
non-finite numbers, wrong content type, not UTF-8), odd parameter text, or an upload with a strange file
name (non-Latin-1, quotes) and contents (mutated saved games, random bytes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from tests.fuzz.catan_strategies import share_codes
from tests.fuzz.diplomacy_strategies import record_texts
from tests.fuzz.morris_strategies import move_lists, position_texts, turn_texts, variant_texts
from tests.fuzz.strategies import (
    HUGE_NUMBER_TEXT,
    ODD_CHARS,
    deep_nesting,
    mutated_json,
    mutated_text,
    odd_numbers,
)

ODD_NAMES = [
    "game.json", "Ölkrieg.json", 'a "quoted" name.json', "игра.jsonl", "名前.json", "x\\y.json",
    "../../etc/passwd", "", " ", "a;b=c.json", "emoji-\U0001f600.json", "nul\x00.json", "line\nbreak.json",
    "%22.json", "x" * 300,
]  # fmt: skip

PHASES = ["S1901M", "F1901M", "W1901A", "F1905M", "S1902R", "COMPLETED", "", " S1901M", "s1901m", "X"]
GAME_IDS = ["1", "2", "3", "4", "0", "x", "../1", "1" * 40, "%00"]


@dataclass
class Request:
    """One HTTP request of the fuzz: method, path (parameters filled in), query, and a body."""

    method: str
    path: str
    params: dict[str, str] = field(default_factory=dict)
    json_body: Any = None
    content: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    files: dict[str, tuple[str, bytes, str]] | None = None
    data: dict[str, str] | None = None
    kind: str = "valid"

    def __repr__(self) -> str:  # hypothesis prints it for a failing case: keep it short
        body = self.json_body if self.content is None else self.content[:200]
        head = f"Request({self.method} {self.path} params={self.params!r}"
        return f"{head} body={str(body)[:300]} kind={self.kind})"


def resolve(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    """Follow ``$ref`` (``#/components/schemas/Name``)."""
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def from_schema(schema: dict[str, Any], components: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """Values following ``schema`` (a JSON-schema subset FastAPI writes), sizes kept small."""
    schema = resolve(schema, components)
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([from_schema(s, components, depth + 1) for s in schema[key]])
    if "allOf" in schema:
        return from_schema(schema["allOf"][0], components, depth + 1)
    kind = schema.get("type")
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        lo, hi = schema.get("minimum"), schema.get("maximum")
        return st.integers(None if lo is None else int(lo), None if hi is None else int(hi))
    if kind == "number":
        return st.floats(
            schema.get("minimum"), schema.get("maximum"), allow_nan=False, allow_infinity=False
        ) | st.integers(-5, 50)
    if kind == "string":
        if schema.get("format") == "binary":
            return st.binary(max_size=64)
        hi = min(int(schema.get("maxLength", 40)), 80)
        return st.text(max_size=hi) | st.text(alphabet=ODD_CHARS, max_size=hi)
    if kind == "array":
        items = schema.get("items", {})
        hi = min(int(schema.get("maxItems", 5)), 5)
        return st.lists(from_schema(items, components, depth + 1), max_size=hi)
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        required = set(schema.get("required", []))
        strategies = {k: from_schema(v, components, depth + 1) for k, v in props.items()}

        @st.composite
        def objects(draw: st.DrawFn) -> dict[str, Any]:
            out = {}
            for k, strat in strategies.items():
                if k in required or draw(st.booleans()):
                    out[k] = draw(strat)
            return out

        return objects()
    # no type: anything JSON
    return st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10))


def realistic(name: str) -> st.SearchStrategy[Any] | None:
    """Values for a parameter or property the schema only types: from the library strategies."""
    table: dict[str, st.SearchStrategy[Any]] = {
        "board": share_codes(),
        "code": share_codes(),
        "position": position_texts(),
        "moves": move_lists().map(str.split) | st.lists(turn_texts(), max_size=6),
        "variant": variant_texts(),
        "phase": st.sampled_from(PHASES),
        "game_id": st.sampled_from(GAME_IDS),
        "measure": st.sampled_from(["tempi", "fear_dynamic", "personal_progress", "stab", "nope", ""]),
        "seed": odd_numbers(),
        "game": st.sampled_from(["catan", "morris", "diplomacy", "chess", ""]),
        "job_id": st.sampled_from(["0", "nope", "a" * 64, "../x"]),
    }
    return table.get(name)


def _param_value(name: str, schema: dict[str, Any], components: dict[str, Any]) -> st.SearchStrategy[str]:
    """Parameter text: the schema's value as text, a realistic one, or odd text."""
    typed = from_schema(schema, components).map(_as_text)
    hint = realistic(name)
    odd = st.one_of(odd_numbers(), st.text(alphabet=ODD_CHARS, max_size=12), HUGE_NUMBER_TEXT)
    options = [typed, odd] + ([hint.map(_as_text)] if hint is not None else [])
    return st.one_of(options).map(_sendable)


def _sendable(text: str) -> str:
    """Text an HTTP client can send: a lone surrogate has no UTF-8 form (it becomes ``?``)."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join(map(str, value))
    return json.dumps(value)


def _body_value(schema: dict[str, Any], components: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A JSON body: properties with realistic values where the library has them."""
    schema = resolve(schema, components)
    props = schema.get("properties", {})
    if not props:
        return from_schema(schema, components)
    required = set(schema.get("required", []))

    @st.composite
    def bodies(draw: st.DrawFn) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, sub in props.items():
            if k in required or draw(st.booleans()):
                hint = realistic(k)
                strat = from_schema(sub, components) if hint is None else hint | from_schema(sub, components)
                out[k] = draw(strat)
        return out

    return bodies()


MALFORMED_BODIES = st.one_of(
    st.sampled_from([b"", b"{", b"[]", b"null", b"1", b'"x"', b"{'a': 1}", b'{"a": NaN}', b"\xff\xfe\x00"]),
    deep_nesting().map(str.encode),
    HUGE_NUMBER_TEXT.map(lambda t: ('{"seed": ' + t + "}").encode()),
    st.binary(max_size=64),
)


@st.composite
def requests(draw: st.DrawFn, schema: dict[str, Any]) -> Request:
    """A request for one operation of ``schema`` drawn by hypothesis, perhaps broken."""
    components = schema.get("components", {}).get("schemas", {})
    ops = [(m, p, op) for p, item in sorted(schema["paths"].items()) for m, op in sorted(item.items())]
    method, path, op = draw(st.sampled_from(ops))
    req = Request(method.upper(), path)
    for param in op.get("parameters", []):
        name, where = param["name"], param["in"]
        if where == "path" or param.get("required") or draw(st.booleans()):
            value = draw(_param_value(name, param.get("schema", {}), components))
            if where == "path":
                from urllib.parse import quote

                req.path = req.path.replace("{" + name + "}", quote(value, safe="") or "%20")
            else:
                req.params[name] = value
    content = op.get("requestBody", {}).get("content", {})
    if "application/json" in content:
        body_schema = content["application/json"]["schema"]
        kind = draw(st.sampled_from(["valid", "valid", "mutated", "malformed", "type"]))
        req.kind = kind
        body = draw(_body_value(body_schema, components))
        if kind == "valid":
            req.json_body = body
        elif kind == "mutated":
            req.json_body = draw(mutated_json(body if isinstance(body, dict) else {"x": body}))
        elif kind == "malformed":
            req.content = draw(MALFORMED_BODIES)
            req.headers["content-type"] = "application/json"
        else:  # the right body with a wrong content type
            req.content = json.dumps(body).encode()
            req.headers["content-type"] = draw(st.sampled_from(["text/plain", "application/xml", ""]))
    elif "multipart/form-data" in content:
        form = resolve(content["multipart/form-data"]["schema"], components)
        kind = draw(st.sampled_from(["valid", "valid", "no-file", "malformed"]))
        req.kind = kind
        if kind == "malformed":
            req.content = draw(MALFORMED_BODIES)
            req.headers["content-type"] = draw(
                st.sampled_from(["multipart/form-data", "multipart/form-data; boundary=x", "text/plain"])
            )
            return req
        data: dict[str, str] = {}
        for name, sub in form.get("properties", {}).items():
            if name == "file":
                continue
            if name in form.get("required", []) or draw(st.booleans()):
                data[name] = draw(_param_value(name, sub, components))
        req.data = data
        if kind == "valid":
            text = draw(record_texts())
            raw = draw(st.sampled_from(["text", "text", "bytes", "mutated"]))
            payload = (
                text.encode("utf-8", "surrogatepass")
                if raw == "text"
                else draw(st.binary(max_size=200))
                if raw == "bytes"
                else draw(mutated_text(text[:2000])).encode("utf-8", "surrogatepass")
            )
            name = _sendable(draw(st.sampled_from(ODD_NAMES) | st.text(max_size=20)))
            req.files = {"file": (name, payload, draw(st.sampled_from(["application/json", "text/plain"])))}
    return req
