"""The output directory's pointer, followed as the Java reader's ``Pointer`` follows it.

The ``current`` symbolic link when there is one, resolved to the real directory; else the
``CURRENT`` file, one line ``exports/NAME``; else the path itself, an export's own directory.
"""

import os
import re

from ._errors import FlatdumpReaderError

CURRENT_LINK = "current"
CURRENT_FILE = "CURRENT"
EXPORTS = "exports"

# an export's directory name, as the publish checks it
_EXPORT_NAME = re.compile(r"[0-9A-Za-z][0-9A-Za-z._-]{0,99}")


def resolve(path):
    """The export directory ``path`` names now (an absolute path).

    Raises FlatdumpReaderError when a pointer is there but names nothing readable.
    """
    path = os.path.abspath(path)
    link = os.path.join(path, CURRENT_LINK)
    if os.path.islink(link):
        real = os.path.realpath(link)
        if not os.path.isdir(real):
            raise FlatdumpReaderError(link + " names a directory that does not exist")
        return real
    file = os.path.join(path, CURRENT_FILE)
    if os.path.islink(file) or not os.path.isfile(file):
        return path
    try:
        with open(file, "rb") as f:
            text = f.read().decode("utf-8").strip()
    except (OSError, UnicodeDecodeError) as e:
        raise FlatdumpReaderError("cannot read %s: %s" % (file, e)) from e
    prefix = EXPORTS + "/"
    name = text[len(prefix):] if text.startswith(prefix) else ""
    if not _EXPORT_NAME.fullmatch(name):
        raise FlatdumpReaderError(
            "%s does not name a directory under %s: %s" % (file, prefix, text))
    return os.path.join(path, EXPORTS, name)

