"""Opening real exports and reading every record through flatc's generated classes."""

import os
import shutil

import pytest

import flatdump_reader
from flatdump_reader import FlatdumpReaderError


def key_bytes(key):
    return key.encode("utf-8") if isinstance(key, str) else key


def test_every_record_read_is_what_was_exported(case):
    with flatdump_reader.open(case.out) as reader, reader.snapshot() as s:
        assert s.shard_count > 1, "several shards, each read on its own"
        assert s.record_count == len(case.expected)
        read = [(case.key_of(r), r.N()) for r in s.records(case.Rs.GetRootAs, "Rs")]
    assert read == case.expected


def test_the_manifest_says_how_to_look_up_and_where_each_shard_starts_and_ends(case):
    with flatdump_reader.open(case.out) as reader, reader.snapshot() as s:
        lookup = s.manifest.lookup
        assert (lookup.records_field, lookup.key_field, lookup.key_type) == ("rs", "id", case.key_type)
        i = 0
        for shard in s.manifest.shards:
            assert shard.records > 0
            keys = [key_bytes(k) for k, _ in case.expected[i:i + shard.records]]
            assert (shard.first_key, shard.last_key) == (keys[0], keys[-1])
            # strictly increasing: strings by their UTF-8 bytes (bytes compare as memcmp does)
            assert all(a < b for a, b in zip(keys, keys[1:]))
            i += shard.records
        assert i == len(case.expected)


def test_the_output_directory_the_current_file_and_the_export_itself_are_followed(strings, tmp_path):
    export = strings.export_dir()
    with flatdump_reader.open(strings.out) as reader:
        assert reader.current_id == os.path.basename(export)
        with reader.snapshot() as s:
            assert s.directory == export
    # without the link, the CURRENT file names the export
    out = tmp_path / "out"
    os.makedirs(out / "exports")
    shutil.copytree(export, out / "exports" / "e1")
    (out / "CURRENT").write_text("exports/e1\n")
    with flatdump_reader.open(str(out)) as reader, reader.snapshot() as s:
        assert s.directory == str(out / "exports" / "e1")
        assert len(list(s.records(strings.Rs.GetRootAs, "Rs"))) == len(strings.expected)
    # an export's own directory
    with flatdump_reader.open(export) as reader, reader.snapshot() as s:
        assert s.directory == export


def test_a_pointer_naming_nothing_readable_is_refused(tmp_path):
    (tmp_path / "CURRENT").write_text("../elsewhere\n")
    with pytest.raises(FlatdumpReaderError, match="does not name a directory under exports/"):
        flatdump_reader.open(str(tmp_path))
    os.symlink("exports/gone", str(tmp_path / "current"))
    with pytest.raises(FlatdumpReaderError, match="current names a directory that does not exist"):
        flatdump_reader.open(str(tmp_path))
    with pytest.raises(FlatdumpReaderError, match="is not a directory"):
        flatdump_reader.open(str(tmp_path / "nothing"))


def test_snapshots_are_handles_closed_once_and_refused_after_close(strings):
    reader = flatdump_reader.open(strings.out)
    s = reader.snapshot()
    other = s.acquire()
    s.close()
    s.close()
    with pytest.raises(ValueError, match="closed"):
        s.shard(0)
    assert len(list(other.records(strings.Rs.GetRootAs, "Rs"))) == len(strings.expected)
    prefix = other.directory + "/"
    reader.close()
    assert flatdump_reader.mapped_regions(prefix) == other.shard_count, "held by the other handle"
    with pytest.raises(ValueError, match="closed"):
        reader.snapshot()
    with pytest.raises(ValueError, match="closed"):
        reader.reload()
    other.close()
    assert flatdump_reader.mapped_regions(prefix) == 0


def test_a_memoryview_kept_past_the_last_close_keeps_its_map_until_released(strings):
    reader = flatdump_reader.open(strings.out)
    s = reader.snapshot()
    prefix = s.directory + "/"
    view = memoryview(s.shard(0))
    head = bytes(view[:8])
    s.close()
    reader.close()  # the last hold: mmap.close() refuses while the view exists
    assert flatdump_reader.mapped_regions(prefix) == 1
    assert bytes(view[:8]) == head
    view.release()
    del view
    assert flatdump_reader.mapped_regions(prefix) == 0
