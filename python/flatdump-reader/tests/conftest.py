"""The suite's data: real exports that flatdump wrote, named by ``FLATDUMP_READER_TEST_DATA``.

``PythonExportReaderIT`` (``./mvnw verify``) writes it from a real mongod and runs this suite:

    DATA/gen/                      flatc --python of strkeys.fbs and longkeys.fbs (R, Rs)
    DATA/strings/out/              an output directory: one export, records keyed by a string
    DATA/strings/expected.json     {"records": [[_id, n], ...]} in _id order, as MongoDB gave them
    DATA/longs/out/, expected.json the same, keyed by a long
    DATA/generations/gNN/out/, expected.json
                                   one collection's generations: string keys, n = NN * 100000 +
                                   the key's number; the suite publishes them for reloads

The suite fails, rather than skip, without that data.
"""

import json
import os
import shutil
import sys

import pytest

DATA = os.environ.get("FLATDUMP_READER_TEST_DATA")


def pytest_configure(config):
    if not DATA or not os.path.isdir(os.path.join(DATA, "gen")):
        raise pytest.UsageError(
            "FLATDUMP_READER_TEST_DATA must name the exports PythonExportReaderIT writes "
            "(./mvnw verify -Dit.test=PythonExportReaderIT -Dflatdump.python.data=DIR keeps them)")
    sys.path.insert(0, os.path.join(DATA, "gen"))


class Case(object):
    """One exported collection: its output directory, what MongoDB holds, its generated classes."""

    def __init__(self, name, directory, key_type, namespace):
        self.name = name
        self.out = os.path.join(directory, "out")
        self.key_type = key_type
        with open(os.path.join(directory, "expected.json"), encoding="utf-8") as f:
            self.expected = [tuple(r) for r in json.load(f)["records"]]
        module_r = __import__(namespace + ".R", fromlist=["R"])
        module_rs = __import__(namespace + ".Rs", fromlist=["Rs"])
        self.R = module_r.R
        self.Rs = module_rs.Rs

    def key_of(self, record):
        """A generated record's key, as expected.json has it."""
        k = record.Id()
        return k.decode("utf-8") if self.key_type == "string" else k

    def export_dir(self):
        """The output directory's current export (the pointer followed by hand)."""
        return os.path.realpath(os.path.join(self.out, "current"))

    def __repr__(self):
        return self.name


def strings_case():
    return Case("strings", os.path.join(DATA, "strings"), "string", "strkeys")


def longs_case():
    return Case("longs", os.path.join(DATA, "longs"), "long", "longkeys")


@pytest.fixture(scope="session", params=["strings", "longs"])
def case(request):
    """Each keyed export in turn."""
    return strings_case() if request.param == "strings" else longs_case()


@pytest.fixture(scope="session")
def strings():
    return strings_case()


@pytest.fixture(scope="session")
def generations():
    """The generations' Cases, in order."""
    root = os.path.join(DATA, "generations")
    return [Case(name, os.path.join(root, name), "string", "strkeys")
            for name in sorted(os.listdir(root))]


def publish(out, source_export, name, keep):
    """Publishes a copy of the export ``source_export`` into the output directory ``out`` as
    flatdump's publish does: the complete directory renamed to ``out/exports/NAME``, then the
    ``current`` link and the ``CURRENT`` file each replaced by a rename, then the exports beyond
    ``keep`` removed (names sort in publishing order), never the current one. Returns the new export's directory."""
    exports = os.path.join(out, "exports")
    os.makedirs(exports, exist_ok=True)
    staging = os.path.join(out, ".staging-" + name)
    shutil.copytree(source_export, staging)
    target = os.path.join(exports, name)
    os.rename(staging, target)
    link = os.path.join(out, ".current-" + name)
    os.symlink(os.path.join("exports", name), link)
    os.replace(link, os.path.join(out, "current"))
    pointer = os.path.join(out, ".CURRENT-" + name)
    with open(pointer, "w", encoding="utf-8") as f:
        f.write("exports/%s\n" % name)
    os.replace(pointer, os.path.join(out, "CURRENT"))
    published = sorted(os.listdir(exports))  # the suite's names sort in publishing order
    for old in published[:-keep] if keep else []:
        if old != name:
            shutil.rmtree(os.path.join(exports, old))
    return target


def copy_export(source_export, target):
    """A copy of one export's directory, to break."""
    shutil.copytree(source_export, target)
    return target
