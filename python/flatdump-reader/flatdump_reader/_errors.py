"""The package's one exception."""


class FlatdumpReaderError(Exception):
    """An export, or a pointer to one, that cannot be read: the message names the file and why."""
