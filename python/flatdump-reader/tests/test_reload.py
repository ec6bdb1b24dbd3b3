"""Reloads: a held snapshot reads its own export across publishes and is unmapped when closed;
threads looking up keys while exports are published and reloaded all get their export's answer."""

import os
import random
import re
import threading

import pytest

import flatdump_reader

from conftest import publish


def records(case, snapshot):
    return [(case.key_of(r), r.N()) for r in snapshot.records(case.Rs.GetRootAs, "Rs")]


def test_a_snapshot_held_across_publishes_reads_its_export_until_closed_then_is_unmapped(
        generations, tmp_path):
    g0, g1, g2 = generations[0], generations[1], generations[2]
    out = str(tmp_path / "out")
    first = publish(out, g0.export_dir(), "p0", keep=1)
    with flatdump_reader.open(out) as reader:
        held = reader.snapshot()
        assert held.directory == first
        iterating = held.records(g0.Rs.GetRootAs, "Rs")
        half = [next(iterating) for _ in range(len(g0.expected) // 2)]
        half = [(g0.key_of(r), r.N()) for r in half]
        record = held.lookup(g0.expected[0][0], g0.R)

        publish(out, g1.export_dir(), "p1", keep=1)
        assert reader.reload() is True
        publish(out, g2.export_dir(), "p2", keep=1)  # keep 1: p0's files are deleted
        assert reader.reload() is True
        assert not os.path.exists(first)

        rest = [(g0.key_of(r), r.N()) for r in iterating]
        assert half + rest == g0.expected
        for key, n in g0.expected:
            assert held.lookup(key, g0.R).N() == n
        assert record.N() == g0.expected[0][1]
        with reader.snapshot() as now:
            assert now.id == "p2"
            assert records(g2, now) == g2.expected
            for key, n in g2.expected:
                assert now.lookup(key, g2.R).N() == n

        # the deleted export stays mapped, by its old name, until its last handle closes
        assert flatdump_reader.mapped_regions(first + "/") == held.shard_count
        assert flatdump_reader.mapped_regions(os.path.join(out, "exports", "p1") + "/") == 0
        held.close()
        assert flatdump_reader.mapped_regions(first + "/") == 0
        with pytest.raises(ValueError):
            record.N()  # a record of a closed snapshot reads a closed map: an error, not a crash
        with pytest.raises(ValueError):
            next(held.records(g0.Rs.GetRootAs, "Rs"))
        with reader.snapshot() as now:
            assert flatdump_reader.mapped_regions(out + "/") == now.shard_count


THREADS = 8
PUBLISHES = 100


def test_threads_looking_up_while_exports_are_published_and_reloaded_all_get_their_exports_answer(
        generations, tmp_path):
    out = str(tmp_path / "out")
    expected = [dict(g.expected) for g in generations]
    every_key = sorted(set(k for g in generations for k, _ in g.expected)) + ["k999", "k", "a"]
    max_shards = 0
    for g in generations:
        with flatdump_reader.open(g.out) as r, r.snapshot() as s:
            max_shards = max(max_shards, s.shard_count)
    # each thread holds one snapshot at a time, the reader holds one and a reload maps one more
    bound = (THREADS + 2) * max_shards
    R, Rs = generations[0].R, generations[0].Rs

    publish(out, generations[0].export_dir(), "p000-g0", keep=3)
    reader = flatdump_reader.open(out)
    failures = []
    seen = {}  # export id -> lookups answered from it
    seen_lock = threading.Condition()
    regions = []
    stop = threading.Event()

    def generation(snapshot):
        return int(re.fullmatch(r"p\d+-g(\d+)", snapshot.id).group(1))

    def look_up(t):
        rnd = random.Random(t)
        n = 0
        while not stop.is_set():
            with reader.snapshot() as s:
                want = expected[generation(s)]
                if t == 0:
                    # one thread reads whole exports, while reloads happen
                    got = records(generations[generation(s)], s)
                    if got != generations[generation(s)].expected:
                        failures.append("%s: records differ" % s.id)
                for key in rnd.sample(every_key, 20):
                    r = s.lookup(key, R)
                    answer = None if r is None else (r.Id().decode("utf-8"), r.N())
                    if answer != ((key, want[key]) if key in want else None):
                        failures.append("%s: %s gave %r" % (s.id, key, answer))
                regions.append(flatdump_reader.mapped_regions(out + "/"))
                with seen_lock:
                    seen[s.id] = seen.get(s.id, 0) + 1
                    seen_lock.notify_all()
            n += 1
            if n % 25 == 0:
                reader.reload()  # reloads from several threads are serialized

    def guarded(t):
        try:
            look_up(t)
        except Exception as e:  # noqa: BLE001 - every failure is the test's
            failures.append("thread %d: %r" % (t, e))

    threads = [threading.Thread(target=guarded, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    try:
        for p in range(1, PUBLISHES + 1):
            g = p % len(generations)
            name = "p%03d-g%d" % (p, g)
            publish(out, generations[g].export_dir(), name, keep=3)
            reader.reload()
            assert reader.current_id == name
            regions.append(flatdump_reader.mapped_regions(out + "/"))
            with seen_lock:  # every thread's next lookups see this export before the next publish
                assert seen_lock.wait_for(lambda: seen.get(name, 0) >= THREADS, timeout=120), \
                    "lookups on %s" % name
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert failures == []
    assert sorted(seen) == ["p%03d-g%d" % (p, p % len(generations)) for p in range(PUBLISHES + 1)]
    assert max(regions) <= bound, (max(regions), bound)
    current = reader.snapshot()
    assert flatdump_reader.mapped_regions(out + "/") == current.shard_count
    current.close()
    reader.close()
    assert flatdump_reader.mapped_regions(out + "/") == 0


def test_follow_reloads_by_itself_until_closed(generations, tmp_path):
    g0, g1, g2 = generations[0], generations[1], generations[2]
    out = str(tmp_path / "out")
    publish(out, g0.export_dir(), "p0", keep=3)
    switched = threading.Event()

    class Heard(flatdump_reader.ReloadListener):
        def refreshed(self, old_id, new_id):
            switched.set()

    with flatdump_reader.open(out) as reader:
        reader.add_listener(Heard())
        with pytest.raises(ValueError):
            reader.follow(0)
        following = reader.follow(0.05)
        publish(out, g1.export_dir(), "p1", keep=3)
        assert switched.wait(120), "follow reloaded to p1"
        assert reader.current_id == "p1"
        following.close()
        following.close()
        publish(out, g2.export_dir(), "p2", keep=3)
        assert reader.current_id == "p1", "no reload once closed"
        with reader.follow(0.05) as again:
            assert again is not following
        reader.close()


def test_closing_the_reader_ends_its_followers_at_once(generations, tmp_path):
    out = str(tmp_path / "out")
    publish(out, generations[0].export_dir(), "p0", keep=3)
    reader = flatdump_reader.open(out)
    following = reader.follow(600)
    assert following._thread.is_alive()
    reader.close()
    following._thread.join(5)
    assert not following._thread.is_alive(), "the follower outlives its closed reader"
