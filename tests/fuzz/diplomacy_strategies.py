"""Hypothesis strategies for Diplomacy game records (the engine's saved-game JSON / JSONL).

Bases: a minimal record, the standard map's start, a few short seeded random games exported by the engine
(with orders, results, builds... as the engine writes them) and the first phases of a shipped human game
(with press). Each strategy perhaps breaks its base: the shared structural mutations of
:mod:`tests.fuzz.strategies`, plus issue 17's cases: two units in one province, a power under two
spellings, phase names that are not phases, a repeated phase, ``[]``, huge numbers, duplicate keys and
deep nesting in the text.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

from hypothesis import strategies as st

from boardeval.diplomacy import load_map_graph, random_game, shipped_game_paths
from tests.fuzz.strategies import (
    HUGE_INTS,
    HUGE_NUMBER_TEXT,
    deep_nesting,
    mutated_json,
    mutated_text,
)

ODD_PHASES = [
    "", "S1901", "X1901M", "W1901M", "S1901A", "s1901m", " S1901M", "S1901M ", "S190M", "S19011M",
    "S\uff11901M", "F1901R\n", "COMPLETED", "completed", "S-901M", "S" + "9" * 5000 + "M",
]  # fmt: skip


def _minimal() -> dict[str, Any]:
    state = {
        "units": {"AUSTRIA": ["A VIE", "F TRI"], "RUSSIA": ["F STP/SC"]},
        "centers": {"AUSTRIA": ["VIE"]},
    }
    return {"id": "g1", "map": "standard", "phases": [{"name": "S1901M", "state": state}]}


def _start() -> dict[str, Any]:
    graph = load_map_graph("standard")
    state = {
        "units": {p: list(us) for p, us in zip(graph.powers, graph.start_units, strict=True)},
        "centers": {p: list(cs) for p, cs in zip(graph.powers, graph.start_centers, strict=True)},
    }
    return {"id": "start", "map": "standard", "phases": [{"name": "S1901M", "state": state}]}


@functools.cache
def base_records() -> tuple[dict[str, Any], ...]:
    """The valid bases (built once: the random games cost the engine ~0.2 s each)."""
    from diplomacy.utils.export import to_saved_game_format

    out = [_minimal(), _start()]
    out += [to_saved_game_format(random_game(seed, max_phases=5)) for seed in (1, 2)]
    paths = shipped_game_paths()
    if paths:
        human = json.loads(paths[0].read_text(encoding="utf-8"))
        human["phases"] = human["phases"][:3]
        for phase in human["phases"]:  # a few messages each: the text stays ~10 KB (fast to mutate)
            phase["messages"] = phase["messages"][:3]
        out.append(human)
    return tuple(json.loads(json.dumps(r)) for r in out)


@st.composite
def valid_records(draw: st.DrawFn) -> dict[str, Any]:
    return copy.deepcopy(draw(st.sampled_from(base_records())))


@st.composite
def record_docs(draw: st.DrawFn) -> Any:
    """A saved-game object: valid, structurally mutated, or with one of issue 17's record problems."""
    doc = draw(valid_records())
    kind = draw(
        st.sampled_from(
            ["valid", "mutated", "mutated", "two_units", "spelling", "phase", "repeat", "huge", "shape"]
        )
    )
    phase = doc["phases"][draw(st.integers(0, len(doc["phases"]) - 1))]
    units = phase["state"]["units"]
    if kind == "mutated":
        return draw(mutated_json(doc, max_ops=draw(st.integers(1, 3))))
    if kind == "two_units":  # a unit copied to another power (or twice to the same one)
        powers = sorted(units)
        src = draw(st.sampled_from(powers))
        if units[src]:
            dst = draw(st.sampled_from([*powers, "TURKEY"]))
            units.setdefault(dst, []).append(draw(st.sampled_from(units[src])))
    elif kind == "spelling":  # the same power under another spelling
        power = draw(st.sampled_from(sorted(units)))
        other = draw(st.sampled_from([power.lower(), power.title(), f" {power}", power + " "]))
        units[other] = list(units[power])
        if draw(st.booleans()):
            del units[power]
    elif kind == "phase":
        phase["name"] = draw(st.sampled_from(ODD_PHASES))
    elif kind == "repeat":
        doc["phases"].insert(draw(st.integers(0, len(doc["phases"]))), copy.deepcopy(phase))
    elif kind == "huge":
        phase["state"]["timestamp"] = draw(HUGE_INTS)
    elif kind == "shape":
        return draw(st.sampled_from([[], {}, [[]], {"phases": []}, None, "S1901M", [doc, 1]]))
    return doc


@st.composite
def record_texts(draw: st.DrawFn) -> str:
    """Record text: a document as JSON or JSONL (several games), mutated text, duplicate keys, deep
    nesting, non-JSON constants or huge literals."""
    kind = draw(st.sampled_from(["doc", "doc", "jsonl", "list", "text", "duplicate", "deep", "constant"]))
    if kind == "doc":
        doc = draw(record_docs())
        indent = draw(st.sampled_from([None, 1]))
        return json.dumps(doc, indent=indent)
    if kind in ("jsonl", "list"):
        docs = draw(st.lists(record_docs(), min_size=0, max_size=3))
        return "\n".join(json.dumps(d) for d in docs) if kind == "jsonl" else json.dumps(docs)
    text = json.dumps(draw(valid_records()))
    if kind == "text":
        return draw(mutated_text(text, max_ops=2))
    if kind == "duplicate":
        key = draw(st.sampled_from(['"name": ', '"units": ', '"AUSTRIA": ', '"id": ', '"phases": ']))
        at = text.find(key)
        return text if at < 0 else text[:at] + key + "null, " + text[at:]
    if kind == "deep":
        return draw(deep_nesting())
    return text.replace('"S1901M"', draw(HUGE_NUMBER_TEXT | st.sampled_from(["NaN", "-Infinity"])), 1)
