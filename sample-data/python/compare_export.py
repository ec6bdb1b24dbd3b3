#!/usr/bin/env python3
"""Reads a flatdump export in Python and compares every record with MongoDB.

A consumer in another language needs only what an export ships: the schema (NAME.fbs), from which
flatc generates Python code, and the `flatbuffers` package from PyPI. This program does that:

  1. reads the export's manifest.json (OUT/current, or an export's own directory);
  2. generates Python code for the schema with `flatc --python --gen-object-api`;
  3. reads each shard with the generated code (the object API unpacks a record into objects);
  4. reads the collection with pymongo in _id order, leaves out the documents in rejects.jsonl,
     and compares each document with its record field by field, under flatdump's mapping rules
     (docs/mapping.md): strings, integers, doubles, booleans, null (absent), sub-documents (tables),
     arrays (vectors), enums by name or number, dates (ms since the epoch), timestamps, ObjectIds
     (24 hex digits, or 12 bytes), decimal128 (its text), UUIDs (their text) and binary (bytes);
     a `(map)` (its entry tables, in key order, against the sub-document as a dict), a union (the
     member its `x_type` names, holding the value) and a `(wrapper)` (its one field holding the
     value, so a vector of them holds arrays of arrays and nulls).
     A field takes the BSON field of its own name, or the one its `bson` attribute names; where
     several fields read one name (an evolved schema), the value is in one of them and the others
     are empty. The
     record's `_id` is compared when the record table has a field for it, and skipped otherwise, as
     the export skips it.

It prints "N records agree with MONGO_NAMESPACE" and exits 0, or prints the first difference and
exits 1.

Usage:
  compare_export.py EXPORT_DIR --uri mongodb://HOST:PORT --db DB --collection COLL [--flatc PATH]

Needs: flatc (PATH, $FLATC, or --flatc), `pip install flatbuffers pymongo`.
"""

import argparse
import importlib
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import uuid

import pymongo
from bson import json_util
from bson.binary import Binary
from bson.codec_options import CodecOptions, DatetimeConversion
from bson.datetime_ms import DatetimeMS
from bson.decimal128 import Decimal128
from bson.objectid import ObjectId
from bson.timestamp import Timestamp


def lower_camel(name):
    """flatc's Python object API names a field `state_code` as `stateCode`: an underscore followed
    by a character becomes that character in upper case (`type_` stays, `type__2` is `type_2`)."""
    out, i = [], 0
    while i < len(name):
        if name[i] == "_" and i + 1 < len(name):
            i += 1
            out.append(name[i].upper())
        else:
            out.append(name[i])
        i += 1
    return "".join(out)


class Shapes:
    """What a schema says beyond types: its unions (each member's table by its number), its
    `(wrapper)` tables (the field that holds the value), its `(map)` fields, and each entry table's
    key and value fields."""

    def __init__(self):
        self.unions = {}
        self.wrappers = {}
        self.maps = set()
        self.keys = {}
        self.fields = {}


def parse_schema(text):
    """The namespace, the root type, per table the BSON name of each field with a bson attribute,
    per table each field's type (as written: `int`, `[Color]`, `ns.Color`), each enum's values
    by name, and the schema's Shapes."""
    text = re.sub(r"//[^\n]*", "", text)
    namespace = re.search(r"\bnamespace\s+([\w.]+)\s*;", text)
    root = re.search(r"\broot_type\s+([\w.]+)\s*;", text).group(1)
    renames = {}
    types = {}
    shapes = Shapes()
    for table in re.finditer(r"\b(?:table|struct)\s+(\w+)([^{]*)\{([^}]*)\}", text):
        name = table.group(1)
        live = []
        for field in re.finditer(r"(\w+)\s*:\s*([\w.\[\]]+)([^;]*);", table.group(3)):
            types[(name, field.group(1))] = field.group(2)
            bson = re.search(r"\bbson\s*:\s*\"([^\"]+)\"", field.group(3))
            if bson:
                renames[(name, field.group(1))] = bson.group(1)
            if re.search(r"\bmap\b", field.group(3)):
                shapes.maps.add((name, field.group(1)))
            if re.search(r"\bkey\b", field.group(3)):
                shapes.keys[name] = field.group(1)
            if not re.search(r"\bdeprecated\b", field.group(3)):
                live.append(field.group(1))
        shapes.fields[name] = live
        if re.search(r"\bwrapper\b", table.group(2)) and len(live) == 1:
            shapes.wrappers[name] = live[0]
    for union in re.finditer(r"\bunion\s+(\w+)[^{]*\{([^}]*)\}", text):
        members, number = {}, 1
        for item in [i.strip() for i in union.group(2).split(",") if i.strip()]:
            member, _, value = (part.strip() for part in item.partition("="))
            number = int(value, 0) if value else number
            members[number] = member.split(".")[-1]
            number += 1
        shapes.unions[union.group(1)] = members
    enums = {}
    for enum in re.finditer(r"\benum\s+(\w+)\s*:\s*\w+[^{]*\{([^}]*)\}", text):
        values, next_value = {}, 0
        for item in [i.strip() for i in enum.group(2).split(",") if i.strip()]:
            name, _, number = (part.strip() for part in item.partition("="))
            next_value = int(number, 0) if number else next_value
            values[name] = next_value
            next_value += 1
        enums[enum.group(1)] = values
    namespace = namespace.group(1) if namespace else ""
    return namespace, root.split(".")[-1], renames, types, enums, shapes


class Mismatch(Exception):
    pass


class Comparer:
    def __init__(self, renames, types, enums, shapes):
        self.renames = renames
        self.types = types
        self.enums = enums
        self.shapes = shapes

    def table(self, doc, obj, path):
        """Every field of the document is in the record, and the record holds nothing else; the
        record's _id only when the record table has a field for it."""
        type_name = type(obj).__name__[:-1]  # StateT -> State
        attrs = dict(vars(obj))
        candidates = {}  # BSON name -> [(attribute, type, field)], by id: several may read one
        for (table, field), field_type in self.types.items():
            if table == type_name:
                bson = self.renames.get((table, field), field)
                candidates.setdefault(bson, []).append((lower_camel(field), field_type, field))
        seen = set()
        for key, value in doc.items():
            options = candidates.get(key, [(lower_camel(key), "", None)])
            if options[0][0] not in attrs:
                if key == "_id" and path == "":
                    continue  # the export skips an _id the record table has no field for
                raise Mismatch(f"{path}{key}: the document has it, the schema does not")
            # several fields reading one name: the value is in one of them, the others are empty
            for i, (attr, field_type, field) in enumerate(options):
                try:
                    self.field(type_name, field, value, attrs, attr, field_type, f"{path}{key}")
                except Mismatch:
                    if i + 1 == len(options):
                        raise
                    continue
                seen.add(attr)
                if self.base(field_type) in self.shapes.unions and not field_type.startswith("["):
                    seen.add(attr + "Type")
                break
        for attr, value in attrs.items():
            if attr not in seen and value not in (None, 0, False):
                raise Mismatch(f"{path}{attr}: the record has {value!r}, the document nothing")

    def field(self, type_name, field, value, attrs, attr, field_type, path):
        """One field of a table against the document's value for it."""
        if (type_name, field) in self.shapes.maps:
            self.map(value, attrs[attr], path, field_type)
        elif self.base(field_type) in self.shapes.unions and not field_type.startswith("["):
            self.union(value, attrs[attr], attrs.get(attr + "Type"), path, field_type)
        else:
            self.value(value, attrs[attr], path, field_type)

    @staticmethod
    def base(field_type):
        """A field's type without its namespace, or a vector's element type."""
        return field_type.strip("[]").split(".")[-1]

    def union(self, expected, actual, type_number, path, field_type):
        """A union's value: null in MongoDB is type NONE and no value; else the record's member is
        the one its type names, and it holds the value."""
        members = self.shapes.unions[self.base(field_type)]
        if expected is None:
            if actual is not None or type_number not in (None, 0):
                raise Mismatch(f"{path}: null in MongoDB, member {type_number} in the record")
            return
        member = members.get(type_number)
        if actual is None or member is None or type(actual).__name__ != member + "T":
            raise Mismatch(f"{path}: {expected!r} in MongoDB, member {type_number} in the record")
        self.wrapped(expected, actual, path, member)

    def wrapped(self, expected, actual, path, wrapper):
        """A (wrapper) table that holds the value in its one field; a null in MongoDB, nothing."""
        field = self.shapes.wrappers[wrapper]
        if actual is None:
            if expected is not None:
                raise Mismatch(f"{path}: {expected!r} in MongoDB, nothing in the record")
            return
        inner = getattr(actual, lower_camel(field))
        inner_type = self.types[(wrapper, field)]
        if self.base(inner_type) in self.shapes.unions and not inner_type.startswith("["):
            type_number = getattr(actual, lower_camel(field) + "Type")
            self.union(expected, inner, type_number, path, inner_type)
        elif (wrapper, field) in self.shapes.maps:
            if expected is not None:
                self.map(expected, inner, path, inner_type)
            elif inner:
                raise Mismatch(f"{path}: null in MongoDB, {inner!r} in the record")
        else:
            self.value(expected, inner, path, inner_type)

    def map(self, expected, actual, path, field_type):
        """A (map): one entry per field of the sub-document, sorted by the keys' UTF-8 bytes."""
        if expected is None:
            if actual:
                raise Mismatch(f"{path}: null in MongoDB, {len(actual)} entries in the record")
            return
        if not isinstance(expected, dict):
            raise Mismatch(f"{path}: a map needs a sub-document, MongoDB has {expected!r}")
        entry = self.base(field_type)
        key_field = self.shapes.keys[entry]
        (value_field,) = [f for f in self.shapes.fields[entry] if f != key_field]
        entries = actual or []
        keys = []
        for e in entries:
            key = getattr(e, lower_camel(key_field))
            keys.append(key.decode("utf-8") if isinstance(key, bytes) else key)
        if sorted(keys, key=lambda k: k.encode("utf-8")) != keys or len(set(keys)) != len(keys):
            raise Mismatch(f"{path}: the map's keys {keys!r} are not strictly in UTF-8 order")
        if set(keys) != set(expected.keys()):
            raise Mismatch(f"{path}: keys {sorted(expected)!r} in MongoDB, {keys!r} in the record")
        value_type = self.types[(entry, value_field)]
        for key, e in zip(keys, entries):
            got = getattr(e, lower_camel(value_field))
            at = f"{path}.{key}"
            if (entry, value_field) in self.shapes.maps:
                self.map(expected[key], got, at, value_type)
            elif self.base(value_type) in self.shapes.unions and not value_type.startswith("["):
                got_type = getattr(e, lower_camel(value_field) + "Type")
                self.union(expected[key], got, got_type, at, value_type)
            else:
                self.value(expected[key], got, at, value_type)

    def enum_values(self, field_type):
        """The values of the enum a field (or a vector's elements) holds, or None."""
        return self.enums.get(field_type.strip("[]").split(".")[-1])

    def value(self, expected, actual, path, field_type=""):
        if not field_type.startswith("[") and self.base(field_type) in self.shapes.wrappers:
            self.wrapped(expected, actual, path, self.base(field_type))
            return
        enum = self.enum_values(field_type)
        if enum is not None and isinstance(expected, str):
            expected = enum.get(expected, expected)
        elif isinstance(expected, DatetimeMS):
            expected = int(expected)  # ms since the epoch
        elif isinstance(expected, Timestamp):
            expected = (expected.time << 32) | expected.inc
        elif isinstance(expected, ObjectId):
            expected = str(expected) if field_type == "string" else list(expected.binary)
        elif isinstance(expected, Decimal128):
            expected = str(expected)
        elif isinstance(expected, Binary) and expected.subtype == 4 and field_type == "string":
            expected = str(uuid.UUID(bytes=bytes(expected)))
        elif isinstance(expected, (bytes, Binary)):
            expected = list(bytes(expected))
        if isinstance(expected, list) and isinstance(actual, (bytes, bytearray)):
            actual = list(actual)  # a [ubyte] the generated code read as bytes
        if expected is None:
            if actual not in (None, 0, False):
                raise Mismatch(f"{path}: null in MongoDB, {actual!r} in the record")
        elif isinstance(expected, bool):
            if actual is not expected:
                raise Mismatch(f"{path}: {expected!r} in MongoDB, {actual!r} in the record")
        elif isinstance(expected, float) and math.isnan(expected):
            if not (isinstance(actual, float) and math.isnan(actual)):
                raise Mismatch(f"{path}: NaN in MongoDB, {actual!r} in the record")
        elif isinstance(expected, (int, float)):
            if actual is None or actual != expected or type(actual) is bool:
                raise Mismatch(f"{path}: {expected!r} in MongoDB, {actual!r} in the record")
        elif isinstance(expected, str):
            got = actual.decode("utf-8") if isinstance(actual, bytes) else actual
            if got != expected:
                raise Mismatch(f"{path}: {expected!r} in MongoDB, {got!r} in the record")
        elif isinstance(expected, list):
            if actual is None or len(actual) != len(expected):
                raise Mismatch(f"{path}: {len(expected)} elements in MongoDB, record has {actual!r}")
            for i, (e, a) in enumerate(zip(expected, actual)):
                self.value(e, a, f"{path}[{i}]", field_type.strip("[]"))
        elif isinstance(expected, dict):
            if actual is None:
                raise Mismatch(f"{path}: a sub-document in MongoDB, nothing in the record")
            self.table(expected, actual, f"{path}.")
        else:
            raise Mismatch(f"{path}: {type(expected).__name__} is not compared by this program")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("export", help="OUT (follows OUT/current) or an export's own directory")
    parser.add_argument("--uri", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--collection", required=True)
    parser.add_argument("--flatc", default=os.environ.get("FLATC", "flatc"))
    args = parser.parse_args()

    export = args.export
    if os.path.isdir(os.path.join(export, "current")):
        export = os.path.realpath(os.path.join(export, "current"))
    with open(os.path.join(export, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    schema_file = os.path.join(export, manifest["schema"]["file"])
    with open(schema_file, encoding="utf-8") as f:
        namespace, root, renames, types, enums, shapes = parse_schema(f.read())

    generated = tempfile.mkdtemp(prefix="flatdump-python-")
    subprocess.run(
        [args.flatc, "--python", "--gen-object-api", "-o", generated, schema_file], check=True
    )
    sys.path.insert(0, generated)
    module = importlib.import_module(f"{namespace}.{root}" if namespace else root)
    root_class = getattr(module, root)
    root_object_class = getattr(module, root + "T")

    rejected = set()
    with open(os.path.join(export, "rejects.jsonl"), encoding="utf-8") as f:
        for line in f:
            rejected.add(json.dumps(json.loads(line)["_id"], sort_keys=True))

    def id_key(value):
        """An _id as rejects.jsonl writes it: relaxed Extended JSON."""
        relaxed = json_util.dumps(value, json_options=json_util.RELAXED_JSON_OPTIONS)
        return json.dumps(json.loads(relaxed), sort_keys=True)

    client = pymongo.MongoClient(args.uri)
    # dates as ms since the epoch, as the export writes them, whatever their range
    options = CodecOptions(datetime_conversion=DatetimeConversion.DATETIME_MS)
    collection = client[args.db].get_collection(args.collection, codec_options=options)
    documents = (
        d
        for d in collection.find({}, sort=[("_id", 1)])
        if id_key(d["_id"]) not in rejected
    )
    comparer = Comparer(renames, types, enums, shapes)
    count = 0
    for shard in manifest["files"]:
        if shard["format"] != "flatbuffers":
            continue
        with open(os.path.join(export, shard["name"]), "rb") as f:
            buf = bytearray(f.read())
        unpacked = root_object_class.InitFromObj(root_class.GetRootAs(buf, 0))
        (records,) = [v for v in vars(unpacked).values() if isinstance(v, list)] or [[]]
        for record in records:
            doc = next(documents, None)
            if doc is None:
                print(f"the export has more records than MongoDB has documents (at {count})")
                return 1
            try:
                comparer.table(doc, record, "")
            except Mismatch as e:
                print(f"record {count} (_id {doc['_id']!r}) differs: {e}")
                return 1
            count += 1
    extra = next(documents, None)
    if extra is not None:
        print(f"MongoDB has a document the export lacks: _id {extra['_id']!r}")
        return 1
    print(f"{count} records agree with {args.db}.{args.collection}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
