"""Reads flatdump's exports: follows the output directory's pointer, checks every shard against the
manifest, maps it read-only, hands out reference-counted snapshots, looks records up by key and
reloads to the next export without a pause. The Python twin of the Java ``dev.flatdump.reader``.

    import flatdump_reader
    from myschema.R import R
    from myschema.Rs import Rs

    with flatdump_reader.open("/data/rs") as reader:
        with reader.snapshot() as s:
            for r in s.records(Rs.GetRootAs, "Rs"):
                print(r.Id(), r.N())
            r = s.lookup("k42", R)
        reader.reload()
"""

import builtins

from ._errors import FlatdumpReaderError
from ._manifest import KeyLookup, Manifest, Shard
from ._export import CHECKSUMS, SIZES
from ._reader import ExportReader, Following, Location, ReloadListener, Snapshot

__all__ = [
    "CHECKSUMS", "ExportReader", "FlatdumpReaderError", "Following", "KeyLookup", "Location",
    "Manifest", "ReloadListener", "SIZES", "Shard", "Snapshot", "mapped_regions", "open",
]

__version__ = "0.1.0"


def open(path, verify=CHECKSUMS):  # noqa: A001 - the module's entry point
    """Opens the current export of the output directory ``path``: ``ExportReader.open``."""
    return ExportReader.open(path, verify)


def mapped_regions(prefix):
    """How many regions of this process's memory map files whose path starts with ``prefix`` (from
    ``/proc/self/maps``, Linux only): e.g. an export's directory followed by ``/``, for a gauge."""
    n = 0
    with builtins.open("/proc/self/maps", "r", encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.split(None, 5)
            if len(parts) == 6 and parts[5].startswith(prefix):
                n += 1
    return n
