"""Figure 6: the deadline sweep (games.tasks.due_match_ids) must cost what the number of due
matches costs, not the number stored. 100 due matches among 1,000, then the same 100 among
100,000; the median time of the sweep's query at each size, and its plan.

The rows are made by SQL (the sweep reads only ids and a few columns, so a small dict
stands for the state). Of the matches not due, half are running with a deadline days ahead and
half finished, as on a live site; ANALYZE follows each fill, as autovacuum would do."""
from __future__ import annotations

import time
from datetime import timedelta

from bench.common import Figure, make_users, median

DUE = 100
SMALL, LARGE = 1_000, 100_000
CALLS = 100


def _fill(creator, count: int, due: int, now) -> None:
    """`count` matches, the first `due` of them due: two model rows made with the ORM, copied
    by one INSERT … SELECT over generate_series (fast, and the columns follow the model)."""
    from django.db import connection

    from games.models import Match

    common = dict(game="pirater", seats_count=2, creator=creator, state={"round": 1}, version=10)
    running = Match.objects.create(status=Match.RUNNING, turn_seats=[0], turn_deadline=now,
                                   next_due_at=now, **common)
    finished = Match.objects.create(status=Match.FINISHED, turn_seats=[], **common)
    columns = [f.column for f in Match._meta.concrete_fields if f.column != "id"]
    # Row g (1-based): due if g <= due; else running (days ahead) when g is even, else finished.
    computed = {
        "invite_code": "md5(random()::text || g::text)",
        "status": f"CASE WHEN g <= {due} OR g %% 2 = 0 THEN 'running' ELSE 'finished' END",
        "turn_seats": "CASE WHEN g <= {due} OR g %% 2 = 0 THEN '[0]'::jsonb ELSE '[]'::jsonb END",
        "turn_deadline": "{when}", "next_due_at": "{when}",
    }
    when = (f"CASE WHEN g <= {due} THEN %(now)s - (1 + g %% 50) * interval '1 minute' "
            f"WHEN g %% 2 = 0 THEN %(now)s + (1 + g %% 13) * interval '1 day' ELSE NULL END")
    select = [computed[c].format(due=due, when=when) if c in computed else f"t.{c}" for c in columns]
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO games_match ({', '.join(columns)}) SELECT {', '.join(select)} "
                       f"FROM games_match t, generate_series(1, %(count)s) g WHERE t.id = %(template)s",
                       {"now": now, "count": count, "template": running.pk})
        cursor.execute("DELETE FROM games_match WHERE id IN (%s, %s)", [running.pk, finished.pk])


def _time_sweep(now) -> tuple[float, list, str]:
    from django.db import connection

    from games.models import Match
    from games.tasks import SWEEP_BATCH, due_match_ids

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_match")
    times = []
    for _ in range(CALLS):
        start = time.perf_counter()
        due, system = due_match_ids(now)
        times.append(time.perf_counter() - start)
    times = times[CALLS // 10:]  # the first calls warm the caches
    running = Match.objects.filter(status=Match.RUNNING)
    plans = [running.filter(next_due_at__lte=now).order_by("next_due_at").values_list("id", flat=True)
             [:SWEEP_BATCH].explain(analyze=True),
             running.filter(needs_system=True).values_list("id", flat=True)[:SWEEP_BATCH].explain(analyze=True)]
    return median(times), [len(due), len(system)], "\n".join(plans)


def measure() -> list[Figure]:
    from django.db import connection
    from django.utils import timezone

    from games.models import Match

    creator = make_users("sweep", 1)[0]
    now = timezone.now()
    _fill(creator, SMALL, DUE, now)
    first = Match.objects.order_by("-id").values_list("id", flat=True)[0]
    small_s, small_found, small_plan = _time_sweep(now)
    _fill(creator, LARGE - SMALL, 0, now)
    assert Match.objects.count() == LARGE
    large_s, large_found, large_plan = _time_sweep(now)
    # Small again, so that a busy moment of the machine does not decide the ratio alone.
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_match WHERE id > %s", [first])
    again_s, _, _ = _time_sweep(now)
    small_s = median([small_s, again_s])
    # Clear them away: the other parts of the bench want a quiet table.
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_match WHERE creator_id = %s", [creator.pk])
    ratio = large_s / small_s
    seq_scan = "Seq Scan" in large_plan
    return [Figure(
        "sweep_ratio", round(ratio, 2), "ratio", "<= 2", ratio <= 2 and large_found[0] == DUE,
        baseline=round(small_s * 1e3, 3),
        compared_with=f"median ms of due_match_ids() with {DUE} due among {SMALL:,}",
        note=f"{large_s * 1e3:.3f} ms among {LARGE:,} vs {small_s * 1e3:.3f} ms among {SMALL:,}; "
             f"found {large_found[0]} due; plan {'has a Seq Scan' if seq_scan else 'uses the partial indexes'}",
        detail={"plan_small": small_plan, "plan_large": large_plan, "found_small": small_found,
                "found_large": large_found})]
