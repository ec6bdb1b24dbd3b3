"""One opened export: its manifest checked, its shards mapped read-only, and a count of holds."""

import bisect
import hashlib
import logging
import mmap
import os
import struct
import threading

from . import _manifest
from ._errors import FlatdumpReaderError
from ._keys import ShardRecords, records_length

log = logging.getLogger("flatdump_reader")

# how much of each shard is checked when an export is opened (ExportReader.Verify in Java)
CHECKSUMS = "checksums"  # size, file identifier and the SHA-256 of every byte
SIZES = "sizes"  # size and file identifier only, for files checked on their way here


class MappedExport(object):
    """An export whose shards are mapped while it is held. Thread-safe.

    Created held once (by its opener). The mappings are closed when the last hold is released, and
    never used again. ``mmap.close()`` refuses (BufferError) while a memoryview of the map exists:
    such a map is then left to Python, which unmaps it when the last view of it is released.
    """

    def __init__(self, directory, manifest, maps, keys):
        self.directory = directory
        self.id = os.path.basename(directory)
        self.manifest = manifest
        self.maps = maps
        self.keys = keys  # a ShardRecords per shard, or None without a lookup
        self._holders = 1
        self._lock = threading.Lock()
        if manifest.lookup is not None:
            ranged = [i for i, s in enumerate(manifest.shards) if s.records > 0]
            self._ranged = ranged
            self._firsts = [manifest.shards[i].first_key for i in ranged]
            lasts = [manifest.shards[i].last_key for i in ranged]
            # the ranges follow each other without overlap (as in every export flatdump writes),
            # so that one shard can hold a key; else every shard whose range holds it is searched
            self._ordered = all(a < b for a, b in zip(lasts, self._firsts[1:]))
        else:
            self._ranged = self._firsts = None

    @classmethod
    def open(cls, directory, verify=CHECKSUMS):
        """Opens the export in ``directory``: reads its manifest, maps each shard and checks its
        size, its SHA-256 (every byte; not with ``verify="sizes"``), the file identifier the
        manifest names and, when the manifest says how records are looked up, the shard's record
        count and first and last keys.

        Raises FlatdumpReaderError naming the file and what is wrong; nothing stays mapped.
        """
        manifest = _manifest.read(directory)
        maps = []
        keys = []
        try:
            for shard in manifest.shards:
                path = os.path.join(directory, shard.name)
                maps.append(_map_checked(path, shard, manifest.file_identifier, verify))
                if manifest.lookup is not None:
                    keys.append(_keyed(path, maps[-1], shard, manifest.lookup))
        except BaseException:
            for m in maps:
                m.close()  # no view of them was handed out
            raise
        return cls(directory, manifest, maps, keys if manifest.lookup is not None else None)

    def try_acquire(self):
        """One more hold, unless the mappings are already released."""
        with self._lock:
            if self._holders <= 0:
                return False
            self._holders += 1
            return True

    def release(self):
        """One hold fewer; the last one closes the mappings."""
        with self._lock:
            self._holders -= 1
            if self._holders > 0:
                return
            if self._holders < 0:
                raise RuntimeError(self.directory + " released more often than acquired")
            # dropped: a map close() refuses is unmapped once its last view and reader are gone
            maps, self.maps, self.keys = self.maps, (), None
        for m in maps:
            try:
                m.close()
            except BufferError:
                log.debug("a view of a shard of %s is still alive: unmapped when it is released",
                          self.directory)

    @property
    def holders(self):
        with self._lock:
            return max(0, self._holders)

    def locate(self, key):
        """(shard, index) of the record keyed ``key`` (normalized), else None."""
        shards = self.manifest.shards
        if self._ordered:
            i = bisect.bisect_right(self._firsts, key) - 1
            candidates = self._ranged[i:i + 1] if i >= 0 else ()
        else:
            candidates = self._ranged
        for s in candidates:
            if shards[s].first_key <= key <= shards[s].last_key:
                j = self.keys[s].find(key)
                if j >= 0:
                    return s, j
        return None


def _map_checked(path, shard, identifier, verify):
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError as e:
        raise FlatdumpReaderError(path + " is missing: the manifest lists it as a shard") from e
    except OSError as e:
        raise FlatdumpReaderError("cannot open %s: %s" % (path, e)) from e
    try:
        size = os.fstat(fd).st_size
        if size != shard.bytes:
            raise FlatdumpReaderError("%s is %d bytes, the manifest says %d: %s" % (
                path, size, shard.bytes,
                "a short (truncated) shard" if size < shard.bytes else "a changed shard"))
        if size < 8:
            raise FlatdumpReaderError("%s is %d bytes: too short for a FlatBuffer" % (path, size))
        m = mmap.mmap(fd, size, access=mmap.ACCESS_READ)
    except OSError as e:
        raise FlatdumpReaderError("cannot map %s: %s" % (path, e)) from e
    finally:
        os.close(fd)
    try:
        if verify == CHECKSUMS:
            sha = hashlib.sha256(m).hexdigest()
            if sha != shard.sha256:
                raise FlatdumpReaderError("%s is corrupt: its SHA-256 is %s, the manifest says %s"
                                          % (path, sha, shard.sha256))
        if identifier is not None and m[4:8] != identifier.encode("utf-8"):
            raise FlatdumpReaderError("%s is not a FlatBuffer with the file identifier '%s'"
                                      % (path, identifier))
    except BaseException:
        m.close()
        raise
    return m


def _keyed(path, buf, shard, lookup):
    """The shard's records for lookups, checked against the manifest's count and key range."""
    try:
        n = records_length(buf, lookup.records_voffset)
        if n != shard.records:
            raise FlatdumpReaderError("%s holds %d records, the manifest says %d"
                                      % (path, n, shard.records))
        records = ShardRecords(buf, lookup)
        if n > 0:
            first, last = records.key(0), records.key(n - 1)
            if first != shard.first_key or last != shard.last_key:
                raise FlatdumpReaderError(
                    "%s's keys run from %r to %r, the manifest says from %r to %r"
                    % (path, first, last, shard.first_key, shard.last_key))
        return records
    except (struct.error, ValueError) as e:
        raise FlatdumpReaderError("%s is not a FlatBuffer of the manifest's lookup (%s.%s): %s"
                                  % (path, lookup.records_field, lookup.key_field, e)) from e
