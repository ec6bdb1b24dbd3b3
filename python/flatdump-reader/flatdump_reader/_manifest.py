"""What the reader takes from an export's ``manifest.json``; everything else in it is ignored."""

import json
import os
import re

from ._errors import FlatdumpReaderError

MANIFEST = "manifest.json"

# struct formats of the integer key types (little-endian, as FlatBuffers stores them)
KEY_FORMATS = {
    "byte": "<b", "ubyte": "<B", "short": "<h", "ushort": "<H",
    "int": "<i", "uint": "<I", "long": "<q", "ulong": "<Q",
}
_KEY_RANGES = {
    "byte": (-(1 << 7), (1 << 7) - 1), "ubyte": (0, (1 << 8) - 1),
    "short": (-(1 << 15), (1 << 15) - 1), "ushort": (0, (1 << 16) - 1),
    "int": (-(1 << 31), (1 << 31) - 1), "uint": (0, (1 << 32) - 1),
    "long": (-(1 << 63), (1 << 63) - 1), "ulong": (0, (1 << 64) - 1),
}
_SHA256 = re.compile(r"[0-9a-f]{64}")


class Shard(object):
    """One data shard as the manifest lists it.

    ``name`` (a file name in the export's directory), ``bytes`` (its size), ``sha256`` (lowercase
    hex), ``records``, and, when the manifest says how to look records up, ``first_key`` and
    ``last_key`` (``bytes`` for a string key, ``int`` otherwise; None for an empty shard).
    """

    __slots__ = ("name", "bytes", "sha256", "records", "first_key", "last_key")

    def __init__(self, name, size, sha256, records, first_key=None, last_key=None):
        self.name = name
        self.bytes = size
        self.sha256 = sha256
        self.records = records
        self.first_key = first_key
        self.last_key = last_key

    def __repr__(self):
        return "Shard(%r, %d bytes, %d records)" % (self.name, self.bytes, self.records)


class KeyLookup(object):
    """How a record is found by key: ``schema.lookup`` of the manifest.

    ``records_field`` and ``records_voffset``: the root table's vector of records; ``key_field``,
    ``key_voffset`` and ``key_type`` (``"string"`` or an integer type such as ``"long"``): each
    record's key; ``key_default``, what an integer key holds when its record omits the field
    (FlatBuffers leaves out a scalar equal to its default), else 0.
    """

    __slots__ = ("records_field", "records_voffset", "key_field", "key_type", "key_voffset",
                 "key_default")

    def __init__(self, records_field, records_voffset, key_field, key_type, key_voffset,
                 key_default=0):
        self.records_field = records_field
        self.records_voffset = records_voffset
        self.key_field = key_field
        self.key_type = key_type
        self.key_voffset = key_voffset
        self.key_default = key_default

    def __repr__(self):
        return "KeyLookup(%s.%s: %s)" % (self.records_field, self.key_field, self.key_type)


class Manifest(object):
    """An export's manifest as the reader reads it: the schema's files, the file identifier (or
    None), the ``KeyLookup`` (or None when the records have no key) and the data shards
    (``"format": "flatbuffers"``), in order. Immutable by convention."""

    __slots__ = ("schema_file", "binary_schema_file", "file_identifier", "lookup", "shards")

    def __init__(self, schema_file, binary_schema_file, file_identifier, lookup, shards):
        self.schema_file = schema_file
        self.binary_schema_file = binary_schema_file
        self.file_identifier = file_identifier
        self.lookup = lookup
        self.shards = tuple(shards)

    @property
    def records(self):
        """The total of the shards' records."""
        return sum(s.records for s in self.shards)


def read(directory):
    """Reads ``directory/manifest.json``.

    Raises FlatdumpReaderError naming the file when it is missing, unreadable, not UTF-8 JSON, or
    lacks or contradicts a field the reader needs.
    """
    file = os.path.join(directory, MANIFEST)
    try:
        with open(file, "rb") as f:
            data = f.read()
    except FileNotFoundError as e:
        raise FlatdumpReaderError(
            "%s is missing: %s is not a published export" % (file, directory)) from e
    except OSError as e:
        raise FlatdumpReaderError("cannot read %s: %s" % (file, e)) from e
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FlatdumpReaderError(file + " is not UTF-8 text") from e
    try:
        return of(json.loads(text))
    except ValueError as e:  # json.JSONDecodeError is a ValueError
        raise FlatdumpReaderError("%s is not a valid manifest: %s" % (file, e)) from e


def of(root):
    """The Manifest of parsed JSON; raises ValueError saying which field is wrong."""
    root = _object(root, "the manifest")
    schema = _object(root.get("schema"), "schema")
    identifier = schema.get("fileIdentifier")
    lookup = _lookup(schema["lookup"]) if schema.get("lookup") is not None else None
    shards = []
    files = root.get("files")
    if not isinstance(files, list):
        raise ValueError("files is not an array: %r" % (files,))
    for i, f in enumerate(files):
        where = "files[%d]" % i
        f = _object(f, where)
        if f.get("format") != "flatbuffers":
            continue
        index = f.get("shard")
        if _is_int(index) and index != len(shards):
            raise ValueError("%s.shard is %d, expected %d (shards out of order)"
                             % (where, index, len(shards)))
        shards.append(_shard(f, where, lookup))
    return Manifest(
        _string(schema.get("file"), "schema.file"),
        _string(schema.get("binary"), "schema.binary"),
        None if identifier is None else _string(identifier, "schema.fileIdentifier"),
        lookup,
        shards)


def _shard(f, where, lookup):
    name = _string(f.get("name"), where + ".name")
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise ValueError("%s.name is not a file name of the export: %r" % (where, name))
    size = _int(f.get("bytes"), where + ".bytes")
    sha = _string(f.get("sha256"), where + ".sha256")
    if not _SHA256.fullmatch(sha):
        raise ValueError("%s.sha256 is not a SHA-256: %r" % (where, sha))
    records = _int(f.get("records"), where + ".records")
    if size < 0 or records < 0:
        raise ValueError("%s: bytes or records out of range" % where)
    first = last = None
    if lookup is not None and records > 0:
        first = _key(f.get("firstKey"), lookup.key_type, where + ".firstKey")
        last = _key(f.get("lastKey"), lookup.key_type, where + ".lastKey")
        if first > last or (records == 1 and first != last):
            raise ValueError("%s: firstKey %r and lastKey %r cannot bound %d records"
                             % (where, first, last, records))
    return Shard(name, size, sha, records, first, last)


def _lookup(value):
    o = _object(value, "schema.lookup")
    key_type = _string(o.get("keyType"), "schema.lookup.keyType")
    if key_type != "string" and key_type not in KEY_FORMATS:
        raise ValueError("schema.lookup.keyType is not a key type: %r" % key_type)
    default = o.get("keyDefault")
    return KeyLookup(
        _string(o.get("recordsField"), "schema.lookup.recordsField"),
        _voffset(o.get("recordsVoffset"), "schema.lookup.recordsVoffset"),
        _string(o.get("keyField"), "schema.lookup.keyField"),
        key_type,
        _voffset(o.get("keyVoffset"), "schema.lookup.keyVoffset"),
        0 if default is None or key_type == "string"
        else _key(default, key_type, "schema.lookup.keyDefault"))


def _key(value, key_type, what):
    """A key as the reader compares it: UTF-8 bytes for a string key, else an int in range."""
    if key_type == "string":
        try:
            return _string(value, what).encode("utf-8")
        except UnicodeEncodeError as e:
            raise ValueError("%s is not valid Unicode: %r" % (what, value)) from e
    n = _int(value, what)
    low, high = _KEY_RANGES[key_type]
    if not low <= n <= high:
        raise ValueError("%s is out of range for %s: %d" % (what, key_type, n))
    return n


def _voffset(value, what):
    n = _int(value, what)
    if n < 4 or n % 2 or n > 0xFFFF:
        raise ValueError("%s is not a vtable offset: %d" % (what, n))
    return n


def _object(value, what):
    if isinstance(value, dict):
        return value
    raise ValueError("%s is not an object: %r" % (what, value))


def _string(value, what):
    if isinstance(value, str):
        return value
    raise ValueError("%s is not a string: %r" % (what, value))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value, what):
    if _is_int(value):
        return value
    raise ValueError("%s is not an integer: %r" % (what, value))
