"""config.cache: Django's Redis cache with one redis-py client kept per connection pool."""
from config.cache import RedisCache
from tests.test_faults import redis_server  # noqa: F401 (a private redis-server for the test)


def test_a_cache_call_reuses_its_pools_client():
    cache = RedisCache("redis://127.0.0.1:6379/15", {})
    first = cache._cache.get_client("a")
    assert cache._cache.get_client("b") is first
    assert cache._cache.get_client("c", write=True) is first  # one server: reads and writes share a pool
    assert first.connection_pool is cache._cache._get_connection_pool(False)


def test_with_replicas_each_pool_has_its_own_client():
    cache = RedisCache("redis://127.0.0.1:6379/15,redis://127.0.0.1:6380/15", {})
    writer = cache._cache.get_client("a", write=True)
    reader = cache._cache.get_client("a")
    assert writer is not reader
    assert writer.connection_pool.connection_kwargs["port"] == 6379
    assert reader.connection_pool.connection_kwargs["port"] == 6380
    assert cache._cache.get_client("b", write=True) is writer


def test_the_kept_client_stores_and_counts(redis_server):  # noqa: F811
    cache = RedisCache(redis_server.url, {"OPTIONS": {"socket_timeout": 5}})
    cache.delete("tradewinds-test-kept")
    assert cache.add("tradewinds-test-kept", 1, 30) and not cache.add("tradewinds-test-kept", 2, 30)
    assert cache.incr("tradewinds-test-kept") == 2 and cache.get("tradewinds-test-kept") == 2
    cache.delete("tradewinds-test-kept")
