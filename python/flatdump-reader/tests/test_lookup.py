"""snapshot.lookup and snapshot.locate against a linear scan of the same export."""

import json
import os

import pytest

import flatdump_reader
from flatdump_reader import FlatdumpReaderError, Location

from conftest import copy_export

LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1


def scan(snapshot, case):
    """Every record's Location by key, found by reading each shard's records in order."""
    where = {}
    for s in range(snapshot.shard_count):
        root = case.Rs.GetRootAs(snapshot.shard(s), 0)
        for j in range(root.RsLength()):
            r = root.Rs(j)
            where[case.key_of(r)] = Location(s, j, r._tab.Pos)
    return where


def absent_probes(case, snapshot):
    """Keys no record has: before the first, between each two neighbours, after the last, and
    those between two shards' ranges; with how many of them fall between shards."""
    keys = [k for k, _ in case.expected]
    probes = []
    if case.key_type == "string":
        raw = sorted(k.encode("utf-8") for k in keys)
        probes += [b"\x00" + raw[0] if raw[0] else None, raw[-1] + b"\x00", b"\xff\xff", "~~~"]
        probes += [a + b"\x00" for a in raw] + [a[:-1] for a in raw if a]
        probes += [a + b"\xff" for a in raw]
    else:
        probes += [min(keys) - 1, max(keys) + 1, LONG_MIN, LONG_MAX]
        probes += [k + d for k in keys for d in (-1, 1)]
    present = set(k.encode("utf-8") if isinstance(k, str) else k for k in keys)
    probes = [p for p in probes if p is not None and p not in present]
    shards = snapshot.manifest.shards
    between = [p for p in probes for a, b in zip(shards, shards[1:])
               if a.last_key < (p.encode() if isinstance(p, str) else p) < b.first_key]
    return probes, len(between)


def test_every_key_is_found_where_a_linear_scan_finds_it(case):
    with flatdump_reader.open(case.out) as reader, reader.snapshot() as s:
        where = scan(s, case)
        assert len(where) == len(case.expected)
        for key, n in case.expected:
            assert s.locate(key) == where[key]
            r = s.lookup(key, case.R)
            assert (case.key_of(r), r.N()) == (key, n)
            if case.key_type == "string":
                assert s.locate(key.encode("utf-8")) == where[key], "bytes are keys too"


def test_absent_keys_are_not_found_before_between_in_gaps_and_after(case):
    with flatdump_reader.open(case.out) as reader, reader.snapshot() as s:
        probes, between_shards = absent_probes(case, s)
        assert between_shards > 0, "some probes fall between two shards' ranges"
        assert len(probes) > len(case.expected)
        for p in probes:
            assert s.locate(p) is None, p
            assert s.lookup(p, case.R) is None, p


def test_keys_no_record_of_the_type_can_have_are_not_found_and_wrong_kinds_refused(case):
    with flatdump_reader.open(case.out) as reader, reader.snapshot() as s:
        if case.key_type == "long":
            assert s.locate(LONG_MAX + 1) is None
            assert s.locate(LONG_MIN - 1) is None
            with pytest.raises(TypeError):
                s.locate("7")
            with pytest.raises(TypeError):
                s.locate(True)
        else:
            with pytest.raises(TypeError):
                s.locate(7)


def test_an_export_without_a_lookup_in_its_manifest_refuses_lookups(strings, tmp_path):
    export = copy_export(strings.export_dir(), str(tmp_path / "e"))
    manifest = os.path.join(export, "manifest.json")
    with open(manifest, encoding="utf-8") as f:
        m = json.load(f)
    del m["schema"]["lookup"]
    with open(manifest, "w", encoding="utf-8") as f:
        json.dump(m, f)
    with flatdump_reader.open(export) as reader, reader.snapshot() as s:
        assert len(list(s.records(strings.Rs.GetRootAs, "Rs"))) == len(strings.expected)
        with pytest.raises(FlatdumpReaderError, match="no .key. field"):
            s.locate("a")


def test_shards_listed_out_of_key_order_are_all_searched(case, tmp_path):
    export = copy_export(case.export_dir(), str(tmp_path / "e"))
    manifest = os.path.join(export, "manifest.json")
    with open(manifest, encoding="utf-8") as f:
        m = json.load(f)
    shards = [f for f in m["files"] if f["format"] == "flatbuffers"]
    rest = [f for f in m["files"] if f["format"] != "flatbuffers"]
    shards.reverse()
    for i, f in enumerate(shards):
        f["shard"] = i
    m["files"] = shards + rest
    with open(manifest, "w", encoding="utf-8") as f:
        json.dump(m, f)
    with flatdump_reader.open(export) as reader, reader.snapshot() as s:
        assert s.shard(0) is not None and s.manifest.shards[0].name == shards[0]["name"]
        where = scan(s, case)
        for key, n in case.expected:
            assert s.locate(key) == where[key]
            assert s.lookup(key, case.R).N() == n
        probes, _ = absent_probes(case, s)
        assert all(s.locate(p) is None for p in probes)
