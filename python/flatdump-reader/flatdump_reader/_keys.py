"""Raw reads of a shard's records and keys, and the binary search by key.

Offsets are FlatBuffers' own: the root table's uoffset at byte 0; a table starts with the soffset
back to its vtable; a vtable is its length, the table's length, then one uint16 offset per field
(0 when absent); a vector is its uint32 length, then its elements (a table's element is a uoffset
from its own position); a string is its uint32 length, then its UTF-8 bytes.
"""

import struct

from ._manifest import KEY_FORMATS

_U16 = struct.Struct("<H")
_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")


class ShardRecords(object):
    """The records vector of one mapped shard and how to read each record's key.

    Reads raise ``struct.error`` or ValueError when an offset points outside the buffer.
    """

    __slots__ = ("buf", "elements", "count", "_key_voffset", "_key_format", "_key_default")

    def __init__(self, buf, lookup):
        self.buf = buf
        root = _U32.unpack_from(buf, 0)[0]
        field = _field(buf, root, lookup.records_voffset)
        if field:
            vector = field + _U32.unpack_from(buf, field)[0]
            self.count = _U32.unpack_from(buf, vector)[0]
            self.elements = vector + 4
            if self.elements + 4 * self.count > len(buf):
                raise ValueError("the records vector runs past the shard's end")
        else:
            self.count = 0
            self.elements = 0
        self._key_voffset = lookup.key_voffset
        self._key_default = lookup.key_default
        self._key_format = (
            None if lookup.key_type == "string" else struct.Struct(KEY_FORMATS[lookup.key_type]))

    def offset(self, i):
        """The position of record ``i``'s table in the shard."""
        p = self.elements + 4 * i
        return p + _U32.unpack_from(self.buf, p)[0]

    def key(self, i):
        """Record ``i``'s key: ``bytes`` for a string key, ``int`` otherwise.

        An absent key reads as the empty string, or the integer key's default (FlatBuffers leaves
        out a scalar equal to its default).
        """
        buf = self.buf
        field = _field(buf, self.offset(i), self._key_voffset)
        if self._key_format is not None:
            return self._key_format.unpack_from(buf, field)[0] if field else self._key_default
        if not field:
            return b""
        s = field + _U32.unpack_from(buf, field)[0]
        n = _U32.unpack_from(buf, s)[0]
        if s + 4 + n > len(buf):
            raise ValueError("a key string runs past the shard's end")
        return buf[s + 4:s + 4 + n]

    def find(self, key):
        """The index of a record whose key is ``key`` (normalized), else -1. The records are in key
        order (strictly for a key on ``_id``'s field; equal keys may sit side by side otherwise):
        bytes compare as memcmp does, shorter first."""
        lo, hi = 0, self.count - 1
        while lo <= hi:
            mid = (lo + hi) >> 1
            k = self.key(mid)
            if k < key:
                lo = mid + 1
            elif k > key:
                hi = mid - 1
            else:
                return mid
        return -1


def records_length(buf, records_voffset):
    """The length of the root table's vector at ``records_voffset`` (0 when absent)."""
    root = _U32.unpack_from(buf, 0)[0]
    field = _field(buf, root, records_voffset)
    if not field:
        return 0
    return _U32.unpack_from(buf, field + _U32.unpack_from(buf, field)[0])[0]


def _field(buf, table, voffset):
    """The absolute position of the table's field at ``voffset``, or 0 when it is absent."""
    vtable = table - _I32.unpack_from(buf, table)[0]
    if voffset >= _U16.unpack_from(buf, vtable)[0]:
        return 0
    off = _U16.unpack_from(buf, vtable + voffset)[0]
    return table + off if off else 0


def normalize(key, key_type):
    """``key`` as the records' keys read: UTF-8 bytes for a string key (a ``str`` is encoded), an
    int for an integer key. None when no key of that type can equal it (an int out of range).

    Raises TypeError for a key of the wrong kind.
    """
    if key_type == "string":
        if isinstance(key, str):
            return key.encode("utf-8", "surrogatepass")
        if isinstance(key, (bytes, bytearray, memoryview)):
            return bytes(key)
        raise TypeError("the key is a string: a str or bytes, not %s" % type(key).__name__)
    if isinstance(key, bool) or not isinstance(key, int):
        raise TypeError("the key is %s: an int, not %s" % (key_type, type(key).__name__))
    fmt = KEY_FORMATS[key_type]
    try:
        struct.pack(fmt, key)
    except struct.error:
        return None
    return key
