"""A broken export is refused by name, with nothing left mapped; a broken new one keeps the old."""

import json
import os

import pytest

import flatdump_reader
from flatdump_reader import FlatdumpReaderError, ReloadListener

from conftest import copy_export, publish


def first_shard(export):
    with open(os.path.join(export, "manifest.json"), encoding="utf-8") as f:
        files = json.load(f)["files"]
    return os.path.join(export, [f for f in files if f["format"] == "flatbuffers"][0]["name"])


def rewrite_manifest(export, change):
    path = os.path.join(export, "manifest.json")
    with open(path, encoding="utf-8") as f:
        m = json.load(f)
    change(m)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(m, f)


def flip_bit(path):
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        data[len(data) // 2] ^= 0x10
        f.seek(0)
        f.write(data)


def truncate(path, n):
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) - n)


def shards_of(m):
    return [f for f in m["files"] if f["format"] == "flatbuffers"]


def set_first(m, key, value):
    shards_of(m)[0][key] = value


BREAKAGES = {
    "corrupt shard": (lambda e: flip_bit(first_shard(e)), r"-00000\.fb is corrupt: its SHA-256 is"),
    "short shard": (lambda e: truncate(first_shard(e), 3), r"-00000\.fb is \d+ bytes, the manifest says \d+: a short"),
    "missing shard": (lambda e: os.remove(first_shard(e)), r"-00000\.fb is missing"),
    "missing manifest": (lambda e: os.remove(os.path.join(e, "manifest.json")),
                         r"manifest\.json is missing"),
    "manifest not JSON": (lambda e: open(os.path.join(e, "manifest.json"), "w").write('{"files": ['),
                          r"manifest\.json is not a valid manifest"),
    "manifest without files": (lambda e: rewrite_manifest(e, lambda m: m.pop("files")),
                               r"manifest\.json is not a valid manifest: files is not an array"),
    "a shard outside the export": (
        lambda e: rewrite_manifest(e, lambda m: set_first(m, "name", "../x.fb")),
        r"not a valid manifest: files\[0\]\.name is not a file name of the export"),
    "another record count": (
        lambda e: rewrite_manifest(e, lambda m: set_first(m, "records", shards_of(m)[0]["records"] + 1)),
        r"-00000\.fb holds \d+ records, the manifest says \d+"),
    "another first key": (
        lambda e: rewrite_manifest(e, lambda m: set_first(m, "firstKey", "\u0000")),
        r"-00000\.fb's keys run from .* the manifest says from"),
    "a file identifier the shards lack": (
        lambda e: rewrite_manifest(e, lambda m: m["schema"].update(fileIdentifier="ABCD")),
        r"-00000\.fb is not a FlatBuffer with the file identifier 'ABCD'"),
}


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_a_broken_export_is_refused_by_name_with_nothing_mapped(strings, tmp_path, breakage):
    export = copy_export(strings.export_dir(), str(tmp_path / "e"))
    with flatdump_reader.open(export) as reader:  # whole, it opens
        assert reader.current_id == "e"
    assert flatdump_reader.mapped_regions(export + "/") == 0
    brk, message = BREAKAGES[breakage]
    brk(export)
    with pytest.raises(FlatdumpReaderError, match=message) as refused:
        flatdump_reader.open(export)
    assert export in str(refused.value)
    assert flatdump_reader.mapped_regions(export + "/") == 0


class Heard(ReloadListener):
    def __init__(self):
        self.refreshes = []
        self.failures = []

    def refreshed(self, old_id, new_id):
        self.refreshes.append((old_id, new_id))

    def failed(self, directory, current_id, error):
        self.failures.append((directory, current_id, str(error)))


def test_a_broken_new_export_keeps_the_old_one_current_and_the_listeners_hear_why(
        generations, tmp_path):
    g0, g1, g2 = generations[0], generations[1], generations[2]
    out = str(tmp_path / "out")
    publish(out, g0.export_dir(), "p0", keep=3)
    heard = Heard()
    with flatdump_reader.open(out) as reader:
        reader.add_listener(heard)
        broken = publish(out, g1.export_dir(), "p1", keep=3)
        flip_bit(first_shard(broken))
        assert reader.reload() is False
        assert reader.current_id == "p0"
        assert heard.failures == [(broken, "p0", heard.failures[0][2])]
        assert "is corrupt" in heard.failures[0][2] and broken in heard.failures[0][2]
        assert flatdump_reader.mapped_regions(broken + "/") == 0
        with reader.snapshot() as s:
            assert [(g0.key_of(r), r.N()) for r in s.records(g0.Rs.GetRootAs, "Rs")] == g0.expected
        os.symlink("exports/gone", os.path.join(out, ".gone"))
        os.replace(os.path.join(out, ".gone"), os.path.join(out, "current"))
        assert reader.reload() is False
        assert "names a directory that does not exist" in heard.failures[1][2]
        publish(out, g2.export_dir(), "p2", keep=3)
        assert reader.reload() is True
        assert heard.refreshes == [("p0", "p2")]
        with reader.snapshot() as s:
            assert [(g2.key_of(r), r.N()) for r in s.records(g2.Rs.GetRootAs, "Rs")] == g2.expected
        assert reader.reload() is False, "the pointer still names p2"
        assert len(heard.failures) == 2


def test_sizes_only_checks_size_and_identifier_and_reads_a_corrupt_byte_as_data(strings, tmp_path):
    export = copy_export(strings.export_dir(), str(tmp_path / "e"))
    flip_bit(first_shard(export))
    with pytest.raises(FlatdumpReaderError, match="is corrupt"):
        flatdump_reader.open(export, verify=flatdump_reader.CHECKSUMS)
    with flatdump_reader.open(export, verify=flatdump_reader.SIZES) as reader:
        assert reader.current_id == "e"
    truncate(first_shard(export), 1)
    with pytest.raises(FlatdumpReaderError, match="a short"):
        flatdump_reader.open(export, verify=flatdump_reader.SIZES)
    with pytest.raises(ValueError, match="verify"):
        flatdump_reader.open(export, verify="none")


def test_a_refused_export_is_not_read_again_until_the_pointer_or_its_manifest_changes(
        generations, tmp_path):
    g0, g1, g2 = generations[0], generations[1], generations[2]
    out = str(tmp_path / "out")
    publish(out, g0.export_dir(), "p0", keep=3)
    heard = Heard()
    with flatdump_reader.open(out) as reader:
        reader.add_listener(heard)
        broken = publish(out, g1.export_dir(), "p1", keep=3)
        flip_bit(first_shard(broken))
        for _ in range(3):  # every poll of a follower
            assert reader.reload() is False
        assert len(heard.failures) == 1
        manifest = os.path.join(broken, "manifest.json")
        st = os.stat(manifest)
        os.utime(manifest, ns=(st.st_atime_ns, st.st_mtime_ns + 5 * 10**9))
        assert reader.reload() is False
        assert len(heard.failures) == 2, "a changed manifest is tried again"
        publish(out, g2.export_dir(), "p2", keep=3)
        assert reader.reload() is True
        assert reader.current_id == "p2"
