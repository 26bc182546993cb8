"""The hottest reads, with their SQL built by the ORM once per process instead of once per call.

Under load most of a request's CPU went to Django turning a QuerySet into SQL, not to the
database: the seats of a match with their players' profiles took 2.3 ms to read through the
ORM, of which 0.3 ms was executing and fetching. A `PreparedRead` builds its QuerySet once, with
stand-in values for its parameters, keeps the SQL and what the ORM learnt while compiling it
(the columns, the models to build, the converters), and from then on only executes that SQL
with the real values and builds the instances as `ModelIterable` does. The SQL is the ORM's own;
nothing is written by hand. Django's compiler attributes used here (`select`, `klass_info`,
`annotation_col_map`, `get_converters`) are those `ModelIterable` uses in the Django pinned in
pyproject.toml; tests/test_prepared.py compares every prepared read with its plain QuerySet.

Only equality filters on plain values may be parameters: each stand-in must reach the SQL's
parameters unchanged, which the first build checks."""
import threading

from django.db import connections
from django.db.models.query import ModelIterable, ValuesListIterable, get_related_populators

# Stand-ins for the parameters while the SQL is built, each its own: whole numbers that every
# integer field takes (Django turns a lookup out of a field's range into no query at all) and
# that no other parameter of these reads is.
_STAND_INS = [2_147_480_001 + n for n in range(8)]


class _Plan:
    def __init__(self, queryset, stand_ins, alias):
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        self.sql, self.params = sql, list(params)
        self.slots = []  # (position, the type the backend gave the parameter: psycopg's Int4 for an
        # integer field on PostgreSQL, so the real value is given that type too)
        for stand_in in stand_ins:
            found = [i for i, p in enumerate(self.params) if not isinstance(p, bool)
                     and (p == stand_in or p == str(stand_in))]
            if len(found) != 1:
                raise ValueError(f"a prepared read's parameter must appear once in its SQL: {sql}")
            kind = type(self.params[found[0]])
            self.slots.append((found[0], None if kind in (int, str) else kind))
        select, klass_info = compiler.select, compiler.klass_info
        self.converters = list(compiler.get_converters([s[0] for s in select[:compiler.col_count]]).items())
        self.width = compiler.col_count
        if queryset._iterable_class is ValuesListIterable:  # values_list(): the rows as tuples
            self.model = None
            return
        if queryset._iterable_class is not ModelIterable:
            raise ValueError("a prepared read gives instances or values_list() tuples")
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start:self.end]]
        self.related = get_related_populators(klass_info, select, alias)
        self.annotations = dict(compiler.annotation_col_map or {})


class PreparedRead:
    """`PreparedRead(lambda a, b: Model.objects.filter(x=a, y=b)...)`, then `.all(a, b)`: the
    instances the QuerySet would give for those values (tuples for a values_list), through the
    SQL built the first time."""

    def __init__(self, build):
        self.build = build
        self.plans, self.lock = {}, threading.Lock()

    def _plan(self, alias, arity):
        plan = self.plans.get(alias)
        if plan is None:
            with self.lock:
                plan = self.plans.get(alias)
                if plan is None:
                    stand_ins = _STAND_INS[:arity]
                    plan = self.plans[alias] = _Plan(self.build(*stand_ins), stand_ins, alias)
        return plan

    def all(self, *values, using="default") -> list:
        plan = self._plan(using, len(values))
        params = list(plan.params)
        for (slot, kind), value in zip(plan.slots, values):
            params[slot] = value if kind is None else kind(value)
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchall()
        out = []
        for row in rows:
            if plan.converters:
                row = list(row)
                for pos, (convs, expression) in plan.converters:
                    value = row[pos]
                    for converter in convs:
                        value = converter(value, expression, connection)
                    row[pos] = value
            if plan.model is None:
                out.append(tuple(row[:plan.width]))
                continue
            obj = plan.model.from_db(using, plan.init_list, row[plan.start:plan.end])
            for populator in plan.related:
                populator.populate(row, obj)
            for name, pos in plan.annotations.items():
                setattr(obj, name, row[pos])
            out.append(obj)
        return out

    def first(self, *values, using="default"):
        found = self.all(*values, using=using)
        return found[0] if found else None


def prefetched(instance, name: str, objects: list) -> None:
    """Hand a reverse foreign key's objects to `instance` as prefetch_related would: then
    `instance.<name>.all()` is that list, and each object knows `instance` without a query."""
    manager = getattr(instance, name)
    for obj in objects:
        manager.field.set_cached_value(obj, instance)
    queryset = manager.get_queryset()
    queryset._result_cache, queryset._prefetch_done = objects, True
    instance.__dict__.setdefault("_prefetched_objects_cache", {})[manager.field.remote_field.cache_name] = queryset
