"""ExportReader, Snapshot and ReloadListener: the Java reader's surface, in Python."""

import logging
import os
import threading

from . import _pointer
from ._errors import FlatdumpReaderError
from ._export import CHECKSUMS, SIZES, MappedExport
from ._keys import normalize

log = logging.getLogger("flatdump_reader")

# how often open follows the pointer again when the export it named was removed meanwhile
_POINTER_ATTEMPTS = 5


class ReloadListener(object):
    """Hears of reloads; override what you need. Called on the reloading thread; an exception a
    listener raises is logged and ignored."""

    def refreshed(self, old_id, new_id):
        """The reader switched from export ``old_id`` to ``new_id``."""

    def failed(self, directory, current_id, error):
        """The export in ``directory`` could not be opened (``error``, a FlatdumpReaderError); the
        reader stays on ``current_id``."""


class Location(object):
    """Where a record is: ``shard`` (its index), ``index`` (in the shard's records vector) and
    ``offset`` (its table's position in the shard's bytes, what a generated ``Init`` takes)."""

    __slots__ = ("shard", "index", "offset")

    def __init__(self, shard, index, offset):
        self.shard = shard
        self.index = index
        self.offset = offset

    def __eq__(self, other):
        return isinstance(other, Location) and (self.shard, self.index, self.offset) == (
            other.shard, other.index, other.offset)

    def __hash__(self):
        return hash((self.shard, self.index, self.offset))

    def __repr__(self):
        return "Location(shard=%d, index=%d, offset=%d)" % (self.shard, self.index, self.offset)


class Snapshot(object):
    """One hold on one export: its shards stay mapped at least until this handle is closed, however
    many reloads happen meanwhile. Use it in a ``with`` block, or close it once (``close()`` is
    idempotent); ``acquire()`` gives another handle on the same export, closed on its own. The
    export's maps are closed when its last handle closes and the reader has moved on.

    Thread-safe. A shard (an ``mmap``), or a generated object reading from it, must not be used
    after its handle is closed: reads then raise ValueError (the map is closed). Do not close a
    shard yourself; release any memoryview you take of one (``with memoryview(...)``), or the map
    stays until it is garbage.
    """

    def __init__(self, export):
        """Takes over one hold on ``export`` already counted."""
        self._export = export
        self._closed = False
        self._lock = threading.Lock()

    @property
    def id(self):
        """The export's id: its directory's name, e.g. ``2026-11-26-42``."""
        return self._export.id

    @property
    def directory(self):
        """The export's directory (the pointer resolved)."""
        return self._export.directory

    @property
    def manifest(self):
        """What the manifest says of the shards, the schema and the lookup (a Manifest)."""
        return self._export.manifest

    @property
    def shard_count(self):
        return len(self._export.manifest.shards)

    @property
    def record_count(self):
        """The records in every shard, as the manifest says."""
        return self._export.manifest.records

    @property
    def closed(self):
        return self._closed

    def shard(self, i):
        """Shard ``i``'s bytes: the read-only ``mmap``, what a generated ``GetRootAs`` takes."""
        self._require_open()
        return self._export.maps[i]

    def shards(self):
        """Every shard's bytes, in order."""
        self._require_open()
        return list(self._export.maps)

    def roots(self, get_root):
        """Each shard's root table through the generated accessor, e.g. ``Rs.GetRootAs``."""
        return [get_root(m, 0) for m in self.shards()]

    def records(self, get_root, vector):
        """Every record, shard by shard, in order, through the generated classes: ``get_root`` is
        the root's accessor (``Rs.GetRootAs``), ``vector`` the name of the root's accessor of the
        records vector (``"Rs"`` for a field ``rs``: ``root.Rs(j)`` and ``root.RsLength()``).

        A generator: it raises FlatdumpReaderError when a shard holds another number of records
        than the manifest says, and ValueError once this handle is closed.
        """
        for s, shard in enumerate(self.manifest.shards):
            root = get_root(self.shard(s), 0)
            at = getattr(root, vector)
            n = getattr(root, vector + "Length")()
            if n != shard.records:
                raise FlatdumpReaderError("%s holds %d records, the manifest says %d" % (
                    os.path.join(self.directory, shard.name), n, shard.records))
            for j in range(n):
                self._require_open()
                yield at(j)

    def locate(self, key):
        """Where the record keyed ``key`` is (a Location), else None.

        ``key`` is a ``str`` or ``bytes`` for a string key (compared as UTF-8 bytes), an ``int``
        otherwise. The manifest's key ranges name the one shard that can hold it, which is then
        binary-searched with raw reads of the map.

        Raises FlatdumpReaderError when the export's manifest has no lookup (its records have no
        ``(key)`` field), TypeError for a key of the wrong kind, ValueError once closed.
        """
        self._require_open()
        export = self._export
        lookup = export.manifest.lookup
        if lookup is None:
            raise FlatdumpReaderError("%s: its records have no (key) field, the manifest has no "
                                      "schema.lookup" % export.directory)
        k = normalize(key, lookup.key_type)
        if k is None:
            return None
        found = export.locate(k)
        if found is None:
            return None
        s, j = found
        return Location(s, j, export.keys[s].offset(j))

    def lookup(self, key, record_class):
        """The record keyed ``key``, as an instance of the generated record class ``record_class``
        (e.g. ``R``) initialized on it, else None. See ``locate``."""
        at = self.locate(key)
        if at is None:
            return None
        record = record_class()
        record.Init(self._export.maps[at.shard], at.offset)
        return record

    def acquire(self):
        """Another handle on the same export, for another holder."""
        self._require_open()
        if not self._export.try_acquire():
            raise ValueError("snapshot %s is released" % self.id)
        return Snapshot(self._export)

    def close(self):
        """Gives up this handle's hold; the export's last hold closes its maps. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._export.release()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def _require_open(self):
        if self._closed:
            raise ValueError("snapshot %s is closed" % self.id)

    def __repr__(self):
        return "Snapshot[%s, %d shards, %d records%s]" % (
            self.id, self.shard_count, self.record_count, ", closed" if self._closed else "")


class ExportReader(object):
    """Reads the exports published into an output directory, as a service does.

    ``ExportReader.open(path)`` (or ``flatdump_reader.open``) follows the pointer (``current``,
    else ``CURRENT``, else ``path`` is an export), checks every shard against the manifest and maps
    it read-only; ``snapshot()`` hands out the current export, held until closed; ``reload()``
    follows the pointer again and, when it names another export, opens and checks that one
    completely before switching to it atomically. The export before is unmapped when its last
    snapshot closes.

    Thread-safe: any number of threads take snapshots and look up while others reload (reloads
    are serialized). Closing the reader gives up its own hold on the current export; snapshots
    still open keep theirs.
    """

    def __init__(self, path, export, verify):
        self._path = path
        self._verify = verify
        self._current = export  # the reader's own hold
        self._listeners = []
        self._state = threading.Lock()  # guards _current and _closed
        self._reloading = threading.Lock()
        self._closed = False
        self._followers = []
        # the last export a reload refused, and its manifest's identity: not read again meanwhile
        self._refused = None

    @classmethod
    def open(cls, path, verify=CHECKSUMS):
        """Opens the current export of the output directory ``path`` (or, without a pointer, the
        export in ``path`` itself).

        ``verify``, at open and at every reload: ``"checksums"`` (the default) checks each shard's
        size, file identifier and the SHA-256 of every byte; ``"sizes"`` the size and file
        identifier only, for files already checked on their way here (a corrupt byte is then read
        as data).

        Raises FlatdumpReaderError naming the file that is missing, short, corrupt or not a
        manifest; nothing stays mapped.
        """
        if verify not in (CHECKSUMS, SIZES):
            raise ValueError("verify is %r or %r, not %r" % (CHECKSUMS, SIZES, verify))
        path = os.path.abspath(path)
        return cls(path, _open_current(path, verify), verify)

    @property
    def path(self):
        return self._path

    @property
    def current_id(self):
        """The current export's id (its directory's name)."""
        return self._current.id

    def add_listener(self, listener):
        """Registers a ReloadListener (or any object with its two methods)."""
        self._listeners.append(listener)

    def snapshot(self):
        """A hold on the current export; close it (``with reader.snapshot() as s:``).

        Raises ValueError when the reader is closed.
        """
        with self._state:
            if self._closed:
                raise ValueError("the reader of %s is closed" % self._path)
            # the reader holds the current export, so its maps are open and this always succeeds
            self._current.try_acquire()
            return Snapshot(self._current)

    def reload(self):
        """Follows the pointer again; when it names another export, opens and checks it
        completely, then makes it current. A new export that cannot be opened leaves the current
        one in service, is logged (warning) and reported to the listeners (``failed``) once: it is
        not read again (every poll of ``follow``) until the pointer names another export or its
        manifest changes.

        Returns whether the reader switched to another export. Raises ValueError when closed.
        """
        with self._reloading:
            if self._closed:
                raise ValueError("the reader of %s is closed" % self._path)
            old = self._current
            directory = self._path
            attempt = None
            try:
                directory = _pointer.resolve(self._path)
                if _same(directory, old.directory):
                    return False
                attempt = (directory, _manifest_stamp(directory))
                if attempt == self._refused:
                    return False  # refused already, its manifest the same: heard once
                new = MappedExport.open(directory, self._verify)
            except FlatdumpReaderError as e:
                self._refused = attempt
                log.warning("reload of %s failed, %s stays current: %s", self._path, old.id, e)
                self._tell("failed", directory, old.id, e)
                return False
            self._refused = None
            with self._state:
                self._current = new
            old.release()
            self._tell("refreshed", old.id, new.id)
            return True

    def follow(self, interval):
        """Reloads by itself from now on, every ``interval`` seconds, on a daemon thread of its
        own, until the returned Following (or the reader) is closed. What each reload does is
        heard by the listeners; nothing it meets stops the thread. (Java's ``follow`` also wakes
        at once on a WatchService event; the standard library has none, so this polls only.)

        Raises ValueError when ``interval`` is not positive.
        """
        if not interval > 0:
            raise ValueError("the interval must be positive, got %r" % (interval,))
        following = Following(self, interval)
        self._followers.append(following)
        following._thread.start()
        return following

    @property
    def closed(self):
        return self._closed

    def close(self):
        """Gives up the reader's hold on the current export and stops its followers. Idempotent."""
        with self._reloading:
            with self._state:
                if self._closed:
                    return
                self._closed = True
            self._current.release()
        for following in list(self._followers):
            following.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def _tell(self, what, *args):
        for listener in list(self._listeners):
            try:
                getattr(listener, what)(*args)
            except Exception:  # a listener's failure is not the reload's
                log.exception("reload listener %r failed", listener)


class Following(object):
    """The thread of ``ExportReader.follow``: reloads every interval until closed."""

    def __init__(self, reader, interval):
        self._reader = reader
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="flatdump-reader-follow " + os.path.basename(reader.path),
            daemon=True)

    def _run(self):
        reader = self._reader
        while not self._stop.wait(self._interval) and not reader.closed:
            try:
                reader.reload()
            except ValueError:
                return  # the reader was closed meanwhile
            except Exception as e:  # noqa: BLE001 - heard by the listeners, the thread goes on
                error = e if isinstance(e, FlatdumpReaderError) else FlatdumpReaderError(repr(e))
                reader._tell("failed", reader.path, reader.current_id, error)

    def close(self):
        """Stops following; a reload under way completes first. Idempotent."""
        self._stop.set()
        try:
            self._reader._followers.remove(self)
        except ValueError:
            pass  # closed before
        if self._thread is not threading.current_thread():
            self._thread.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _open_current(path, verify):
    if not os.path.isdir(path):
        raise FlatdumpReaderError(path + " is not a directory")
    attempt = 1
    while True:
        directory = _pointer.resolve(path)
        try:
            return MappedExport.open(directory, verify)
        except FlatdumpReaderError:
            # the export the pointer named was removed meanwhile (newer ones published): again
            if directory == path or os.path.isdir(directory) or attempt == _POINTER_ATTEMPTS:
                raise
        attempt += 1


def _manifest_stamp(directory):
    """The identity of ``directory``'s manifest (inode, modification time, size), or None."""
    try:
        st = os.stat(os.path.join(directory, "manifest.json"))
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)


def _same(a, b):
    if a == b:
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
