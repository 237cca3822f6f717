"""Bounded load run against the web app on 127.0.0.1: requests/s, p95 latency, count of 5xx (must be 0).

Starts the app with uvicorn in a subprocess on a free loopback port (``_harness.app_server``), then a few
client threads (httpx) send a fixed, seeded mix of good and bad requests over the main endpoints (Catan board
views and edits, Morris replay and AI turns, Diplomacy game views, uploads, jobs, pages). The run stops by
itself after ``--requests`` requests or ``--seconds`` seconds, whichever comes first, and stops the server.

    .venv/bin/python benchmarks/web_load.py [--requests 1200] [--threads 4] [--seconds 120]

``--heavy`` runs the fault scenario of issue 24 instead (``tests/web/fault.py``, the same as the fault
test): ``boardeval web`` gets uploads of a game on every Diplomacy map, Catan generator and play-test
jobs, and 4 clients asking the expert (1 s) Morris AI three times each, all at once, while one client asks
``/api/health`` every 10 ms; it prints the health latency (p50/p95/max, and at rest before), the peak
memory of the server's processes, then stops the server with SIGINT (``--signal TERM``: SIGTERM) in the
middle of its jobs and prints how long it took and how many processes were left (from /proc).

    .venv/bin/python benchmarks/web_load.py --heavy [--signal INT|TERM]

Only loopback addresses are ever contacted. Exit status 1 if any response was a 5xx (or a transport error)
or, with ``--heavy``, if a process was left behind.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
from collections import Counter
from typing import Any

import httpx

from _harness import add_common_options, app_server, load_text

SEED_CODE = "O10-S2-W9-G12-B6-S4-B10-G9-W11-D-W3-O8-W8-O3-G4-S5-B5-G6-S11~3S3W3B3GO"

Request = tuple[str, str, dict[str, Any], int]  # name, method, httpx kwargs, expected status class (2 or 4)


def request_mix(rng: random.Random, has_generate: bool) -> list[tuple[float, Any]]:
    """(weight, factory) pairs; each factory draws one request. About a third are bad on purpose."""
    moves = ["d2", "f4", "d1", "b4", "a1", "g1"]
    mix: list[tuple[float, Any]] = [
        (
            8,
            lambda: (
                "catan.random",
                "GET",
                {"url": "/api/catan/random", "params": {"seed": rng.randrange(10**6)}},
                2,
            ),
        ),
        (6, lambda: ("catan.board", "GET", {"url": "/api/catan/board", "params": {"board": SEED_CODE}}, 2)),
        (
            5,
            lambda: (
                "catan.bad_code",
                "GET",
                {"url": "/api/catan/board", "params": {"board": SEED_CODE.replace("O10", "O7")}},
                4,
            ),
        ),
        (
            4,
            lambda: (
                "catan.swap",
                "POST",
                {
                    "url": "/api/catan/swap",
                    "json": {
                        "board": SEED_CODE,
                        "kind": rng.choice(["hexes", "numbers"]),
                        "a": rng.choice([0, 1, 2]),
                        "b": rng.choice([3, 4, 5]),
                    },
                },
                2,
            ),
        ),
        (
            3,
            lambda: (
                "catan.bad_swap",
                "POST",
                {"url": "/api/catan/swap", "json": {"board": SEED_CODE, "kind": "hexes", "a": 0, "b": 99}},
                4,
            ),
        ),
        (3, lambda: ("catan.svg", "GET", {"url": "/api/catan/board.svg", "params": {"board": SEED_CODE}}, 2)),
        (
            8,
            lambda: (
                "morris.state",
                "POST",
                {"url": "/api/morris/state", "json": {"moves": moves[: rng.randrange(len(moves) + 1)]}},
                2,
            ),
        ),
        (
            5,
            lambda: (
                "morris.illegal",
                "POST",
                {"url": "/api/morris/state", "json": {"moves": ["d2", "d2"]}},
                4,
            ),
        ),
        (
            3,
            lambda: (
                "morris.ai",
                "POST",
                {"url": "/api/morris/ai", "json": {"moves": moves[:2], "strength": "easy"}},
                2,
            ),
        ),
        (3, lambda: ("diplomacy.game", "GET", {"url": f"/api/diplomacy/games/{rng.choice('123')}"}, 2)),
        (2, lambda: ("diplomacy.unknown", "GET", {"url": "/api/diplomacy/games/9"}, 4)),
        (
            2,
            lambda: (
                "diplomacy.bad_upload",
                "POST",
                {"url": "/api/diplomacy/upload", "files": {"file": ("broken.json", b'{"phases": [')}},
                4,
            ),
        ),
        (
            1,
            lambda: (
                "diplomacy.too_big",
                "POST",
                {"url": "/api/diplomacy/upload", "files": {"file": ("big.json", b" " * (5 * 2**20 + 1))}},
                4,
            ),
        ),
        (2, lambda: ("validation", "GET", {"url": "/api/catan/random", "params": {"seed": "abc"}}, 4)),
        (2, lambda: ("jobs.unknown", "GET", {"url": "/api/jobs/nope"}, 4)),
        (2, lambda: ("page.index", "GET", {"url": "/", "params": {"seed": rng.randrange(1000)}}, 2)),
        (2, lambda: ("page.catan", "GET", {"url": "/catan", "params": {"board": SEED_CODE}}, 2)),
    ]
    if has_generate:
        mix.append(
            (
                2,
                lambda: (
                    "jobs.generate",
                    "POST",
                    {
                        "url": "/api/jobs/catan/generate",
                        "json": {"method": "random", "seed": rng.randrange(1000)},
                    },
                    2,
                ),
            )
        )
    return mix


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--requests", type=int, default=1200, help="total requests (at least 1,000 for the report)"
    )
    ap.add_argument("--threads", type=int, default=4, help="concurrent client threads")
    ap.add_argument("--seconds", type=float, default=120.0, help="stop after this many seconds in any case")
    add_common_options(ap, seed=1, seed_help="seed of the request mix")
    ap.add_argument("--heavy", action="store_true", help="the fault scenario of issue 24 (see above)")
    ap.add_argument("--signal", choices=["INT", "TERM"], default="INT", help="how --heavy stops the server")
    args = ap.parse_args()
    if args.heavy:
        return heavy(args.signal)
    if args.requests < 1 or args.threads < 1 or args.seconds <= 0:
        ap.error("--requests, --threads and --seconds must be positive")

    with app_server() as base:
        has_generate = "/api/jobs/catan/generate" in httpx.get(base + "/openapi.json").json()["paths"]
        # warm the caches (diplomacy game views, first-import costs) so the figures show steady state
        for gid in "123":
            httpx.get(f"{base}/api/diplomacy/games/{gid}", timeout=60)
        return run(base, args, has_generate)


def run(base: str, args: argparse.Namespace, has_generate: bool) -> int:
    lock = threading.Lock()
    issued = 0
    stop_at = time.monotonic() + args.seconds
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    by_name: Counter[str] = Counter()
    surprises: list[str] = []
    errors: list[str] = []

    def worker(k: int) -> None:
        nonlocal issued
        rng = random.Random(args.seed * 1000 + k)
        mix = request_mix(rng, has_generate)
        weights = [w for w, _ in mix]
        with httpx.Client(base_url=base, timeout=60) as client:
            while True:
                with lock:
                    if issued >= args.requests or time.monotonic() > stop_at:
                        return
                    issued += 1
                name, method, kwargs, expect = rng.choices(mix, weights)[0][1]()
                t0 = time.perf_counter()
                try:
                    r = client.request(method, **kwargs)
                    status = r.status_code
                except httpx.HTTPError as exc:
                    with lock:
                        errors.append(f"{name}: {type(exc).__name__}: {exc}")
                    continue
                dt = time.perf_counter() - t0
                with lock:
                    latencies.append(dt)
                    statuses[status] += 1
                    by_name[name] += 1
                    if status // 100 != expect and not (status == 429 and name == "jobs.generate"):
                        surprises.append(f"{name}: {status} {r.text[:120]}")

    t_start = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t_start

    n = len(latencies)
    five = sum(c for s, c in statuses.items() if s >= 500)
    q = statistics.quantiles(latencies, n=100) if n >= 2 else [0.0] * 99
    print(
        f"web load run: {n} requests in {elapsed:.1f} s with {args.threads} client threads "
        f"against {base} ({load_text()})"
    )
    print(f"requests per second : {n / elapsed:.1f}")
    print(
        f"latency p50 / p95 / max : {1000 * q[49]:.1f} / {1000 * q[94]:.1f} / {1000 * max(latencies):.1f} ms"
    )
    print(f"status codes        : {json.dumps(dict(sorted(statuses.items())))}")
    print(
        f"good / bad requests : {sum(c for s, c in statuses.items() if s < 400)} / "
        f"{sum(c for s, c in statuses.items() if 400 <= s < 500)}"
    )
    print(f"5xx responses       : {five}  (target: 0)")
    print(f"transport errors    : {len(errors)}")
    print("per endpoint        : " + ", ".join(f"{k} {v}" for k, v in sorted(by_name.items())))
    if surprises:
        print(f"unexpected status classes ({len(surprises)}):")
        for line in surprises[:10]:
            print("   ", line)
    for line in errors[:10]:
        print("   ", line)
    return 1 if five or errors else 0


def heavy(signal_name: str) -> int:
    """The fault scenario (tests/web/fault.py) with its figures printed."""
    import signal
    import tempfile
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: tests.web.fault
    from tests.procs import session_pids
    from tests.web.fault import heavy_load, kill_session, start_server, stop

    with tempfile.TemporaryDirectory(prefix="boardeval-heavy-") as home:
        print(f"machine: {load_text()}")
        server = start_server(Path(home))
        try:
            print(
                f"workers ready in {server.ready_seconds:.1f} s; processes: {len(session_pids(server.sid))}"
            )
            figures = heavy_load(server)
            print(figures.summary())
            print(
                "statuses            : "
                + json.dumps({k: dict(Counter(v)) for k, v in figures.statuses.items()})
            )
            print("jobs after the load : " + ", ".join(figures.jobs))
            for line in figures.problems[:10]:
                print("    problem:", line)
            stopped = stop(server, getattr(signal, f"SIG{signal_name}"))
        finally:
            kill_session(server.sid)
    work = stopped.at_signal
    print(
        f"SIG{signal_name} with {work.get('heavy_requests')} search(es) and {work.get('jobs_running')} "
        f"job(s) at work: exit {stopped.code} after {stopped.seconds:.2f} s "
        f"({stopped.cpu_after:.2f} CPU-s), processes left: {len(stopped.left)} {stopped.left_after_guard}"
    )
    print(f"at the end: {load_text()}")
    return 1 if stopped.left or figures.problems else 0


if __name__ == "__main__":
    sys.exit(main())
