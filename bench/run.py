"""`make bench`: every figure of the benchmark suite, measured side by side in one run.

    .venv/bin/python bench/run.py [--only engines,bots,catan,pairing,queries,change,sweep,latency,pages,load,open_loop,idle_sockets,socket_spam,peer] [--seconds 60]

Prints a table (name, value, unit, target, pass/fail) and writes bench/results.json. It drops
and recreates its own database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1/bench)
and uses its own Redis database (BENCH_REDIS_URL, default redis://127.0.0.1:6379/9). See
docs/benchmarks.md for what each figure means and how it is measured.
"""
from __future__ import annotations

import argparse
import fcntl
import importlib
import json
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

# Run as a script, Python puts bench/ first on the path; the repository root is what we want.
ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

from bench import common  # noqa: E402
from bench.common import Figure  # noqa: E402

PARTS = ("engines", "bots", "catan", "pairing", "queries", "change", "sweep", "latency", "pages", "load", "open_loop", "idle_sockets",
         "socket_spam", "peer")


def table(figures: list[Figure]) -> str:
    rows = [("name", "value", "unit", "target", "result")]
    for f in figures:
        value = "—" if f.value is None else (f"{f.value:,}" if isinstance(f.value, int) else f"{f.value:,.3g}"
                                              if abs(f.value) < 100 else f"{f.value:,.0f}")
        result = {True: "pass", False: "FAIL", None: ""}[f.passed]
        rows.append((f.name, value, f.unit, f.target, result))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = ["  ".join(cell.ljust(w) if i != 1 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths)))
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=",".join(PARTS), help="comma-separated parts to run")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the load test")
    parser.add_argument("--matches", type=int, default=200, help="matches played at once in the load test")
    parser.add_argument("--no-scaling", action="store_true",
                        help="skip the load tests on one and on two HTTP workers and Daphnes (processes_1, processes_2)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results.json"))
    args = parser.parse_args(argv)
    parts = [p for p in args.only.split(",") if p]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")

    # Two benches at once would drop each other's database and flush each other's Redis.
    lock = open(Path(tempfile.gettempdir()) / "tradewinds-bench.lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("Another bench is running on this machine; wait for it to finish.", file=sys.stderr)
        return 2

    started = time.monotonic()
    figures: list[Figure] = []
    failures: list[str] = []
    timings: dict[str, float] = {}
    info = common.machine()

    def part(name, *fn_args):
        if name not in parts:
            return
        print(f"[bench] {name}…", flush=True)
        t0 = time.monotonic()
        try:
            got = importlib.import_module(f"bench.{name}").measure(*fn_args)
        except Exception:
            failures.append(f"{name}: {traceback.format_exc()}")
            print(f"[bench] {name} failed:\n{traceback.format_exc()}", flush=True)
            got = [Figure(f"{name}_failed", None, "", "runs", False, note="see the traceback above")]
        timings[name] = round(timings.get(name, 0) + time.monotonic() - t0, 1)
        for figure in got:
            print(f"    {figure.name} = {figure.value} {figure.unit}", flush=True)
        figures.extend(got)

    part("engines")
    part("bots")
    part("catan")
    part("pairing")

    if set(parts) - {"engines", "bots", "catan"}:
        print("[bench] fresh database, migrations, static files…", flush=True)
        common.fresh_database()
        common.flush_redis()
        common.setup_django()
        part("sweep")
        part("queries")
        part("change")
        if set(parts) & {"latency", "pages", "load", "open_loop", "idle_sockets", "socket_spam"}:
            with common.Servers() as servers:
                part("latency", servers)
                part("pages", servers)
                part("load", servers, args.seconds, args.matches)
                part("load", servers, args.seconds, args.matches, None, "socket")
                part("load", servers, args.seconds, args.matches, None, "state")
                part("open_loop", servers, args.seconds, args.matches)
                part("idle_sockets", servers)
                part("socket_spam", servers)
                server_errors = servers.errors()
            if "load" in parts and not args.no_scaling:
                # How it scales: the same load on one HTTP worker and one Daphne, and on two of
                # each, against the same PostgreSQL and Redis.
                for count in (1, 2):
                    common.flush_redis()
                    with common.Servers(http_workers=count, daphnes=count,
                                        threads=max(1, common.HTTP_WORKERS * common.HTTP_THREADS // count)) as layout:
                        part("load", layout, args.seconds, args.matches, f"processes_{count}")
                        server_errors += layout.errors()
            if server_errors:
                print("[bench] the servers logged errors:\n  " + "\n  ".join(server_errors[:20]), flush=True)
            info["server_errors"] = server_errors[:50]

    # The peer runs alone, once Tradewinds' servers are stopped, and is compared with the closed-loop
    # load's CPU per move of this same run.
    part("peer", args.seconds, args.matches)
    from bench.peer import compare

    figures.extend(compare(figures))

    total = round(time.monotonic() - started, 1)
    info.update(seconds=total, seconds_by_part=timings, finished_at=time.strftime("%Y-%m-%d %H:%M:%S %Z"))
    info["load_average_at_end"] = os.getloadavg()
    busy = max(info["load_average"][0], info["load_average_at_end"][0]) > (info["cores"] or 1)
    if busy:
        info["busy"] = (f"load average {info['load_average'][0]:.1f} at the start and "
                        f"{info['load_average_at_end'][0]:.1f} at the end on {info['cores']} cores: other work shares "
                        f"the machine; absolute times are not comparable between runs")
    results = {"machine": info, "figures": [f.as_json() for f in figures], "failures": failures}
    Path(args.out).write_text(json.dumps(results, indent=2, default=str) + "\n")
    print()
    print(table(figures))
    print(f"\n{sum(f.passed is True for f in figures)} pass, {sum(f.passed is False for f in figures)} fail, "
          f"{total:.0f} s on {info['cores']} cores ({info['cpu']}); load average at start "
          f"{', '.join(f'{x:.1f}' for x in info['load_average'])}. Wrote {args.out}")
    if busy:
        print(f"Note: {info['busy']}.")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
